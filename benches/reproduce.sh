#!/usr/bin/env bash
# Re-run a published result and compare it with the committed numbers.
#
#   benches/reproduce.sh GAME PHASE [--max-pieces N] [--dir DIR] [--bin PATH]
#                        [--data FILE] [--figures]
#
# GAME is tigadi, navakankari, morris or morabaraba (once its rows are in data/:
# benches/morabaraba.sh); PHASE is moving, placing, horizon or dtw. The script
# runs
#   tigadi --rules GAME solve --dir DIR --no-horizon [--no-placing] [--max-pieces N]
# (--no-placing for the moving phase; the placing phase needs the whole moving
# phase and solves it first; horizon: both phases with their 100-turn tables,
# without --no-horizon; dtw: both phases and their DTW tables, --dtw), then
#   tigadi --rules GAME stats --json --dir DIR  >  DIR/reproduce-GAME-PHASE-stats.jsonl
# and compares those rows with data/GAME-PHASE-stats.jsonl through
# benches/compare_stats.py: every field but the wall time (`seconds`), row by row.
#
#   --max-pieces N  solve only the subspaces with at most N gotis (not with
#                   placing: its moving rows are those of a partial run of the
#                   other phases); only the subspaces present in the run are compared
#   --dir DIR       tablebase directory (default: tablebases/reproduce, which git
#                   ignores); an existing one is reused: the solve resumes and skips
#                   what is already solved. For moving, placing and dtw use a
#                   directory solved with --no-horizon: their committed rows have
#                   no 100-turn values (null)
#   --bin PATH      the tigadi binary (default: $TIGADI_BIN, else
#                   target/release/tigadi, else tigadi on PATH)
#   --data FILE     compare with FILE instead of data/GAME-PHASE-stats.jsonl
#   --figures       draw the run's figures (scripts/figures.py) into DIR/figures
#                   even for a partial run; a complete moving phase always draws them
#
# Exit status: 0 every compared row is equal, 1 a row differs (or is missing or
# extra), 2 bad usage, 3 the solve or stats run failed.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"

usage() {
    sed -n '4,5p' "$0" | sed 's/^# \{0,1\}//' >&2
    echo "(benches/reproduce.sh --help for the details)" >&2
    exit 2
}

game="" phase="" max_pieces="" dir="" bin="${TIGADI_BIN:-}" data="" figures=0
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        --max-pieces) [ $# -ge 2 ] || usage; max_pieces="$2"; shift 2 ;;
        --dir) [ $# -ge 2 ] || usage; dir="$2"; shift 2 ;;
        --bin) [ $# -ge 2 ] || usage; bin="$2"; shift 2 ;;
        --data) [ $# -ge 2 ] || usage; data="$2"; shift 2 ;;
        --figures) figures=1; shift ;;
        -*) echo "reproduce.sh: unknown option $1" >&2; usage ;;
        *)
            if [ -z "$game" ]; then game="$1"
            elif [ -z "$phase" ]; then phase="$1"
            else echo "reproduce.sh: unexpected argument $1" >&2; usage
            fi
            shift ;;
    esac
done

case "$game" in tigadi|navakankari|morris|morabaraba) ;; *)
    echo "reproduce.sh: GAME must be tigadi, navakankari, morris or morabaraba${game:+, not $game}" >&2; usage ;;
esac
case "$phase" in moving|placing|horizon|dtw) ;; *)
    echo "reproduce.sh: PHASE must be moving, placing, horizon or dtw${phase:+, not $phase}" >&2; usage ;;
esac
if [ -n "$max_pieces" ]; then
    if ! [[ "$max_pieces" =~ ^[0-9]+$ ]]; then
        echo "reproduce.sh: --max-pieces takes a number of gotis, not $max_pieces" >&2; usage
    fi
    if [ "$phase" = placing ]; then
        echo "reproduce.sh: --max-pieces is for the moving phase only (the placing phase needs all of it)" >&2
        usage
    fi
fi

data="${data:-$repo/data/$game-$phase-stats.jsonl}"
[ -f "$data" ] || { echo "reproduce.sh: no data file $data" >&2; exit 2; }
dir="${dir:-$repo/tablebases/reproduce}"
. "$repo/benches/tigadi_bin.sh"
tigadi_bin reproduce.sh

solve=("$bin" --rules "$game" solve --dir "$dir")
case "$phase" in
    moving) solve+=(--no-horizon --no-placing) ;;
    placing) solve+=(--no-horizon) ;;
    dtw) solve+=(--dtw --no-horizon) ;;
esac
[ -n "$max_pieces" ] && solve+=(--max-pieces "$max_pieces")
mkdir -p "$dir"
stats="$dir/reproduce-$game-$phase-stats.jsonl"

echo "== ${solve[*]}"
start=$(date +%s)
"${solve[@]}" || { echo "reproduce.sh: the solve failed" >&2; exit 3; }
echo "== solve done in $(( $(date +%s) - start )) s"
echo "== $bin --rules $game stats --json --dir $dir > $stats"
"$bin" --rules "$game" stats --json --dir "$dir" >"$stats" \
    || { echo "reproduce.sh: tigadi stats failed" >&2; exit 3; }

echo "== compare $data with the re-run"
partial=()
[ -n "$max_pieces" ] && partial=(--partial)
status=0
python3 "$repo/benches/compare_stats.py" "${partial[@]}" "$data" "$stats" || status=$?

# Figures of the re-run's moving phase (scripts/figures.py): always after a
# complete moving phase, with --figures after a partial one too.
if [ "$phase" = moving ] && { [ -z "$max_pieces" ] || [ "$figures" = 1 ]; }; then
    echo "== figures of the re-run: $dir/figures"
    python3 "$repo/scripts/figures.py" --game "$game" --stats "$stats" --out "$dir/figures" \
        || echo "reproduce.sh: warning: scripts/figures.py failed" >&2
elif [ "$figures" = 1 ]; then
    echo "reproduce.sh: --figures draws the moving phase only; nothing drawn for $phase" >&2
fi
exit "$status"
