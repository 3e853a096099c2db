#!/usr/bin/env bash
# CPU and wall time of `nettools match` against Debian's grepcidr on the same generated log
# (issue 18): LINES lines (default 1,000,000), BLOCKS blocks (default 1000), default mode and -v.
# The outputs must be identical. Best of RUNS; figures go to docs/performance.md by hand.
#   bash bench/match-vs-grepcidr.sh [LINES] [BLOCKS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
LINES="${1:-1000000}"; BLOCKS="${2:-1000}"; RUNS="${3:-3}"
BUN=node_modules/.bin/bun
command -v grepcidr >/dev/null || { echo "grepcidr is not installed (apt-get install grepcidr)" >&2; exit 1; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 bench/gen-match-log.py "$LINES" "$BLOCKS" "$WORK/log.txt" "$WORK/blocks.txt"

# Best user+sys CPU seconds and wall seconds of RUNS runs of a command writing to $1.
best() {
  local out="$1"; shift
  local best_cpu="" best_wall=""
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%U %S %e" -o "$WORK/time" "$@" > "$out" || [[ $? == 1 ]]
    read -r user sys wall < "$WORK/time"
    local cpu; cpu=$(echo "$user + $sys" | bc)
    if [[ -z "$best_cpu" ]] || (( $(echo "$cpu < $best_cpu" | bc) )); then best_cpu="$cpu"; fi
    if [[ -z "$best_wall" ]] || (( $(echo "$wall < $best_wall" | bc) )); then best_wall="$wall"; fi
  done
  echo "$best_cpu $best_wall"
}

echo "log: $LINES lines ($(du -h "$WORK/log.txt" | cut -f1)), $BLOCKS blocks, best of $RUNS"
for mode in "" "-v"; do
  read -r n_cpu n_wall < <(best "$WORK/n.out" "$BUN" src/cli/main.ts match $mode -f "$WORK/blocks.txt" "$WORK/log.txt")
  read -r g_cpu g_wall < <(best "$WORK/g.out" grepcidr $mode -f "$WORK/blocks.txt" "$WORK/log.txt")
  cmp -s "$WORK/n.out" "$WORK/g.out" || { echo "outputs differ (mode '$mode')" >&2; exit 1; }
  echo "match ${mode:-(default)}: $(wc -l < "$WORK/n.out") lines out; nettools ${n_cpu} s CPU, ${n_wall} s wall; grepcidr ${g_cpu} s CPU, ${g_wall} s wall; CPU ratio nettools/grepcidr $(echo "scale=2; $n_cpu / $g_cpu" | bc)"
done
