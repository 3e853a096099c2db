#!/usr/bin/env bash
# bench/bench.sh: load-test the service on this machine with wrk, optionally side by side with peers.
#
#   npm run bench                                   # every workload, service only
#   npm run bench -- health public-ip               # chosen workloads
#   PEERS="go=http://127.0.0.1:3101 bun=http://127.0.0.1:3102" npm run bench -- health range-ipv6-worst
#   bash bench/bench.sh --list                      # the workload names
#
# What it does: starts the service itself on 127.0.0.1 and a free port
# (node_modules/.bin/bun src/main.ts, or $BENCH_BINARY), waits until GET /v1/health
# answers 200, probes each workload once (one request: a non-2xx answer is reported and
# the workload is not measured), then runs wrk and prints req/s, p50, p99, non-2xx and
# socket errors, and the server's CPU time per request (its process tree, from /proc). With
# PEERS it warms every side up, then alternates service, peer, peer,
# ... round by round and prints medians and the ratios service/peer. The server it started
# is stopped on exit (only that PID). One JSON line per workload goes to
# bench/results/bench-<UTC time>.jsonl (and bench/results/latest.jsonl).
#
# Options (flags win over the environment variables in brackets):
#   -d, --duration SECONDS     length of one measured run           [DURATION, default 5]
#   -c, --connections N        open connections                     [CONNECTIONS, default 64]
#   -r, --rounds N             measured runs per side               [ROUNDS, default 1, 3 with peers]
#   -w, --warmup SECONDS       unmeasured run per side first, 0=off [WARMUP, default 2]
#   -p, --peers "NAME=URL ..." peers to compare with                [PEERS]
#   -t, --target URL           measure an already running server; start nothing [BENCH_TARGET_URL]
#   -l, --list                 list the workloads and exit
#       --probe                send each workload's request once to each side, print the
#                              status and the start of the answer, measure nothing
#   WORKLOAD ...               names from bench/wrk/*.lua, or "all" [WORKLOADS, default all]
# Environment only:
#   BENCH_BINARY=path   run this compiled server (e.g. dist/network-tools-api) instead of Bun
#   BENCH_PORT=N        port for the server started here (default: a free one)
#   The server started here inherits the environment: LOG_LEVEL=warn (no line per request),
#   WORKERS=2, ... change what is measured; the settings are printed at the start.
#   THREADS=N           wrk threads (default 2)     WRK_TIMEOUT  wrk --timeout (default 10s)
#   PAUSE=SECONDS       rest between runs (default 1)
#   WRK_CPUS=LIST       pin wrk with taskset (e.g. 1); SERVER_CPUS=LIST pins the server started here
#   BENCH_STRICT_2XX=1  count every status outside 200-299 (default: wrk's count of status >= 400;
#                       exact but costs wrk CPU, so it lowers req/s a little)
#   BENCH_LOG_DIR       raw wrk outputs and the server log (default /tmp/network-tools-bench)
#
# Peers are known by name: go (health, public-ip, public-ip-text, ip, range-*, subtract-1000,
# cover-1000, merge-1000, split-1024, contains-1000, allocate-1000, reverse-zones), bun (health,
# public-ip), nginx (health). A peer of another name is tried on
# every workload and skipped where its probe is not 2xx. Only http://127.0.0.1, localhost
# or [::1] URLs are accepted, for the service and for peers: this tool loads nothing else.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
WRK_DIR="$HERE/wrk"
RESULTS_DIR="$HERE/results"
LOG_DIR="${BENCH_LOG_DIR:-/tmp/network-tools-bench}"

ALL_WORKLOADS=(health public-ip public-ip-text ip range-ipv4-small range-ipv6-worst subtract-1000 cover-1000 merge-1000 split-1024 contains-1000 allocate-1000 compare-1000 usage-1000 reverse-zones cert-chain-3 cert-bundle-16 chain-16 csr)

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; }
die() { echo "bench: $*" >&2; exit 2; }

DURATION="${DURATION:-5}"
CONNECTIONS="${CONNECTIONS:-64}"
ROUNDS="${ROUNDS:-}"
WARMUP="${WARMUP:-2}"
PEERS="${PEERS:-}"
TARGET="${BENCH_TARGET_URL:-}"
THREADS="${THREADS:-2}"
PAUSE="${PAUSE:-1}"
WRK_TIMEOUT="${WRK_TIMEOUT:-10s}"
read -r -a SELECTED <<<"${WORKLOADS:-}"

PROBE_ONLY=0
args=()
while (($#)); do
  case "$1" in
    -d | --duration) DURATION="${2:?}"; shift 2 ;;
    -c | --connections) CONNECTIONS="${2:?}"; shift 2 ;;
    -r | --rounds) ROUNDS="${2:?}"; shift 2 ;;
    -w | --warmup) WARMUP="${2:?}"; shift 2 ;;
    -p | --peers) PEERS="${2?}"; shift 2 ;;
    -t | --target) TARGET="${2:?}"; shift 2 ;;
    --probe) PROBE_ONLY=1; shift ;;
    -l | --list) printf '%s\n' "${ALL_WORKLOADS[@]}"; exit 0 ;;
    -h | --help) usage; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) args+=("$1"); shift ;;
  esac
done
((${#args[@]})) && SELECTED=("${args[@]}")
if ((${#SELECTED[@]} == 0)) || [[ " ${SELECTED[*]} " == *" all "* ]]; then SELECTED=("${ALL_WORKLOADS[@]}"); fi

# ---- checks: numbers, workloads, URLs -------------------------------------------------------
DURATION="${DURATION%s}"; WARMUP="${WARMUP%s}"
is_int() { [[ "$1" =~ ^[0-9]+$ ]] && (($1 >= $2 && $1 <= $3)); }
is_int "$DURATION" 1 120 || die "duration must be 1..120 seconds, not '$DURATION'"
is_int "$WARMUP" 0 60 || die "warm-up must be 0..60 seconds, not '$WARMUP'"
is_int "$CONNECTIONS" 1 1024 || die "connections must be 1..1024, not '$CONNECTIONS'"
is_int "$THREADS" 1 16 || die "THREADS must be 1..16"
is_int "$PAUSE" 0 30 || die "PAUSE must be 0..30 seconds"
((THREADS > CONNECTIONS)) && THREADS="$CONNECTIONS"

for w in "${SELECTED[@]}"; do
  [[ -f "$WRK_DIR/$w.lua" && "$w" != lib ]] || die "unknown workload '$w'; one of: ${ALL_WORKLOADS[*]}"
done

# Loopback only: 127.0.0.1, localhost or [::1], optional port, no path.
check_url() {
  [[ "$1" =~ ^http://(127\.0\.0\.1|localhost|\[::1\])(:[0-9]{1,5})?/?$ ]] ||
    die "refusing $2 URL '$1': only http://127.0.0.1, http://localhost or http://[::1] (with a port, no path)"
}

PEER_NAMES=(); PEER_URLS=()
for spec in $PEERS; do
  [[ "$spec" == *=* ]] || die "peer '$spec' must be NAME=URL"
  name="${spec%%=*}"; url="${spec#*=}"
  [[ "$name" =~ ^[A-Za-z0-9_-]+$ && "$name" != service ]] || die "bad peer name '$name'"
  check_url "$url" "peer $name"
  PEER_NAMES+=("$name"); PEER_URLS+=("${url%/}")
done
[[ -n "$TARGET" ]] && check_url "$TARGET" target

if [[ -z "$ROUNDS" ]]; then if ((${#PEER_NAMES[@]})); then ROUNDS=3; else ROUNDS=1; fi; fi
is_int "$ROUNDS" 1 20 || die "rounds must be 1..20"

# ---- tools ---------------------------------------------------------------------------------
if ! command -v wrk >/dev/null 2>&1; then
  if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
    echo "bench: wrk is missing; installing Debian's package wrk" >&2
    { apt-get install -y -q wrk || { apt-get update -q && apt-get install -y -q wrk; }; } >&2 ||
      { echo "bench: apt-get could not install wrk" >&2; exit 1; }
  else
    echo "bench: wrk is missing: install it as root with 'apt-get install wrk' (Debian/Ubuntu), then re-run" >&2
    exit 1
  fi
fi
command -v curl >/dev/null 2>&1 || { echo "bench: curl is missing (apt-get install curl)" >&2; exit 1; }
mkdir -p "$LOG_DIR" "$RESULTS_DIR"

WRK_PIN=(); SERVER_PIN=()
[[ -n "${WRK_CPUS:-}" ]] && WRK_PIN=(taskset -c "$WRK_CPUS")
[[ -n "${SERVER_CPUS:-}" ]] && SERVER_PIN=(taskset -c "$SERVER_CPUS")

# ---- the service ---------------------------------------------------------------------------
SERVER_PID=""
stop_server() {
  if [[ -n "${WRK_PID:-}" ]]; then kill -TERM "$WRK_PID" 2>/dev/null || true; wait "$WRK_PID" 2>/dev/null || true; fi
  [[ -n "$SERVER_PID" ]] || return 0
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$SERVER_PID" 2>/dev/null && kill -KILL "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null || true
    echo "bench: server stopped (pid $SERVER_PID)" >&2
  fi
  SERVER_PID=""
}
trap stop_server EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
  local p=$((20000 + RANDOM % 30000)) i
  for ((i = 0; i < 200; i++, p++)); do port_busy "$p" || { echo "$p"; return 0; }; done
  return 1
}

health_status() { curl -s -o /dev/null -m 2 -w '%{http_code}' "$1/v1/health" 2>/dev/null || true; }

STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
SERVER_LOG="$LOG_DIR/server-$STAMP.log"
if [[ -n "$TARGET" ]]; then
  SERVICE_URL="${TARGET%/}"
  SERVICE_DESC="already running at $SERVICE_URL"
else
  PORT="${BENCH_PORT:-$(free_port)}" || die "no free port found"
  is_int "$PORT" 1 65535 || die "BENCH_PORT must be a port number"
  port_busy "$PORT" && die "port $PORT is already in use"
  if [[ -n "${BENCH_BINARY:-}" ]]; then
    [[ -x "$BENCH_BINARY" ]] || die "BENCH_BINARY '$BENCH_BINARY' is not an executable file"
    CMD=("$BENCH_BINARY")
  else
    [[ -x "$ROOT/node_modules/.bin/bun" ]] || die "no $ROOT/node_modules/.bin/bun: run npm ci first"
    CMD=("$ROOT/node_modules/.bin/bun" src/main.ts)
  fi
  (cd "$ROOT" && exec env HOST=127.0.0.1 PORT="$PORT" "${SERVER_PIN[@]}" "${CMD[@]}") >"$SERVER_LOG" 2>&1 &
  SERVER_PID=$!
  SERVICE_URL="http://127.0.0.1:$PORT"
  SERVICE_DESC="${CMD[*]} (pid $SERVER_PID) at $SERVICE_URL, log $SERVER_LOG"
  code=""
  for _ in $(seq 300); do # up to ~30 s
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "bench: the server exited before answering; its log:" >&2; tail -20 "$SERVER_LOG" >&2; exit 1; }
    code="$(health_status "$SERVICE_URL")"
    [[ "$code" == 200 ]] && break
    sleep 0.1
  done
  [[ "$code" == 200 ]] || { echo "bench: GET /v1/health never answered 200 (last: '${code:-none}'); log:" >&2; tail -20 "$SERVER_LOG" >&2; exit 1; }
fi
[[ "$(health_status "$SERVICE_URL")" == 200 ]] || { echo "bench: $SERVICE_URL/v1/health does not answer 200" >&2; exit 1; }

# ---- measuring -----------------------------------------------------------------------------
# One wrk run; leaves its BENCHRESULT line (fields: rps p50_ms p99_ms non2xx errors ...) in
# $RESULT_LINE. wrk runs in the background and is waited for, so that a signal to this script
# is handled at once (the EXIT trap then stops wrk and the server).
WRK_PID=""
RESULT_LINE=""
run_wrk() { # URL WORKLOAD SECONDS
  local url="$1" w="$2" secs="$3" log rc=0
  log="$LOG_DIR/$STAMP-$w-$(date +%H%M%S)-$RANDOM.log"
  RESULT_LINE=""
  timeout --kill-after=5 "$((secs + 30))" "${WRK_PIN[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"${secs}s" \
    --timeout "$WRK_TIMEOUT" --latency -s "$WRK_DIR/$w.lua" "$url" >"$log" 2>&1 &
  WRK_PID=$!
  wait "$WRK_PID" || rc=$?
  WRK_PID=""
  if ((rc != 0)); then echo "bench: wrk failed on $url ($w), log $log:" >&2; tail -5 "$log" >&2; return 1; fi
  RESULT_LINE="$(grep '^BENCHRESULT ' "$log" | tail -1)" || true
  [[ -n "$RESULT_LINE" ]] || { echo "bench: no result in $log" >&2; return 1; }
}

# One request with the workload's exact bytes; prints "STATUS BODY-START" ("none" if no answer).
probe() { # URL WORKLOAD
  local line
  line="$(BENCH_PROBE=1 timeout --kill-after=5 20 wrk -t1 -c1 -d1s --timeout 10s -s "$WRK_DIR/$2.lua" "$1" 2>&1 |
    grep '^BENCHPROBE ' | head -1 || true)"
  if [[ -z "$line" ]]; then echo "none (no answer)"; return; fi
  echo "$(field status "$line") ${line#* body=}"
}

# CPU time (utime + stime, clock ticks) of a process and its children (a supervisor's workers).
CLK_TCK="$(getconf CLK_TCK 2>/dev/null || echo 100)"
proc_ticks() { # PID...
  local total=0 pid stat rest
  for pid in "$@"; do
    stat="$(cat "/proc/$pid/stat" 2>/dev/null)" || continue
    rest="${stat##*) }"
    # after "comm) ": state is field 3, utime 14, stime 15 of the whole line
    read -r -a f <<<"$rest"
    total=$((total + ${f[11]} + ${f[12]}))
  done
  echo "$total"
}
tree_pids() { # PID -> the PID and its descendants
  local pid="$1" child
  echo "$pid"
  for child in $(ps -o pid= --ppid "$pid" 2>/dev/null); do tree_pids "$child"; done
}
listener_pid() { # URL -> PID listening on its port (empty when unknown)
  local port="${1##*:}"; port="${port%%/*}"
  ss -ltnpH "sport = :$port" 2>/dev/null | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2
}
cpu_us_per_request() { # TICKS_BEFORE TICKS_AFTER REQUESTS
  awk -v a="$1" -v b="$2" -v n="$3" -v hz="$CLK_TCK" 'BEGIN { if (n > 0) printf "%.1f", (b - a) * 1000000 / hz / n; else print "n/a" }'
}

field() { sed -n "s/.*[ ]$1=\([^ ]*\).*/\1/p" <<<" $2" | head -1; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
sum() { printf '%s\n' "$@" | awk '{ s += $1 } END { print s + 0 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
json_str() { local s="$1"; s="${s//\\/\\\\}"; s="${s//\"/\\\"}"; s="${s//$'\t'/ }"; printf '"%s"' "$s"; }
json_num() { if [[ "$1" =~ ^[0-9.]+$ ]]; then printf '%s' "$1"; else printf null; fi; }
json_list() { local IFS=,; echo "[$*]"; }

peer_serves() { # NAME WORKLOAD -> 0 if the peer is known to serve it (unknown peers: try all)
  case "$1" in
    go) [[ " health public-ip public-ip-text ip range-ipv4-small range-ipv6-worst subtract-1000 cover-1000 merge-1000 split-1024 contains-1000 allocate-1000 compare-1000 reverse-zones " == *" $2 "* ]] ;;
    go-usage) [[ " health usage-1000 " == *" $2 "* ]] ;; # bench/peers/usage-go
    bun | bare-bun) [[ " health public-ip " == *" $2 "* ]] ;;
    nginx) [[ "$2" == health ]] ;;
    *) return 0 ;;
  esac
}

RESULT_FILE="$RESULTS_DIR/bench-$STAMP.jsonl"
: >"$RESULT_FILE"
BUN_VERSION="$("$ROOT/node_modules/.bin/bun" --version 2>/dev/null || echo unknown)"
COMMIT="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo none)"
CPU="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)"

echo "bench: service $SERVICE_DESC"
echo "bench: $(date -u +%FT%TZ), commit $COMMIT, bun $BUN_VERSION, $(nproc) cores ${CPU:+($CPU)}"
echo "bench: wrk -t$THREADS -c$CONNECTIONS, ${ROUNDS} x ${DURATION} s per side, warm-up ${WARMUP} s, workloads: ${SELECTED[*]}"
[[ -z "$TARGET" ]] && echo "bench: server settings: LOG_LEVEL=${LOG_LEVEL:-(default)} WORKERS=${WORKERS:-(default)} RATE_LIMIT_PER_MINUTE=${RATE_LIMIT_PER_MINUTE:-(default)}"
((${#PEER_NAMES[@]})) && echo "bench: peers: $PEERS"

SUMMARY=()
FAILED=0
for w in "${SELECTED[@]}"; do
  echo
  echo "== $w"
  names=(service); urls=("$SERVICE_URL")
  p="$(probe "$SERVICE_URL" "$w")"
  if [[ "${p%% *}" != 2?? ]]; then
    echo "   service answered ${p:0:220}"
    echo "   NOT MEASURED: the service does not answer this workload with 2xx"
    printf '{"workload":"%s","date":"%s","status":"error","probe_status":"%s","probe_body":%s}\n' \
      "$w" "$STAMP" "${p%% *}" "$(json_str "${p#* }")" >>"$RESULT_FILE"
    SUMMARY+=("$(printf '%-18s %s' "$w" "not measured: service answered ${p%% *}")")
    FAILED=$((FAILED + 1))
    continue
  fi
  ((PROBE_ONLY)) && echo "   service answered ${p:0:160}"
  for i in "${!PEER_NAMES[@]}"; do
    n="${PEER_NAMES[$i]}"; u="${PEER_URLS[$i]}"
    peer_serves "$n" "$w" || continue
    p="$(probe "$u" "$w")"
    if [[ "${p%% *}" != 2?? ]]; then echo "   peer $n skipped: answered ${p:0:120}"; continue; fi
    ((PROBE_ONLY)) && echo "   peer $n answered ${p:0:160}"
    names+=("$n"); urls+=("$u")
  done
  if ((PROBE_ONLY)); then SUMMARY+=("$(printf '%-18s probed: service 2xx, peers: %s' "$w" "${names[*]:1}")"); continue; fi

  if ((WARMUP > 0)); then
    for i in "${!names[@]}"; do run_wrk "${urls[$i]}" "$w" "$WARMUP"; sleep "$PAUSE"; done
  fi

  declare -A RPS=() P50=() P99=() BAD=() ERR=() CPU=()
  for ((r = 1; r <= ROUNDS; r++)); do
    for i in "${!names[@]}"; do
      n="${names[$i]}"
      # Server CPU per request: the side's process tree, read from /proc before and after.
      pid="$(listener_pid "${urls[$i]}")"; pids=()
      [[ -n "$pid" ]] && mapfile -t pids < <(tree_pids "$pid")
      # A supervisor (WORKERS > 1) is the parent of the listening workers: count it and them.
      if [[ "$n" == service && -n "$SERVER_PID" ]]; then mapfile -t pids < <(tree_pids "$SERVER_PID"); fi
      before="$(proc_ticks "${pids[@]}")"
      run_wrk "${urls[$i]}" "$w" "$DURATION"
      after="$(proc_ticks "${pids[@]}")"
      line="$RESULT_LINE"
      cpu="$(cpu_us_per_request "$before" "$after" "$(field requests "$line")")"
      ((${#pids[@]})) || cpu="n/a"
      RPS[$n]+=" $(field rps "$line")"; P50[$n]+=" $(field p50_ms "$line")"; P99[$n]+=" $(field p99_ms "$line")"
      BAD[$n]+=" $(field non2xx "$line")"; ERR[$n]+=" $(field errors "$line")"; CPU[$n]+=" ${cpu/n\/a/0}"
      printf '   round %d %-8s req/s %9.0f  p50 %8.3f ms  p99 %8.3f ms  cpu/req %7s us  non-2xx %s  socket errors %s\n' "$r" "$n" \
        "$(field rps "$line")" "$(field p50_ms "$line")" "$(field p99_ms "$line")" "$cpu" "$(field non2xx "$line")" "$(field errors "$line")"
      sleep "$PAUSE"
    done
  done

  ((ROUNDS > 1)) && echo "   medians of $ROUNDS rounds:"
  printf '   %-8s %10s %10s %10s %12s %8s %8s\n' target "req/s" "p50 ms" "p99 ms" "cpu/req us" non-2xx sock-err
  declare -A M_RPS=() M_P99=() M_CPU=()
  json_sides=""
  # the per-round lists are space-separated numbers, split on purpose
  # shellcheck disable=SC2086
  for n in "${names[@]}"; do
    M_RPS[$n]="$(median ${RPS[$n]})"; M_P99[$n]="$(median ${P99[$n]})"; M_CPU[$n]="$(median ${CPU[$n]})"
    m50="$(median ${P50[$n]})"; bad="$(sum ${BAD[$n]})"; err="$(sum ${ERR[$n]})"
    printf '   %-8s %10.0f %10.3f %10.3f %12.1f %8s %8s\n' "$n" "${M_RPS[$n]}" "$m50" "${M_P99[$n]}" "${M_CPU[$n]}" "$bad" "$err"
    if [[ "$n" == service && ("$bad" != 0 || "$err" != 0) ]]; then
      echo "   WARNING: the service gave $bad non-2xx answers and $err socket errors under load: its figures are not clean"
      FAILED=$((FAILED + 1))
    fi
    extra=""
    if [[ "$n" != service ]]; then
      extra=",\"ratio_rps\":$(json_num "$(ratio "${M_RPS[service]}" "${M_RPS[$n]}")"),\"ratio_p99\":$(json_num "$(ratio "${M_P99[service]}" "${M_P99[$n]}")"),\"ratio_cpu\":$(json_num "$(ratio "${M_CPU[service]}" "${M_CPU[$n]}")")"
    fi
    json_sides+="$(printf ',"%s":{"rps":%s,"p50_ms":%s,"p99_ms":%s,"cpu_us_per_request":%s,"non2xx":%s,"errors":%s,"rps_runs":%s,"p99_runs":%s%s}' \
      "$n" "${M_RPS[$n]}" "$m50" "${M_P99[$n]}" "$(json_num "${M_CPU[$n]}")" "$bad" "$err" "$(json_list ${RPS[$n]})" "$(json_list ${P99[$n]})" "$extra")"
  done
  line_summary="$(printf '%-18s service %9.0f req/s, p99 %8.3f ms' "$w" "${M_RPS[service]}" "${M_P99[service]}")"
  for n in "${names[@]:1}"; do
    rr="$(ratio "${M_RPS[service]}" "${M_RPS[$n]}")"; rp="$(ratio "${M_P99[service]}" "${M_P99[$n]}")"
    rc="$(ratio "${M_CPU[service]}" "${M_CPU[$n]}")"
    echo "   service/$n: req/s x$rr (above 1 = service faster), p99 x$rp, cpu/req x$rc (below 1 = service better)"
    line_summary+="  | /$n req/s x$rr p99 x$rp cpu x$rc"
  done
  SUMMARY+=("$line_summary")
  printf '{"workload":"%s","date":"%s","status":"ok","commit":"%s","bun":"%s","log_level":"%s","workers":"%s","cores":%s,"duration_s":%s,"connections":%s,"threads":%s,"rounds":%s,"warmup_s":%s,"sides":{%s}}\n' \
    "$w" "$STAMP" "$COMMIT" "$BUN_VERSION" "${LOG_LEVEL:-default}" "${WORKERS:-default}" "$(nproc)" "$DURATION" "$CONNECTIONS" "$THREADS" "$ROUNDS" "$WARMUP" "${json_sides#,}" >>"$RESULT_FILE"
  unset RPS P50 P99 BAD ERR CPU M_RPS M_P99 M_CPU
done

echo
echo "== summary (medians; ratios are service/peer)"
printf '   %s\n' "${SUMMARY[@]}"
if ((PROBE_ONLY)); then rm -f "$RESULT_FILE"; ((FAILED == 0)) || exit 1; exit 0; fi
cp "$RESULT_FILE" "$RESULTS_DIR/latest.jsonl"
echo "bench: results in ${RESULT_FILE#"$ROOT"/} (also bench/results/latest.jsonl); raw wrk output in $LOG_DIR"
if ((FAILED)); then
  echo "bench: $FAILED workload(s) errored or were not clean: see above" >&2
  exit 1
fi
