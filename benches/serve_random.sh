#!/usr/bin/env bash
# Throughput of `tigadi serve` on a stream of random positions that the block
# cache has mostly not seen (issue 31): N random moving-phase positions spread
# evenly over every moving-phase subspace that has a table in DIR (side to move and counter 0),
# each requested once in turn, with wrk (Debian package `wrk`).
# Usage: benches/serve_random.sh DIR [N] [SECONDS] [CONNECTIONS] [RULES]
# DIR holds solved tables, e.g. `tigadi solve --max-pieces 10 --dir DIR`.
# TIGADI_BIN=PATH serves with another build (for A/B runs) instead of building this one;
# SERVE_ARGS="--cache-mib 128" passes options to `tigadi serve`.
# Prints wrk's requests/s and latency percentiles, and the server's CPU per request.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: benches/serve_random.sh DIR [N] [SECONDS] [CONNECTIONS] [RULES]}
n=${2:-100000}
secs=${3:-20}
conns=${4:-32}
rules=${5:-tigadi}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }
if [ -n "${TIGADI_BIN:-}" ]; then
    bin=$TIGADI_BIN
else
    cargo build --release -q -p tigadi-cli
    bin=target/release/tigadi
fi
rdir=$(echo "$rules" | sed 's/=/-/g; s/,/_/g')
paths=$(mktemp)
log=$(mktemp)
# Random positions: for each subspace with a table, gotis dropped on random points
# (seed 31), alternating the side to move; every position valid in the moving phase.
python3 - "$dir" "$rules" "$n" > "$paths" <<'PY'
import os, random, sys, urllib.parse
from pathlib import Path
directory, rules, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
rdir = rules.replace("=", "-").replace(",", "_")
subs = sorted(
    tuple(int(x) for x in f.stem.split("v"))
    for f in Path(directory, rdir).glob("[0-9]*v*.tgtb")
)
ranks = [["a7","d7","g7"],["b6","d6","f6"],["c5","d5","e5"],["a4","b4","c4","e4","f4","g4"],
         ["c3","d3","e3"],["b2","d2","f2"],["a1","d1","g1"]]
points = [p for r in ranks for p in r]
rng = random.Random(31)
for i in range(n):
    m, o = subs[i % len(subs)]
    side = "B" if (i // len(subs)) % 2 == 0 else "S"
    chosen = rng.sample(points, m + o)
    mover, opp = set(chosen[:m]), set(chosen[m:])
    bone, seed = (mover, opp) if side == "B" else (opp, mover)
    text = "/".join("".join("B" if p in bone else "S" if p in seed else "." for p in r) for r in ranks)
    print(f"/api/v1/{urllib.parse.quote(rules, safe='')}?position={urllib.parse.quote(text + ' ' + side, safe='/')}")
PY
"$bin" serve --dir "$dir" --bind 127.0.0.1:0 ${SERVE_ARGS:-} 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -f "$log" "$paths"' EXIT
for _ in $(seq 100); do grep -q 'http://' "$log" && break; sleep 0.1; done
addr=$(sed -n 's|.*http://\([^/]*\)/.*|\1|p' "$log" | head -1)
curl -sf "http://$addr$(head -1 "$paths")" >/dev/null || { echo "no answer from the server" >&2; exit 1; }
cpu() { awk '{print $14 + $15}' "/proc/$server/stat"; }
tick=$(getconf CLK_TCK)
before=$(cpu); n0=$(grep -c ' 200 ' "$log" || true)
echo "== $n random positions over $(ls "$dir/$rdir"/[0-9]*v*.tgtb | wc -l) subspaces, $conns connections, ${secs}s (rules $rules, $bin)"
PATHS="$paths" wrk -t2 -c"$conns" -d"${secs}s" --latency -s benches/serve_random.lua "http://$addr"
after=$(cpu); n1=$(grep -c ' 200 ' "$log" || true)
errors=$(grep -c '^GET .* [45][0-9][0-9] ' "$log" || true)
awk -v c=$((after - before)) -v t="$tick" -v k=$((n1 - n0)) -v e="$errors" \
    'BEGIN { printf "server: %d answers 200, %d errors, CPU %.1f us per request\n", k, e, 1e6 * c / t / k }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
