#!/usr/bin/env bash
# Throughput of `tigadi serve` on a stream of random positions that the block
# cache has mostly not seen (issue 31): N random moving-phase positions spread
# evenly over every moving-phase subspace that has a table in DIR (side to move and counter 0),
# each requested once in turn, with wrk (Debian package `wrk`).
# Usage: benches/serve_random.sh DIR [N] [SECONDS] [CONNECTIONS] [RULES]
# DIR holds solved tables, e.g. `tigadi solve --max-pieces 10 --dir DIR`.
# PHASES=both spreads the N positions evenly over the placing tables too (every
# table of DIR, `pN-MvO.tgtb` included: gotis dropped at random with the hands that
# N placements leave, redrawn while a player shows a tigadi whose opponent has
# lost no goti, which no game reaches); for rule sets whose hands follow from the
# placements made (not `slides=always`). The default, `moving`, is the stream
# measured before issue 56.
# TIGADI_BIN=PATH serves with another build (for A/B runs) instead of building this one;
# SERVE_ARGS="--cache-mib 128" passes options to `tigadi serve`.
# WARM=SECONDS first runs another stream (seed 32) that long unmeasured, so that the
# measured run sees a server whose tables are open and whose cache is full
# (a fresh server opens each table on its first request, which its first
# requests wait for: on a whole set that, not the steady state, sets the p99).
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
warm=$(mktemp)
log=$(mktemp)
# Random positions: for each subspace with a table, gotis dropped on random points
# (seed 31; the WARM stream seed 32), alternating the side to move; every position valid in the moving phase.
draw() {
python3 - "$dir" "$rules" "$n" "${PHASES:-moving}" "$1" <<'PY'
import os, random, re, sys, urllib.parse
from pathlib import Path
directory, rules, n, phases, stream_seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
if phases not in ("moving", "both"):
    sys.exit(f"PHASES={phases}: expected moving or both")
rdir = rules.replace("=", "-").replace(",", "_")
# (placements made, mover's gotis, opponent's gotis); None placements: moving phase.
subs = sorted(
    (tuple(int(x) for x in f.stem.split("v")), None)
    for f in Path(directory, rdir).glob("[0-9]*v*.tgtb")
)
if phases == "both":
    subs += sorted(
        ((int(g[2]), int(g[3])), int(g[1]))
        for f in Path(directory, rdir).glob("p*-*v*.tgtb")
        if (g := re.fullmatch(r"p(\d+)-(\d+)v(\d+)", f.stem))
    )
# Gotis a side: 9, 12 for morabaraba, or the rule set's pieces=N.
given = re.search(r"pieces=(\d+)", rules)
pieces = int(given.group(1)) if given else 12 if rules.startswith("morabaraba") else 9
ranks = [["a7","d7","g7"],["b6","d6","f6"],["c5","d5","e5"],["a4","b4","c4","e4","f4","g4"],
         ["c3","d3","e3"],["b2","d2","f2"],["a1","d1","g1"]]
points = [p for r in ranks for p in r]
# Every line of the largest board (the diagonals too): a position drawn for a
# board without them is only redrawn more often than it needs to be.
lines = [set(l.split()) for l in (
    "a7 d7 g7,b6 d6 f6,c5 d5 e5,a4 b4 c4,e4 f4 g4,c3 d3 e3,b2 d2 f2,a1 d1 g1,"
    "a7 a4 a1,b6 b4 b2,c5 c4 c3,d7 d6 d5,d3 d2 d1,e5 e4 e3,f6 f4 f2,g7 g4 g1,"
    "a7 b6 c5,g7 f6 e5,a1 b2 c3,g1 f2 e3").split(",")]
tigadi = lambda s: any(l <= s for l in lines)
rng = random.Random(stream_seed)
for i in range(n):
    (m, o), made = subs[i % len(subs)]
    if made is None:
        side = "B" if (i // len(subs)) % 2 == 0 else "S"
        hands = ""
    else:
        # Bone places first: after `made` placements Bone has placed
        # ceil(made/2), Seed floor(made/2).
        side = "B" if made % 2 == 0 else "S"
        bone_placed, seed_placed = (made + 1) // 2, made // 2
        mover_placed, opp_placed = (bone_placed, seed_placed) if side == "B" else (seed_placed, bone_placed)
        hands = f" {pieces - bone_placed} {pieces - seed_placed}"
    for _ in range(1000):
        chosen = rng.sample(points, m + o)
        mover, opp = set(chosen[:m]), set(chosen[m:])
        if made is None or not (
            (tigadi(mover) and opp_placed == o) or (tigadi(opp) and mover_placed == m)
        ):
            break
    else:
        sys.exit(f"no position drawn for {m}v{o} after {made} placements")
    bone, seed = (mover, opp) if side == "B" else (opp, mover)
    text = "/".join("".join("B" if p in bone else "S" if p in seed else "." for p in r) for r in ranks)
    print(f"/api/v1/{urllib.parse.quote(rules, safe='')}?position={urllib.parse.quote(text + ' ' + side + hands, safe='/')}")
PY
}
draw 31 > "$paths"
"$bin" serve --dir "$dir" --bind 127.0.0.1:0 ${SERVE_ARGS:-} 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -f "$log" "$paths" "$warm"' EXIT
for _ in $(seq 100); do grep -q 'http://' "$log" && break; sleep 0.1; done
addr=$(sed -n 's|.*http://\([^/]*\)/.*|\1|p' "$log" | head -1)
curl -sf "http://$addr$(head -1 "$paths")" >/dev/null || { echo "no answer from the server" >&2; exit 1; }
cpu() { awk '{print $14 + $15}' "/proc/$server/stat"; }
if [ "${WARM:-0}" != 0 ]; then
    draw 32 > "$warm"
    PATHS="$warm" wrk -t2 -c"$conns" -d"${WARM}s" -s benches/serve_random.lua "http://$addr" >/dev/null
fi
tick=$(getconf CLK_TCK)
before=$(cpu); n0=$(grep -c ' 200 ' "$log" || true)
tables=$(ls "$dir/$rdir"/[0-9]*v*.tgtb | wc -l)
[ "${PHASES:-moving}" = both ] && tables="$tables moving-phase and $(find "$dir/$rdir" -maxdepth 1 -name "p*-*v*.tgtb" | wc -l) placing"
echo "== $n random positions over $tables subspaces (PHASES=${PHASES:-moving}), $conns connections, ${secs}s after ${WARM:-0}s unmeasured (rules $rules, $bin)"
PATHS="$paths" wrk -t2 -c"$conns" -d"${secs}s" --latency -s benches/serve_random.lua "http://$addr"
after=$(cpu); n1=$(grep -c ' 200 ' "$log" || true)
errors=$(grep -c '^GET .* [45][0-9][0-9] ' "$log" || true)
awk -v c=$((after - before)) -v t="$tick" -v k=$((n1 - n0)) -v e="$errors" \
    'BEGIN { printf "server: %d answers 200, %d errors, CPU %.1f us per request\n", k, e, 1e6 * c / t / k }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
