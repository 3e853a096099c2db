#!/usr/bin/env bash
# What the event loop's work meter (issue 30, ADRs 37/48/61) costs at a load that sheds nothing:
# the server's CPU time per request with the meter ("on", HEAD as it is) and without it ("off",
# HEAD with bench/admission-off.patch), both made as temporary worktrees under /tmp and removed at
# the end. Made to resolve a few per cent on a 2-core machine:
# - CPU time in nanoseconds: field 1 of /proc/PID/task/*/schedstat summed over the server's
#   threads (and any child process), read before and after each load, divided by the requests
#   wrk completed. Time the server spends descheduled is not counted, unlike req/s.
# - The server on one core, wrk (-t1) on the other (taskset); both servers run all along, only
#   one is loaded at a time; WORKERS=1.
# - Rounds interleaved ABBA (on, off, off, on, ...); each round's on ÷ off is one paired ratio,
#   and the result is their median with min–max, per workload; req/s ratios likewise, for reference.
# - Every side's non-2xx answers (503 OVERLOADED at this load would be a defect) are counted.
#
#   bash bench/admission-cost.sh [-r ROUNDS] [-d SECONDS] [-w SECONDS] [-c CONNECTIONS] [-a] [WORKLOAD...]
#
#   -r  rounds per workload (8), each one load of each side    -d  seconds per load (3)
#   -w  warm-up load per side and workload, not measured (1)    -c  wrk connections (2)
#   -a  A/A: both sides are HEAD as it is (the method's own noise: expect ×1.00)
#   WORKLOAD  names from bench/wrk/ (default: the eleven CIDR workloads of issue 30's table)
# Defaults take about 11 minutes. SERVER_CPU (0) and WRK_CPU (1) choose the cores; LOG_LEVEL
# (info: the access line is written, to /dev/null) applies to both sides. Raw rounds go to
# bench/results/admission-cost-<time>.tsv. Servers listen on 127.0.0.1 only, loads are bounded by
# `timeout`, and the servers and worktrees this script made (only they) are removed on exit.
set -euo pipefail
rounds=8 seconds=3 warmup=1 connections=2 same=0
usage() { sed -n '15,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; }
while getopts "r:d:w:c:ah" option; do
  case $option in
  r) rounds=$OPTARG ;;
  d) seconds=$OPTARG ;;
  w) warmup=$OPTARG ;;
  c) connections=$OPTARG ;;
  a) same=1 ;;
  h) usage; exit 0 ;;
  *) usage; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
workloads=("$@")
((${#workloads[@]} > 0)) || workloads=(range-ipv4-small cover-1000 merge-1000 split-1024 contains-1000
  allocate-1000 compare-1000 usage-1000 range-ipv6-worst reverse-zones subtract-1000)

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
server_cpu=${SERVER_CPU:-0} wrk_cpu=${WRK_CPU:-1}
for tool in wrk taskset curl git; do
  command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install wrk util-linux curl git)" >&2; exit 2; }
done
[[ -r /proc/$$/task/$$/schedstat ]] ||
  { echo "needs /proc/PID/task/TID/schedstat (a kernel with schedstats)" >&2; exit 2; }
taskset -c "$server_cpu,$wrk_cpu" true 2>/dev/null ||
  { echo "cannot pin to cores $server_cpu and $wrk_cpu (SERVER_CPU, WRK_CPU)" >&2; exit 2; }
for workload in "${workloads[@]}"; do
  [[ -f $here/wrk/$workload.lua ]] || { echo "no workload bench/wrk/$workload.lua" >&2; exit 2; }
done
[[ -x $repo/node_modules/.bin/bun ]] || { echo "needs node_modules (npm ci)" >&2; exit 2; }
if [[ -n $(git -C "$repo" status --porcelain -- src) ]]; then
  echo "note: src/ has uncommitted changes; both sides are made from HEAD and do not have them" >&2
fi

# shellcheck source=bench/lib/admission-off.sh
source "$here/lib/admission-off.sh"
server_pids=()
cleanup() {
  local pid
  for pid in "${server_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${server_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  remove_worktrees
}
trap cleanup EXIT
trap 'exit 130' INT TERM

new_worktree "$repo" admission-on
on_dir=$worktree
if ((same)); then
  off_dir=$on_dir
  label_on=A label_off="A'"
else
  admission_off_worktree "$repo"
  off_dir=$worktree
  label_on=on label_off=off
fi

free_port() { "$repo/node_modules/.bin/bun" -e 'const s=Bun.listen({hostname:"127.0.0.1",port:0,socket:{data(){}}});console.log(s.port);s.stop(true)'; }

server_pid= server_port=
start_server() { # DIR: leaves the server's pid and port in server_pid, server_port
  local dir=$1
  server_port=$(free_port)
  (cd "$dir" && HOST=127.0.0.1 PORT=$server_port WORKERS=1 LOG_LEVEL=${LOG_LEVEL:-info} \
    exec taskset -c "$server_cpu" node_modules/.bin/bun src/main.ts >/dev/null 2>&1) &
  server_pid=$!
  server_pids+=("$server_pid")
  for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$server_port/v1/health" >/dev/null && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.25
  done
  echo "the server in $dir did not answer health" >&2
  exit 1
}

# Nanoseconds on CPU of every thread of PID and of its children (schedstat's first field).
cpu_ns() {
  local total=0 pid file ns rest
  for pid in "$1" $(pgrep -P "$1" || true); do
    for file in /proc/"$pid"/task/*/schedstat; do
      read -r ns rest <"$file" 2>/dev/null || continue
      total=$((total + ns))
    done
  done
  echo "$total"
}

load() { # PORT WORKLOAD SECONDS → wrk's BENCHRESULT line
  timeout $(($3 + 20)) taskset -c "$wrk_cpu" wrk -t1 -c"$connections" -d"${3}s" \
    --timeout 10s -s "$here/wrk/$2.lua" "http://127.0.0.1:$1" 2>&1 | grep BENCHRESULT || true
}

field() { grep -Eo "$1=[0-9.]+" <<<"$2" | head -1 | cut -d= -f2; }

measure() { # PID PORT WORKLOAD → "cpu_ns requests non2xx rps"
  local pid=$1 port=$2 workload=$3 before after out
  before=$(cpu_ns "$pid")
  out=$(load "$port" "$workload" "$seconds")
  after=$(cpu_ns "$pid")
  [[ -n $out ]] || { echo "wrk gave no result for $workload" >&2; exit 1; }
  echo "$((after - before)) $(field requests "$out") $(field non2xx "$out") $(field rps "$out")"
}

start_server "$on_dir"
pid_on=$server_pid port_on=$server_port
start_server "$off_dir"
pid_off=$server_pid port_off=$server_port
mkdir -p "$here/results"
raw=$here/results/admission-cost-$(date -u +%Y%m%dT%H%M%SZ).tsv
printf 'workload\tround\tside\tcpu_ns\trequests\tnon2xx\trps\n' >"$raw"
head=$(git -C "$repo" rev-parse --short HEAD)
echo "HEAD $head; $label_on: $on_dir (pid $pid_on); $label_off: $off_dir (pid $pid_off)"
echo "server on core $server_cpu, wrk -t1 -c$connections on core $wrk_cpu; $rounds ABBA rounds of ${seconds} s per side," \
  "${warmup} s warm-up; LOG_LEVEL=${LOG_LEVEL:-info}; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ratios are $label_on ÷ $label_off per round (paired), median [min–max]; raw rounds: ${raw#"$repo"/}"
printf '%-17s %9s %9s  %-22s %-22s %s\n' workload "µs $label_on" "µs $label_off" "CPU/request ratio" \
  "req/s ratio" "non-2xx $label_on/$label_off"

stats() { # numbers… → "median min max"
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%s %s %s\n", m, v[1], v[NR] }'
}

within=0
for workload in "${workloads[@]}"; do
  if ((warmup > 0)); then
    load "$port_on" "$workload" "$warmup" >/dev/null
    load "$port_off" "$workload" "$warmup" >/dev/null
  fi
  cpu_ratios=() rps_ratios=() us_on=() us_off=() bad_on=0 bad_off=0
  for round in $(seq 1 "$rounds"); do
    # ABBA: odd rounds load "on" first, even rounds "off" first.
    if ((round % 2)); then order=(on off); else order=(off on); fi
    for side in "${order[@]}"; do
      if [[ $side == on ]]; then read -r ns n bad rps < <(measure "$pid_on" "$port_on" "$workload")
      else read -r ns n bad rps < <(measure "$pid_off" "$port_off" "$workload"); fi
      ((n > 0)) || { echo "$workload: no request completed ($side)" >&2; exit 1; }
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$workload" "$round" "$side" "$ns" "$n" "$bad" "$rps" >>"$raw"
      us=$(awk -v ns="$ns" -v n="$n" 'BEGIN { printf "%.3f", ns / n / 1000 }')
      if [[ $side == on ]]; then us_a=$us rps_a=$rps bad_on=$((bad_on + bad)); us_on+=("$us")
      else us_b=$us rps_b=$rps bad_off=$((bad_off + bad)); us_off+=("$us"); fi
    done
    cpu_ratios+=("$(awk -v a="$us_a" -v b="$us_b" 'BEGIN { printf "%.4f", a / b }')")
    rps_ratios+=("$(awk -v a="$rps_a" -v b="$rps_b" 'BEGIN { printf "%.4f", a / b }')")
  done
  read -r c_med c_min c_max < <(stats "${cpu_ratios[@]}")
  read -r r_med r_min r_max < <(stats "${rps_ratios[@]}")
  read -r on_med _ _ < <(stats "${us_on[@]}")
  read -r off_med _ _ < <(stats "${us_off[@]}")
  awk -v w="$workload" -v a="$on_med" -v b="$off_med" -v cm="$c_med" -v cl="$c_min" -v ch="$c_max" \
    -v rm="$r_med" -v rl="$r_min" -v rh="$r_max" -v ba="$bad_on" -v bb="$bad_off" 'BEGIN {
    printf "%-17s %9.1f %9.1f  ×%.3f [%.3f–%.3f]   ×%.3f [%.3f–%.3f]   %d/%d\n", w, a, b, cm, cl, ch, rm, rl, rh, ba, bb }'
  awk -v m="$c_med" 'BEGIN { exit !(m <= 1.03 && m >= 0.97) }' && within=$((within + 1))
done
echo "$within of ${#workloads[@]} workloads within 3 % by the median paired CPU/request ratio"
