#!/usr/bin/env bash
# bench/gen-csr-body.sh: make the request body of the `csr` workload
#
#   bash bench/gen-csr-body.sh        # writes bench/data/csr.json
#
# The body is committed: the bench never runs this script. Re-running it makes a new RSA 2048
# key (so new bytes) with the same shape: a request for www.csr.bench.test (two DNS names, one
# address, sha256WithRSAEncryption), and as certificatePem the certificate a small CA issued
# from it followed by that CA's certificate. One signature check (RSA 2048, the request's own)
# and three DER reads per request. Needs only the openssl CLI; keys live in a temporary folder
# that is removed on exit.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE/data/csr.json"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out server.key 2>/dev/null
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out ca.key 2>/dev/null
openssl req -new -key server.key -subj "/C=US/O=Bench/CN=www.csr.bench.test" \
  -addext "subjectAltName=DNS:www.csr.bench.test,DNS:csr.bench.test,IP:192.0.2.80" -out server.csr
openssl req -x509 -key ca.key -subj "/C=US/O=Bench/CN=Bench CSR CA" -days 7300 -out ca.pem \
  -addext "basicConstraints=critical,CA:true" -addext "keyUsage=critical,keyCertSign"
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -set_serial 0x4353 -days 3650 \
  -copy_extensions copy -out server.pem 2>/dev/null
python3 - "$OUT" <<'PY'
import json, sys
pem = open("server.csr").read()
certificates = open("server.pem").read() + open("ca.pem").read()
with open(sys.argv[1], "w") as out:
    json.dump({"pem": pem, "certificatePem": certificates}, out)
PY
echo "wrote $OUT"
