#!/usr/bin/env bash
# What the event loop's work meter (issue 30, ADRs 37/48/61) costs at a load that sheds nothing:
# the server's CPU time per request with the meter ("on", HEAD as it is) and without it ("off",
# HEAD with bench/admission-off.patch), both made as temporary worktrees under /tmp and removed at
# the end. Made to resolve a few per cent on a 2-core machine:
# - CPU time in nanoseconds: the server process's CPU-time clock (the sum of field 1 of
#   /proc/PID/task/*/schedstat over its threads, with the threads that ended), read before and
#   after each load, divided by the requests wrk completed. Time the server spends descheduled is
#   not counted, unlike req/s.
# - The server on one core, wrk (-t1) on the other (taskset); both servers run all along, only
#   one is loaded at a time; WORKERS=1. The main (JavaScript) thread's share is shown beside the
#   total: the other threads (JIT compilers, the collector, the allocator's scavenger) add noise.
# - Rounds interleaved ABBA (on, off, off, on, ...); each round's on ÷ off is one paired ratio,
#   and the result is their median with min–max, per workload; req/s ratios likewise, for reference.
# - Every side's non-2xx answers (503 OVERLOADED at this load would be a defect) are counted.
#
#   bash bench/admission-cost.sh [-r ROUNDS] [-d SECONDS] [-w SECONDS] [-c CONNECTIONS] [-a] [WORKLOAD...]
#
#   -r  rounds per workload (8), each one load of each side    -d  seconds per load (3)
#   -w  warm-up load per side and workload, not measured (2)    -c  wrk connections (2)
#   -a  A/A: both sides are HEAD as it is (the method's own noise: expect ×1.00)
#   WORKLOAD  names from bench/wrk/ (default: the eleven CIDR workloads of issue 30's table)
# Defaults take 11–12 minutes. SERVER_CPU (0) and WRK_CPU (1) choose the cores; LOG_LEVEL
# (info: the access line is written, to /dev/null) applies to both sides. Raw rounds go to
# bench/results/admission-cost-<time>.tsv. Servers listen on 127.0.0.1 only, loads are bounded by
# `timeout`, and the servers and worktrees this script made (only they) are removed on exit.
set -euo pipefail
rounds=8 seconds=3 warmup=2 connections=2 same=0
usage() { sed -n '16,25p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; }
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
for tool in wrk taskset curl git python3; do
  command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install wrk util-linux curl git python3)" >&2; exit 2; }
done
# The interpreter itself, not a version manager's shim (a shell script per call, slow to start).
python=$(python3 -c 'import sys; print(sys.executable)')
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

# Nanoseconds on CPU of PID and its children, and of PID's main thread alone (the JavaScript
# thread; the others compile, collect and scavenge): "all main". "all" is the process's CPU-time
# clock (clock_gettime of the clock clock_getcpuclockid(PID) names, in Python): the sum of every
# thread's schedstat time, including threads that ended since the last reading (a JIT worker that
# exits takes its time out of /proc/PID/task/*/schedstat); "main" is /proc/PID/task/PID/schedstat.
cpu_ns() {
  # shellcheck disable=SC2046
  taskset -c "$wrk_cpu" "$python" - "$1" $(pgrep -P "$1" || true) <<'PY'
import sys, time
pids = [int(p) for p in sys.argv[1:]]
total = 0
for pid in pids:
    try:
        total += time.clock_gettime_ns(((~pid) << 3) | 2)  # CPUCLOCK_SCHED of process pid
    except OSError:
        pass  # a child that has ended
with open(f"/proc/{pids[0]}/task/{pids[0]}/schedstat") as f:
    print(total, f.read().split()[0])
PY
}

load() { # PORT WORKLOAD SECONDS → wrk's BENCHRESULT line
  timeout $(($3 + 20)) taskset -c "$wrk_cpu" wrk -t1 -c"$connections" -d"${3}s" \
    --timeout 10s -s "$here/wrk/$2.lua" "http://127.0.0.1:$1" 2>&1 | grep BENCHRESULT || true
}

field() { grep -Eo "$1=[0-9.]+" <<<"$2" | head -1 | cut -d= -f2; }

measure() { # PID PORT WORKLOAD → "cpu_ns main_ns requests non2xx rps"
  local pid=$1 port=$2 workload=$3 all0 main0 all1 main1 out
  read -r all0 main0 < <(cpu_ns "$pid")
  out=$(load "$port" "$workload" "$seconds")
  read -r all1 main1 < <(cpu_ns "$pid")
  [[ -n $out ]] || { echo "wrk gave no result for $workload" >&2; exit 1; }
  echo "$((all1 - all0)) $((main1 - main0)) $(field requests "$out") $(field non2xx "$out") $(field rps "$out")"
}

start_server "$on_dir"
pid_on=$server_pid port_on=$server_port
start_server "$off_dir"
pid_off=$server_pid port_off=$server_port
mkdir -p "$here/results"
raw=$here/results/admission-cost-$(date -u +%Y%m%dT%H%M%SZ).tsv
printf 'workload\tround\tside\tcpu_ns\tmain_thread_ns\trequests\tnon2xx\trps\n' >"$raw"
head=$(git -C "$repo" rev-parse --short HEAD)
echo "HEAD $head; $label_on: $on_dir (pid $pid_on); $label_off: $off_dir (pid $pid_off)"
echo "server on core $server_cpu, wrk -t1 -c$connections on core $wrk_cpu; $rounds ABBA rounds of ${seconds} s per side," \
  "${warmup} s warm-up; LOG_LEVEL=${LOG_LEVEL:-info}; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ratios are $label_on ÷ $label_off per round (paired), median [min–max]; raw rounds: ${raw#"$repo"/}"
printf '%-17s %8s %8s  %-22s %-22s %-22s %s\n' workload "µs $label_on" "µs $label_off" "CPU/request ratio" \
  "main thread's ratio" "req/s ratio" "non-2xx $label_on/$label_off"

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
  cpu_ratios=() main_ratios=() rps_ratios=() us_on=() us_off=() bad_on=0 bad_off=0
  for round in $(seq 1 "$rounds"); do
    # ABBA: odd rounds load "on" first, even rounds "off" first.
    if ((round % 2)); then order=(on off); else order=(off on); fi
    for side in "${order[@]}"; do
      if [[ $side == on ]]; then read -r ns main n bad rps < <(measure "$pid_on" "$port_on" "$workload")
      else read -r ns main n bad rps < <(measure "$pid_off" "$port_off" "$workload"); fi
      ((${n:-0} > 0)) || { echo "$workload: no request completed ($side)" >&2; exit 1; }
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$workload" "$round" "$side" "$ns" "$main" "$n" "$bad" "$rps" >>"$raw"
      us=$(awk -v ns="$ns" -v n="$n" 'BEGIN { printf "%.3f", ns / n / 1000 }')
      main_us=$(awk -v ns="$main" -v n="$n" 'BEGIN { printf "%.3f", ns / n / 1000 }')
      if [[ $side == on ]]; then us_a=$us main_a=$main_us rps_a=$rps bad_on=$((bad_on + bad)); us_on+=("$us")
      else us_b=$us main_b=$main_us rps_b=$rps bad_off=$((bad_off + bad)); us_off+=("$us"); fi
    done
    cpu_ratios+=("$(awk -v a="$us_a" -v b="$us_b" 'BEGIN { printf "%.4f", a / b }')")
    main_ratios+=("$(awk -v a="$main_a" -v b="$main_b" 'BEGIN { printf "%.4f", a / b }')")
    rps_ratios+=("$(awk -v a="$rps_a" -v b="$rps_b" 'BEGIN { printf "%.4f", a / b }')")
  done
  read -r c_med c_min c_max < <(stats "${cpu_ratios[@]}")
  read -r r_med r_min r_max < <(stats "${rps_ratios[@]}")
  read -r t_med t_min t_max < <(stats "${main_ratios[@]}")
  read -r on_med _ _ < <(stats "${us_on[@]}")
  read -r off_med _ _ < <(stats "${us_off[@]}")
  awk -v w="$workload" -v a="$on_med" -v b="$off_med" -v cm="$c_med" -v cl="$c_min" -v ch="$c_max" \
    -v tm="$t_med" -v tl="$t_min" -v th="$t_max" -v rm="$r_med" -v rl="$r_min" -v rh="$r_max" \
    -v ba="$bad_on" -v bb="$bad_off" 'BEGIN {
    printf "%-17s %8.1f %8.1f  ×%.3f [%.3f–%.3f]   ×%.3f [%.3f–%.3f]   ×%.3f [%.3f–%.3f]   %d/%d\n",
      w, a, b, cm, cl, ch, tm, tl, th, rm, rl, rh, ba, bb }'
  awk -v m="$c_med" 'BEGIN { exit !(m <= 1.03 && m >= 0.97) }' && within=$((within + 1))
done
echo "$within of ${#workloads[@]} workloads within 3 % by the median paired CPU/request ratio"
