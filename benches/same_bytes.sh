#!/usr/bin/env bash
# Do two tigadi binaries write the same tables? The check every change to the
# solver passes before it lands ("same bytes" in docs/PERFORMANCE.md):
#
#   benches/same_bytes.sh --ref REF_BIN [--bin BIN] [--work DIR] [--threads N]
#                         [--only NAME]...
#
# solves seven small sets that between them reach every kind of table (game,
# 100-turn, DTW), every tier kind (empty hands, gotis in hand, Lasker's slides
# in hand) and every rule set, with REF_BIN and with BIN, each into a new
# directory, and compares every file of each pair of directories with `cmp`
# but `manifest.json` (its `seconds` fields differ from run to run) and the
# run's `.lock`:
#
#   lasker4-dtw      --rules lasker,pieces=4 solve --dtw
#   lasker5          --rules lasker,pieces=5 solve
#   tigadi10         --rules tigadi solve --max-pieces 10
#   tigadi6          --rules tigadi,pieces=6 solve
#   morabaraba4-dtw  --rules morabaraba,pieces=4 solve --dtw
#   navakankari4-dtw --rules navakankari,pieces=4 solve --dtw
#   morris5          --rules morris,pieces=5 solve
#
#   --ref REF_BIN  the binary whose tables are the reference (an earlier commit's
#                  build); its directories are kept in DIR/ref and reused while
#                  REF_BIN's bytes are the same (DIR/ref/BINARY holds its sha256)
#   --bin BIN      the binary under test (default: $TIGADI_BIN, else
#                  target/release/tigadi, else tigadi on PATH)
#   --work DIR     where the directories go (default: tablebases/same-bytes,
#                  which git ignores); DIR/new is made anew each run
#   --threads N    solve with BIN on N threads (the reference on the default):
#                  with 1, the check that the output does not depend on them
#   --only NAME    only this set (repeatable)
#
# Prints one line a set ("NAME: F files equal", or each file that differs or is
# missing on one side) and a last line with the totals.
# Exit status: 0 every file equal, 1 a file differs or is missing, 2 bad usage,
# 3 a solve failed.
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$(dirname "$0")/tigadi_bin.sh"

sets=(
    "lasker4-dtw|lasker,pieces=4|--dtw"
    "lasker5|lasker,pieces=5|"
    "tigadi10|tigadi|--max-pieces 10"
    "tigadi6|tigadi,pieces=6|"
    "morabaraba4-dtw|morabaraba,pieces=4|--dtw"
    "navakankari4-dtw|navakankari,pieces=4|--dtw"
    "morris5|morris,pieces=5|"
)

usage() {
    sed -n '5,6p' "$0" | sed 's/^# \{0,1\}//' >&2
    echo "(benches/same_bytes.sh --help for the details)" >&2
    exit 2
}

ref="" bin="" work="$repo/tablebases/same-bytes" threads="" only=()
while [ $# -gt 0 ]; do
    case "$1" in
        --ref) [ $# -ge 2 ] || usage; ref="$2"; shift 2 ;;
        --bin) [ $# -ge 2 ] || usage; bin="$2"; shift 2 ;;
        --work) [ $# -ge 2 ] || usage; work="$2"; shift 2 ;;
        --threads) [ $# -ge 2 ] || usage; threads="$2"; shift 2 ;;
        --only) [ $# -ge 2 ] || usage; only+=("$2"); shift 2 ;;
        -h|--help) sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "same_bytes.sh: unknown argument $1" >&2; usage ;;
    esac
done
if [ -z "$ref" ]; then echo "same_bytes.sh: --ref REF_BIN is required" >&2; usage; fi
if [ ! -x "$ref" ]; then echo "same_bytes.sh: no binary at --ref $ref" >&2; exit 2; fi
if [ -n "$threads" ] && ! [[ "$threads" =~ ^[1-9][0-9]*$ ]]; then
    echo "same_bytes.sh: --threads needs a positive whole number, not '$threads'" >&2
    exit 2
fi
known=" $(for s in "${sets[@]}"; do printf '%s ' "${s%%|*}"; done)"
for name in ${only[@]+"${only[@]}"}; do
    case "$known" in
        *" $name "*) ;;
        *) echo "same_bytes.sh: no set named '$name' (sets:$known)" >&2; exit 2 ;;
    esac
done
tigadi_bin same_bytes.sh

# The reference directories are reused only while they come from the same binary.
ref_sum="$(sha256sum < "$ref" | cut -d' ' -f1)"
mkdir -p "$work/ref" || exit 2
if [ "$(cat "$work/ref/BINARY" 2> /dev/null)" != "$ref_sum" ]; then
    rm -rf "$work/ref" && mkdir -p "$work/ref" && echo "$ref_sum" > "$work/ref/BINARY"
fi
rm -rf "$work/new" && mkdir -p "$work/new" || exit 2

# solve BIN DIR RULES ARGS...: the solve, its output in DIR.log; exits 3 on failure.
solve() {
    local b="$1" d="$2" rules="$3"; shift 3
    if ! "$b" --rules "$rules" solve --dir "$d" "$@" > "$d.log" 2>&1; then
        echo "same_bytes.sh: $b --rules $rules solve --dir $d $* failed (its output: $d.log)" >&2
        exit 3
    fi
}

files=0 bad=0
for s in "${sets[@]}"; do
    IFS='|' read -r name rules args <<< "$s"
    if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $name "* ]]; then continue; fi
    # shellcheck disable=SC2086 # the set's arguments are words
    if [ ! -e "$work/ref/$name.done" ]; then
        rm -rf "${work:?}/ref/$name"
        solve "$ref" "$work/ref/$name" "$rules" $args
        touch "$work/ref/$name.done"
    fi
    # shellcheck disable=SC2086
    solve "$bin" "$work/new/$name" "$rules" $args ${threads:+--threads "$threads"}
    equal=0 differ=()
    names="$( (cd "$work/ref/$name" && find . -type f ! -name manifest.json ! -name .lock;
               cd "$work/new/$name" && find . -type f ! -name manifest.json ! -name .lock) | sort -u)"
    while IFS= read -r f; do
        [ -n "$f" ] || continue
        if [ ! -e "$work/ref/$name/$f" ]; then differ+=("${f#./} (only in the new run)")
        elif [ ! -e "$work/new/$name/$f" ]; then differ+=("${f#./} (only in the reference)")
        elif cmp -s "$work/ref/$name/$f" "$work/new/$name/$f"; then equal=$((equal + 1))
        else differ+=("${f#./} (differs)")
        fi
    done <<< "$names"
    files=$((files + equal + ${#differ[@]}))
    bad=$((bad + ${#differ[@]}))
    if [ ${#differ[@]} -eq 0 ]; then
        echo "$name: $equal files equal"
    else
        echo "$name: $equal files equal, ${#differ[@]} not:"
        printf '  %s\n' "${differ[@]}"
    fi
done
echo "same bytes: $((files - bad)) of $files files equal${threads:+ (--threads $threads)}"
[ "$bad" -eq 0 ]
