#!/usr/bin/env bash
# Throughput of `tigadi serve` for single-position probes on warm tables, with
# wrk (Debian package `wrk`). Usage: benches/serve_load.sh DIR [SECONDS] [CONNECTIONS]
# DIR holds solved tables (at least 3v3, 3v4, 4v3: `tigadi solve --max-pieces 7`).
# Runs the server on a free loopback port with its request log going to a file,
# warms the tables, then runs wrk twice: one position over and over, and 200
# positions in turn (benches/serve_positions.lua). Stops the server at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: benches/serve_load.sh DIR [SECONDS] [CONNECTIONS]}
secs=${2:-10}
conns=${3:-32}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }
cargo build --release -q -p tigadi-cli
log=$(mktemp)
target/release/tigadi serve --dir "$dir" --bind 127.0.0.1:0 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -f "$log" "$log.wrk"' EXIT
for _ in $(seq 100); do grep -q 'http://' "$log" && break; sleep 0.1; done
addr=$(sed -n 's|.*http://\([^/]*\)/.*|\1|p' "$log" | head -1)
url="http://$addr/api/v1/tigadi?position=BB./S../.../...S../.../.../SB.%20S"
curl -sf "$url" >/dev/null || { echo "no answer from $url" >&2; exit 1; }
# The server's CPU time (user + system) in clock ticks.
cpu() { awk '{print $14 + $15}' "/proc/$server/stat"; }
tick=$(getconf CLK_TCK)
measure() {
    local before after n0 n1
    before=$(cpu); n0=$(grep -c ' 200 ' "$log" || true)
    /usr/bin/time -f "%U %S" -o "$log.wrk" wrk -t1 -c"$conns" -d"${secs}s" --latency "$@"
    after=$(cpu); n1=$(grep -c ' 200 ' "$log" || true)
    awk -v c=$((after - before)) -v t="$tick" -v n=$((n1 - n0)) -v w="$(awk '{print $1 + $2}' "$log.wrk")" \
        'BEGIN { s = c / t; printf "server CPU: %.1f us per request (%d requests, %.2f CPU s); wrk CPU: %.1f us per request\n", 1e6 * s / n, n, s, 1e6 * w / n;
                 printf "so 2 otherwise idle cores would serve about %.0f requests/s (server and wrk on the same machine)\n", 2e6 / (1e6 * (s + w) / n) }'
}
echo "== one position, $conns connections, ${secs}s"
measure "$url"
echo "== 200 positions in turn, $conns connections, ${secs}s"
measure -s benches/serve_positions.lua "http://$addr"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
