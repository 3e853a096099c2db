#!/usr/bin/env bash
# A/B of two checkouts of this service: the server's own CPU time per request (user + system,
# read from /proc for the server process and its worker processes), and requests per second, in one
# interleaved run of the workloads of bench/wrk/. CPU per request is what a request costs the
# server whatever else the machine is doing, so it survives a busy machine far better than
# requests per second (docs/performance.md); both are printed.
#
#   bash bench/cpu-ab.sh [-r ROUNDS] [-d SECONDS] [-c CONNECTIONS] BEFORE_DIR AFTER_DIR WORKLOAD...
#
# Each DIR is a checkout with its node_modules (npm ci). WORKERS, LOG_LEVEL and the service's other
# settings are taken from the environment and apply to both. Servers listen on 127.0.0.1 only,
# loads are bounded by `timeout`, and both servers (only they) are stopped on exit.
set -euo pipefail
rounds=3 seconds=4 connections=64
while getopts "r:d:c:" option; do
  case $option in
  r) rounds=$OPTARG ;;
  d) seconds=$OPTARG ;;
  c) connections=$OPTARG ;;
  *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
(($# >= 3)) || { echo "usage: $0 [-r ROUNDS] [-d SECONDS] [-c CONNECTIONS] BEFORE_DIR AFTER_DIR WORKLOAD..." >&2; exit 2; }
before=$(cd "$1" && pwd) after=$(cd "$2" && pwd)
shift 2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
command -v wrk >/dev/null || { echo "needs wrk (apt-get install wrk)" >&2; exit 2; }

free_port() { node_modules/.bin/bun -e 'const s=Bun.listen({hostname:"127.0.0.1",port:0,socket:{data(){}}});console.log(s.port);s.stop(true)'; }
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

start() { # DIR → "PID PORT"
  local dir=$1 port
  port=$(cd "$dir" && free_port)
  (cd "$dir" && HOST=127.0.0.1 PORT=$port LOG_LEVEL=${LOG_LEVEL:-info} exec node_modules/.bin/bun src/main.ts >/dev/null 2>&1) &
  local pid=$!
  for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$port/v1/health" >/dev/null && break; sleep 0.25; done
  echo "$pid $port"
}

# Clock ticks of user + system time of a process and its children (the workers).
ticks() {
  local total=0 pid
  for pid in "$1" $(pgrep -P "$1" || true); do
    [[ -r /proc/$pid/stat ]] || continue
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
  done
  echo "$total"
}
hz=$(getconf CLK_TCK)

read -r pid_a port_a < <(start "$before")
pids+=("$pid_a")
read -r pid_b port_b < <(start "$after")
pids+=("$pid_b")
echo "before: $before (pid $pid_a, port $port_a); after: $after (pid $pid_b, port $port_b); WORKERS=${WORKERS:-1}"

measure() { # PID PORT WORKLOAD → "cpu_us_per_request rps"
  local pid=$1 port=$2 workload=$3 t0 t1 out requests
  t0=$(ticks "$pid")
  out=$(timeout $((seconds + 20)) wrk -t2 -c"$connections" -d"${seconds}s" --timeout 10s \
    -s "$here/wrk/$workload.lua" "http://127.0.0.1:$port" 2>&1)
  t1=$(ticks "$pid")
  requests=$(grep -Eo 'BENCHRESULT requests=[0-9]+' <<<"$out" | grep -Eo '[0-9]+$')
  local bad
  bad=$(grep -Eo 'non2xx=[0-9]+' <<<"$out" | grep -Eo '[0-9]+$')
  [[ "${bad:-0}" == 0 ]] || echo "  warning: $workload answered $bad non-2xx" >&2
  awk -v t="$((t1 - t0))" -v hz="$hz" -v n="$requests" -v s="$seconds" \
    'BEGIN { printf "%.2f %.0f\n", t / hz * 1e6 / n, n / s }'
}

printf '%-18s %12s %12s %7s %10s %10s %7s\n' workload "cpu µs A" "cpu µs B" "B/A" "rps A" "rps B" "B/A"
for workload in "$@"; do
  cpu_a=() cpu_b=() rps_a=() rps_b=()
  for _ in $(seq 1 "$rounds"); do
    read -r c r < <(measure "$pid_a" "$port_a" "$workload"); cpu_a+=("$c"); rps_a+=("$r")
    read -r c r < <(measure "$pid_b" "$port_b" "$workload"); cpu_b+=("$c"); rps_b+=("$r")
  done
  median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
  ca=$(median "${cpu_a[@]}") cb=$(median "${cpu_b[@]}") ra=$(median "${rps_a[@]}") rb=$(median "${rps_b[@]}")
  awk -v w="$workload" -v ca="$ca" -v cb="$cb" -v ra="$ra" -v rb="$rb" \
    'BEGIN { printf "%-18s %12.2f %12.2f %7.3f %10.0f %10.0f %7.3f\n", w, ca, cb, cb / ca, ra, rb, rb / ra }'
done
