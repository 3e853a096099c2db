#!/usr/bin/env bash
# The Go usage peer answers exactly as the service: builds bench/peers/usage-go with Debian's go,
# starts it and the service (`bun src/main.ts`) on free loopback ports, POSTs bench/data/usage-1000.json
# and a few edge pools (IPv6, a full pool, ::/0, 0.0.0.0/0, host bits set, used outside the pool,
# IPv4-mapped text) to both, and compares status and body byte for byte. Exit 1 on the
# first difference. Both servers stop with the script.
#   bash bench/peers/usage-go/check.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
BUN=node_modules/.bin/bun
WORK="$(mktemp -d)"
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
(cd bench/peers/usage-go && GOTOOLCHAIN=local GOPROXY=off GOFLAGS= go build -o "$WORK/usage-go" .)
free_port() { "$BUN" -e 'const l = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } }); console.log(l.port); l.stop(true)'; }
SERVICE_PORT="$(free_port)"; PEER_PORT="$(free_port)"
HOST=127.0.0.1 PORT="$SERVICE_PORT" LOG_LEVEL=warn timeout 120 "$BUN" src/main.ts >/dev/null & PIDS+=($!)
HOST=127.0.0.1 PORT="$PEER_PORT" timeout 120 "$WORK/usage-go" 2>/dev/null & PIDS+=($!)
for port in "$SERVICE_PORT" "$PEER_PORT"; do
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/v1/health" >/dev/null && break; sleep 0.1; done
done
BODIES=(
  "@bench/data/usage-1000.json"
  '{"pool":["10.0.0.0/22"],"used":["10.0.0.0/24","10.0.1.64/26","192.0.2.0/24"]}'
  '{"pool":["10.0.0.0/24"],"used":["10.0.0.0/24"]}'
  '{"pool":["2001:db8::/32"],"used":["2001:db8::1","2001:db8:8000::/34"]}'
  '{"pool":["::/0"],"used":[]}'
  '{"pool":["0.0.0.0/0"],"used":["10.0.0.0/8","255.255.255.255"]}'
  '{"pool":["10.0.0.5/30","10.0.0.9","10.0.0.12/31"],"used":["10.0.0.4","10.0.0.0/8"]}'
  '{"pool":["::ffff:192.0.2.0/120"],"used":["::ffff:192.0.2.128/121"]}'
  '{"pool":["192.0.2.0/24","198.51.100.0/24"],"used":["192.0.2.1","192.0.2.7","198.51.100.255"]}'
)
checked=0
for body in "${BODIES[@]}"; do
  for side in service peer; do
    port="$SERVICE_PORT"; [[ "$side" == peer ]] && port="$PEER_PORT"
    curl -s -o "$WORK/$side.body" -w '%{http_code}\n' "http://127.0.0.1:$port/v1/cidr-usage" \
      -H 'Content-Type: application/json' --data-binary "$body" >"$WORK/$side.status"
  done
  if ! cmp -s "$WORK/service.status" "$WORK/peer.status" || ! cmp -s "$WORK/service.body" "$WORK/peer.body"; then
    echo "usage-go differs from the service on ${body:0:80}:" >&2
    echo "  service $(cat "$WORK/service.status") $(head -c 300 "$WORK/service.body")" >&2
    echo "  peer    $(cat "$WORK/peer.status") $(head -c 300 "$WORK/peer.body")" >&2
    exit 1
  fi
  checked=$((checked + 1))
done
echo "usage-go: the same status and bytes as the service on $checked bodies (usage-1000 first)"
