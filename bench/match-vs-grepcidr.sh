#!/usr/bin/env bash
# CPU and wall time of `nettools match` against Debian's grepcidr 2.0 on the same logs (issues 18
# and 24), default mode and -v, best of RUNS; the outputs must be byte-identical. Two logs of
# LINES lines (default 1,000,000):
#   web    a generated web-server log (bench/gen-match-log.py) and BLOCKS blocks (default 1000);
#   mixed  the lines of tests/fixtures/match/mixed.log (nginx, Apache, HAProxy, iptables, sshd,
#          JSON, key=value, both families, the scanner's edge cases) repeated, against
#          tests/fixtures/match/patterns-mixed.txt.
# Figures go to docs/performance.md by hand. Run it inside /work/bin/heavy on the shared machine.
#   bash bench/match-vs-grepcidr.sh [LINES] [BLOCKS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
LINES="${1:-1000000}"; BLOCKS="${2:-1000}"; RUNS="${3:-3}"
BUN=node_modules/.bin/bun
command -v grepcidr >/dev/null || { echo "grepcidr is not installed (apt-get install grepcidr)" >&2; exit 1; }
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 bench/gen-match-log.py "$LINES" "$BLOCKS" "$WORK/web.txt" "$WORK/web-blocks.txt"
python3 - "$LINES" tests/fixtures/match/mixed.log "$WORK/mixed.txt" <<'EOF'
import sys
count, source, target = int(sys.argv[1]), sys.argv[2], sys.argv[3]
lines = open(source, "rb").read().split(b"\n")
with open(target, "wb") as f:
    f.write(b"\n".join(lines[i % len(lines)] for i in range(count)) + b"\n")
EOF
cp tests/fixtures/match/patterns-mixed.txt "$WORK/mixed-blocks.txt"

# Best user+sys CPU seconds and best wall seconds of RUNS runs of a command writing to $1.
best() {
  local out="$1"; shift
  local best_cpu="" best_wall=""
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%U %S %e" -o "$WORK/time" "$@" > "$out" 2>/dev/null || [[ $? == 1 ]]
    read -r user sys wall < "$WORK/time"
    local cpu; cpu=$(echo "$user + $sys" | bc)
    if [[ -z "$best_cpu" ]] || (( $(echo "$cpu < $best_cpu" | bc) )); then best_cpu="$cpu"; fi
    if [[ -z "$best_wall" ]] || (( $(echo "$wall < $best_wall" | bc) )); then best_wall="$wall"; fi
  done
  echo "$best_cpu $best_wall"
}

echo "commit $(git rev-parse --short HEAD); best of $RUNS"
for log in web mixed; do
  echo "$log log: $LINES lines ($(du -h "$WORK/$log.txt" | cut -f1)), $(grep -cv '^#' "$WORK/$log-blocks.txt") pattern lines"
  for mode in "" "-v"; do
    read -r n_cpu n_wall < <(best "$WORK/n.out" "$BUN" src/cli/main.ts match $mode -f "$WORK/$log-blocks.txt" "$WORK/$log.txt")
    read -r g_cpu g_wall < <(best "$WORK/g.out" grepcidr $mode -f "$WORK/$log-blocks.txt" "$WORK/$log.txt")
    cmp -s "$WORK/n.out" "$WORK/g.out" || { echo "outputs differ ($log, mode '$mode')" >&2; exit 1; }
    echo "  match ${mode:-(default)}: $(wc -l < "$WORK/n.out") lines out; nettools ${n_cpu} s CPU, ${n_wall} s wall; grepcidr ${g_cpu} s CPU, ${g_wall} s wall; wall ratio nettools/grepcidr $(echo "scale=2; $n_wall / $g_wall" | bc)"
  done
done
