#!/usr/bin/env bash
# `nettools merge` on N mixed IPv4/IPv6 entries (default 1,000,000) against Python's
# ipaddress.collapse_addresses per family, IPv4 first (issue 18). Both read the file and write one
# CIDR a line; the outputs must be identical (Python's IPv4-mapped text is rewritten to mixed
# notation, as the oracle does). One run each by default; figures go to docs/performance.md.
#   bash bench/merge-mixed-vs-python.sh [N] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-1000000}"; RUNS="${2:-1}"
BUN=node_modules/.bin/bun
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 bench/gen-mixed-merge-input.py "$N" > "$WORK/entries.txt"
PY='
import ipaddress, sys
nets = [ipaddress.ip_network(l.strip(), strict=False) for l in open(sys.argv[1]) if l.strip()]
def text(n):
    a = n.network_address
    if a.version == 6 and a.ipv4_mapped is not None:
        return f"::ffff:{a.ipv4_mapped}/{n.prefixlen}"
    return str(n)
for v in (4, 6):
    sys.stdout.write("".join(text(n) + "\n" for n in ipaddress.collapse_addresses([n for n in nets if n.version == v])))
'
best() {
  local out="$1"; shift
  local best=""
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f "%U %S %e" -o "$WORK/time" "$@" > "$out"
    read -r user sys wall < "$WORK/time"
    local cpu; cpu=$(echo "$user + $sys" | bc)
    if [[ -z "$best" ]] || (( $(echo "$cpu < ${best%% *}" | bc) )); then best="$cpu $wall"; fi
  done
  echo "$best"
}
read -r n_cpu n_wall < <(best "$WORK/n.txt" "$BUN" src/cli/main.ts merge -f "$WORK/entries.txt")
read -r p_cpu p_wall < <(best "$WORK/p.txt" python3 -c "$PY" "$WORK/entries.txt")
cmp -s "$WORK/n.txt" "$WORK/p.txt" || { echo "outputs differ" >&2; exit 1; }
echo "entries: $N mixed, result CIDRs: $(wc -l < "$WORK/n.txt")"
echo "nettools merge: ${n_cpu} s CPU, ${n_wall} s wall"
echo "python3 collapse_addresses: ${p_cpu} s CPU, ${p_wall} s wall"
echo "CPU ratio python/nettools: $(echo "scale=1; $p_cpu / $n_cpu" | bc)"
