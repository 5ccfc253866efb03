#!/usr/bin/env bash
# How many instructions two binaries execute for the same command, counted by
# valgrind's cachegrind without its cache simulation: a steady measure where
# this project's machines' timings are not (a VM without performance counters,
# cores shared with a long run; docs/PERFORMANCE.md, "The placing pass: a set's
# lines in the free points' numbering"). It counts work, not time: a change that
# trades instructions for memory stalls (or the reverse) needs a timing too.
#
#   benches/instructions.sh --ref REF_BIN --bin BIN -- ARGS...
#
# runs `REF_BIN ARGS...`, then `BIN ARGS...`, each under `valgrind
# --tool=cachegrind --cache-sim=no` on one rayon thread (RAYON_NUM_THREADS=1
# unless it is set), about 30-50 times slower than without, and prints one JSON
# line each: {"binary": PATH, "instructions": N, "role": "ref"|"bin"}, the
# second with "ratio" (BIN's instructions over REF_BIN's). For example, the
# placing pass of one tier:
#
#   benches/instructions.sh --ref /tmp/old/placing_times \
#       --bin target/release/examples/placing_times -- - 11 3v6
#
# Exit status: 0; 2 for bad usage or no valgrind; 3 when a command fails (its
# output's last lines on stderr).
set -uo pipefail

usage() {
    sed -n '9p' "$0" | sed 's/^# *//' >&2
    echo "(benches/instructions.sh --help for the details)" >&2
    exit 2
}

ref="" bin=""
while [ $# -gt 0 ]; do
    case "$1" in
        --ref) [ $# -ge 2 ] || usage; ref="$2"; shift 2 ;;
        --bin) [ $# -ge 2 ] || usage; bin="$2"; shift 2 ;;
        -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        --) shift; break ;;
        *) echo "instructions.sh: unknown argument '$1'" >&2; usage ;;
    esac
done
[ -n "$ref" ] && [ -n "$bin" ] || { echo "instructions.sh: --ref and --bin are both needed" >&2; usage; }
for b in "$ref" "$bin"; do
    [ -x "$b" ] || { echo "instructions.sh: '$b' is not an executable file" >&2; exit 2; }
done
command -v valgrind > /dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RAYON_NUM_THREADS="${RAYON_NUM_THREADS:-1}"

# count ROLE BIN ARGS...: prints the instructions BIN ARGS... executed.
count() {
    local role="$1" b="$2"
    shift 2
    if ! valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        --log-file="$work/$role.valgrind" "$b" "$@" > "$work/$role.out" 2>&1; then
        echo "instructions.sh: '$b $*' failed:" >&2
        tail -n 5 "$work/$role.out" >&2
        exit 3
    fi
    # "==PID== I   refs:      10,758,900,329"
    local n
    n=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$work/$role.valgrind" | tr -d ,)
    [ -n "$n" ] || { echo "instructions.sh: no count in valgrind's log" >&2; exit 3; }
    echo "$n"
}

n_ref=$(count ref "$ref" "$@") || exit $?
n_bin=$(count bin "$bin" "$@") || exit $?
printf '{"binary": "%s", "instructions": %s, "role": "ref"}\n' "$ref" "$n_ref"
ratio=$(awk -v a="$n_bin" -v b="$n_ref" 'BEGIN { printf "%.4f", a / b }')
printf '{"binary": "%s", "instructions": %s, "ratio": %s, "role": "bin"}\n' "$bin" "$n_bin" "$ratio"
