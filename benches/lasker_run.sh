#!/usr/bin/env bash
# The whole Lasker run (issue 53) as one resumable chain, for the background:
#
#   nohup benches/lasker_run.sh [--bin PATH] [--dir DIR] [TAG] > /dev/null 2>&1 &
#
# runs, each at nice 19 and each resuming what DIR already holds:
#   1. tigadi --rules lasker solve --no-horizon --dir DIR   (the game values)
#   2. tigadi --rules lasker verify --kind game --dir DIR   (the start's value
#      checked before the long 100-turn pass)
#   3. tigadi --rules lasker solve --dir DIR                (the 100-turn tables)
#   4. tigadi --rules lasker verify --dir DIR               (what 3 added)
# The solves append to DIR.log (sum it with benches/solve_log_totals.py), the
# verifies to DIR-verify.log; every command's stderr, with a progress line a minute
# (TIGADI_PROGRESS_SECS=60), to DIR.err. TAG (e.g. "session 43") is written
# with the binary's path before each command, so resumed parts can be told
# apart. Stop it with kill -TERM on the chain (it passes the TERM on; the
# solver's step in progress is solved again on resumption) or pause it with
# kill -STOP / -CONT on the tigadi process.
#
# Defaults: --dir /work/tb/lasker, --bin as benches/tigadi_bin.sh finds it.
# Exit status: that of the first command that fails, else 0; 2 bad usage.
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
. "$(dirname "$0")/tigadi_bin.sh"
dir=/work/tb/lasker
bin=""
tag=""
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin="${2:?--bin needs a path}"; shift 2 ;;
        --dir) dir="${2:?--dir needs a directory}"; shift 2 ;;
        -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "lasker_run.sh: unknown option $1" >&2; exit 2 ;;
        *) tag="$1"; shift ;;
    esac
done
tigadi_bin lasker_run.sh
mkdir -p "$dir"
export TIGADI_PROGRESS_SECS=60
# kill -TERM on the chain stops the command in progress (which ends after
# writing what it finished) and then the chain.
child=""
stopping=""
trap 'stopping=1; [ -n "$child" ] && kill -TERM "$child" 2> /dev/null' TERM INT

step() {
    # A TERM between two commands: start no other.
    [ -z "$stopping" ] || return 143
    local log="$1"; shift
    echo "# $(date -u +%FT%TZ) ${tag:-untagged} $bin $*" | tee -a "$log" >> "$dir.err"
    nice -n 19 "$bin" --rules lasker "$@" --dir "$dir" >> "$log" 2>> "$dir.err" &
    child=$!
    # A TERM that came before $child was set reached no command: pass it on.
    [ -z "$stopping" ] || kill -TERM "$child" 2> /dev/null
    wait "$child"
    local rc=$?
    # A TERM interrupts the wait: wait again for the child's own exit status.
    if kill -0 "$child" 2> /dev/null; then wait "$child"; rc=$?; fi
    echo "# $(date -u +%FT%TZ) exit $rc" | tee -a "$log" >> "$dir.err"
    return $rc
}

step "$dir.log" solve --no-horizon || exit $?
step "$dir-verify.log" verify --kind game || exit $?
step "$dir.log" solve || exit $?
step "$dir-verify.log" verify || exit $?
