#!/usr/bin/env bash
# The work meter's cost in process: bench/handler-micro.ts (whole requests through
# buildApp(...).handle, CPU µs per request) run alternately in two temporary worktrees of HEAD, as
# it is ("on") and with bench/admission-off.patch ("off"), per workload; prints each side's medians
# of its runs and their difference. No sockets, so what it shows is the meter's own CPU (its clock
# readings, the Content-Length read, the turn's end); handler-micro ends a turn with a microtask
# after every request where the server ends it with one setImmediate per turn of the event loop.
#
#   bash bench/admission-micro.sh [-n RUNS] [WORKLOAD...]
#
# RUNS alternated runs per side (4; ABBA order); WORKLOADs are handler-micro names (default: the
# small rows, where a fraction of a microsecond shows: range-ipv4-small range-ipv6-worst
# split-1024 reverse-zones). About 3 s per workload and run.
set -euo pipefail
runs=4
while getopts "n:" option; do
  case $option in
  n) runs=$OPTARG ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
workloads=("$@")
((${#workloads[@]} > 0)) || workloads=(range-ipv4-small range-ipv6-worst split-1024 reverse-zones)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib/admission-off.sh
source "$here/lib/admission-off.sh"
trap remove_worktrees EXIT
trap 'exit 130' INT TERM
new_worktree "$repo" admission-on
on_dir=$worktree
admission_off_worktree "$repo"
off_dir=$worktree

micro() { # DIR WORKLOAD → the median µs of one handler-micro run
  (cd "$1" && node_modules/.bin/bun bench/handler-micro.ts "$2") |
    awk -v w="$2" '!found && $1 == w { print $3; found = 1 } END { exit !found }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "HEAD $(git -C "$repo" rev-parse --short HEAD); $runs alternated runs per side; load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-18s %-34s %-34s %9s\n' workload "on: median [runs] µs" "off: median [runs] µs" "on − off"
for workload in "${workloads[@]}"; do
  on=() off=()
  for run in $(seq 1 "$runs"); do
    if ((run % 2)); then on+=("$(micro "$on_dir" "$workload")"); off+=("$(micro "$off_dir" "$workload")")
    else off+=("$(micro "$off_dir" "$workload")"); on+=("$(micro "$on_dir" "$workload")"); fi
  done
  m_on=$(median "${on[@]}") m_off=$(median "${off[@]}")
  printf '%-18s %-34s %-34s %+9.2f\n' "$workload" "$m_on [${on[*]}]" "$m_off [${off[*]}]" \
    "$(awk -v a="$m_on" -v b="$m_off" 'BEGIN { print a - b }')"
done
