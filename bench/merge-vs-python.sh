#!/usr/bin/env bash
# Wall time of `nettools merge` on 100,000 entries against Python's ipaddress.collapse_addresses
# on the same file (issue 13). Both read the file, merge and write one CIDR a line; the outputs
# must be identical. A few seconds in all; figures go to docs/performance.md by hand.
#   bash bench/merge-vs-python.sh [N] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-100000}"
RUNS="${2:-3}"
BUN=node_modules/.bin/bun
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

python3 bench/gen-merge-input.py "$N" > "$WORK/entries.txt"

PY='
import ipaddress, sys
nets = [ipaddress.ip_network(line.strip(), strict=False) for line in open(sys.argv[1]) if line.strip()]
sys.stdout.write("".join(f"{n}\n" for n in ipaddress.collapse_addresses(nets)))
'

# Best of RUNS, in milliseconds, of one command writing to $2.
best_ms() {
  local out="$1"; shift
  local best=""
  for _ in $(seq "$RUNS"); do
    local start end ms
    start=$(date +%s%N)
    "$@" > "$out"
    end=$(date +%s%N)
    ms=$(( (end - start) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best="$ms"; fi
  done
  echo "$best"
}

nettools_ms=$(best_ms "$WORK/nettools.txt" "$BUN" src/cli/main.ts merge --plain -f "$WORK/entries.txt")
python_ms=$(best_ms "$WORK/python.txt" python3 -c "$PY" "$WORK/entries.txt")
cmp -s "$WORK/nettools.txt" "$WORK/python.txt" || { echo "outputs differ" >&2; exit 1; }

echo "entries: $N, result CIDRs: $(wc -l < "$WORK/nettools.txt"), best of $RUNS runs"
echo "nettools merge --plain (bun $($BUN --version)): ${nettools_ms} ms"
echo "python3 collapse_addresses ($(python3 --version 2>&1)): ${python_ms} ms"
