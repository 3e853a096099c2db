#!/usr/bin/env bash
# The work meter's cost in process: bench/admission-micro.ts with two temporary worktrees of HEAD,
# as it is ("on") and with bench/admission-off.patch ("off"), removed at the end.
#
#   bash bench/admission-micro.sh [-n ROUNDS] [WORKLOAD...]
#
# ROUNDS ABBA rounds per workload (15); WORKLOADs among range-ipv4-small range-ipv6-worst
# split-1024 reverse-zones cover-1000 merge-1000 subtract-1000 usage-1000 (default: all of them,
# about 1 minute; the small rows are where a fraction of a microsecond shows).
set -euo pipefail
rounds=15
while getopts "n:" option; do
  case $option in
  n) rounds=$OPTARG ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
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
echo "HEAD $(git -C "$repo" rev-parse --short HEAD); load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$repo/node_modules/.bin/bun" "$here/admission-micro.ts" "$on_dir" "$off_dir" "$rounds" "$@"
