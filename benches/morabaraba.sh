#!/usr/bin/env bash
# Solve Morabaraba whole (issue 29) and write its published rows.
#
#   benches/morabaraba.sh [DIR] [--bin PATH] [--verify] [--horizon]
#                         [--rules R] [--data DIR] [--compression L]
#
# Runs, in DIR (default tablebases/morabaraba, which git ignores):
#   tigadi --rules morabaraba solve --dir DIR --no-horizon
# (the moving phase, 99 subspaces up to 12v11, then the tiers with gotis
# in hand, 24 hands, back to the empty board), then
#   tigadi --rules morabaraba stats --json --dir DIR > DIR/morabaraba-stats.jsonl
# and splits those rows as the other games' are: the subspaces into
# data/morabaraba-moving-stats.jsonl, the rows of the hands and the empty board's
# line into data/morabaraba-placing-stats.jsonl.
#
# Resumable: run the same command again after an interruption (a reboot, a kill,
# a full disk); the solve skips every table already written and checked. Made
# to run unattended:
#   nohup benches/morabaraba.sh DIR >/dev/null 2>&1 &
# Everything goes to DIR/morabaraba.log (appended, one line per pair and per
# tier with gotis in hand, with times and peak memory); `tail -f` it to follow the run.
#
#   --bin PATH  the tigadi binary (default: $TIGADI_BIN, else
#               target/release/tigadi, else tigadi on PATH)
#   --verify    then run `tigadi --rules morabaraba verify --dir DIR` (every
#               stored value recomputed; about as long again as the solve;
#               resumable too)
#   --horizon   also solve the values under the 100-turn rule (the .tghz
#               tables; about as long again as the game-theoretic solve)
#   --rules R   another rule set instead of morabaraba, to try the script on a
#               small game (morabaraba,pieces=4 takes seconds); the rows are
#               named after its directory name (morabaraba_pieces-4-moving-...)
#   --data DIR  write the two row files into DIR instead of data/
#   --compression L
#               zstd levels of a new DIR (`solve --compression`: fast, the
#               default, small, or W,D); small makes files about 10% smaller
#               and the placing job about 1.18x slower (docs/PERFORMANCE.md)
#
# Needs about 10 GB of memory at the peak (the moving pair 9v8+8v9) and some
# 20 GB of disk. Expected time on two cores: docs/PERFORMANCE.md, *Morabaraba*.
#
# Exit status: 0 done, 2 bad usage or no binary, 3 the solve, stats or verify
# failed (run again to resume).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
rules=morabaraba

usage() {
    sed -n '4,5p' "$0" | sed 's/^# \{0,1\}//' >&2
    echo "(benches/morabaraba.sh --help for the details)" >&2
    exit 2
}

dir="" bin="${TIGADI_BIN:-}" verify=0 horizon=0 data="$repo/data" compression=""
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) sed -n '2,43p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        --bin) [ $# -ge 2 ] || usage; bin="$2"; shift 2 ;;
        --rules) [ $# -ge 2 ] || usage; rules="$2"; shift 2 ;;
        --data) [ $# -ge 2 ] || usage; data="$2"; shift 2 ;;
        --compression) [ $# -ge 2 ] || usage; compression="$2"; shift 2 ;;
        --verify) verify=1; shift ;;
        --horizon) horizon=1; shift ;;
        -*) echo "morabaraba.sh: unknown option $1" >&2; usage ;;
        *)
            [ -z "$dir" ] || { echo "morabaraba.sh: unexpected argument $1" >&2; usage; }
            dir="$1"; shift ;;
    esac
done

# The rule set's directory name (`morabaraba`, `morabaraba_pieces-4`): the
# default DIR and the row files are named after it.
name="$(echo "$rules" | sed 's/=/-/g; s/,/_/g')"
dir="${dir:-$repo/tablebases/$name}"
. "$repo/benches/tigadi_bin.sh"
tigadi_bin morabaraba.sh
mkdir -p "$dir"
log="$dir/$name.log"

# Every line of this script's output, and the commands', into the log.
exec >>"$log" 2>&1
say() { echo "== $(date -u '+%Y-%m-%d %H:%M:%S') $*"; }

say "start: $bin ($("$bin" --version)), commit $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2 " GB memory, " $7 " GB available"}'), $(df -h "$dir" | awk 'NR==2 {print $4 " free on disk"}')"

solve=("$bin" --rules "$rules" solve --dir "$dir")
[ "$horizon" = 1 ] || solve+=(--no-horizon)
[ -z "$compression" ] || solve+=(--compression "$compression")
say "${solve[*]}"
start=$(date +%s)
timed=()
[ -x /usr/bin/time ] && timed=(/usr/bin/time -v)
"${timed[@]}" "${solve[@]}" || { say "the solve failed or was stopped; run the same command again to resume"; exit 3; }
say "solve done in $(( $(date +%s) - start )) s"

stats="$dir/$name-stats.jsonl"
say "$bin --rules $rules stats --json --dir $dir > $stats"
"$bin" --rules "$rules" stats --json --dir "$dir" >"$stats" || { say "tigadi stats failed"; exit 3; }
mkdir -p "$data"
python3 - "$stats" "$data/$name-moving-stats.jsonl" "$data/$name-placing-stats.jsonl" <<'EOF'
import json, sys
rows = [line for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
moving = [r for r in rows if "mover" in json.loads(r)]
placing = [r for r in rows if "mover" not in json.loads(r)]
for path, part in ((sys.argv[2], moving), (sys.argv[3], placing)):
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(part)
    print(f"{path}: {len(part)} rows")
EOF
say "the empty board: $(tail -n 1 "$stats")"

if [ "$verify" = 1 ]; then
    say "$bin --rules $rules verify --dir $dir"
    start=$(date +%s)
    "${timed[@]}" "$bin" --rules "$rules" verify --dir "$dir" \
        || { say "verify failed or was stopped (exit $?); run again to resume"; exit 3; }
    say "verify done in $(( $(date +%s) - start )) s"
fi
say "done"
