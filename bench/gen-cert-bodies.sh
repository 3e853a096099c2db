#!/usr/bin/env bash
# bench/gen-cert-bodies.sh: make the request bodies of the two certificate workloads
#
#   bash bench/gen-cert-bodies.sh        # writes bench/data/cert-chain-3.json and cert-bundle-16.json
#
# The bodies are committed: the bench never runs this script. Re-running it makes new
# RSA keys (so new bytes), but the same shape: same subjects, serials, extensions,
# validity dates (2025-01-01 to 2045-01-01 UTC), SANs and order, so figures stay comparable.
# Needs only the openssl CLI (1.1 or 3.x). Keys live in a temporary folder that is
# removed on exit; only public certificates end up in the bodies.
#
#   cert-chain-3.json    POST /v1/certificate-bundle: a classic served chain, leaf first:
#                        leaf (RSA 2048) <- intermediate CA (RSA 2048) <- root CA (RSA 2048),
#                        hostname "www.chain.bench.test" (matches the leaf's SAN).
#   cert-bundle-16.json  the largest bundle the spec allows (16 blocks): one root CA,
#                        three intermediates under it, four leaves under each intermediate,
#                        each group's leaves before its intermediate, the root last;
#                        hostname "a1.bundle.bench.test" with leafIndex 0 (several leaves).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE/data"
mkdir -p "$OUT"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

START=20250101000000Z
END=20450101000000Z

# A minimal `openssl ca` setup: it is the one CLI path that takes fixed start/end dates
# on OpenSSL 3.0 (x509 -req only knows -days).
cat > ca.cnf <<'CNF'
[ ca ]
default_ca = bench
[ bench ]
dir = .
database = ./index.txt
new_certs_dir = ./issued
serial = ./serial
default_md = sha256
policy = any_dn
unique_subject = no
copy_extensions = none
email_in_dn = no
[ any_dn ]
commonName = supplied
organizationName = optional
countryName = optional
[ req ]
distinguished_name = req_dn
prompt = no
[ req_dn ]
CN = placeholder
[ v3_root ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ v3_intermediate ]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
[ v3_leaf ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always
subjectAltName = $ENV::BENCH_SAN
CNF
mkdir -p issued
: > index.txt
export BENCH_SAN="DNS:unused.invalid"

# issue NAME SUBJECT SERIAL_HEX EXTENSIONS [ISSUER]: key NAME.key, certificate NAME.pem.
# Without ISSUER the certificate is self-signed.
issue() {
  local name="$1" subj="$2" serial="$3" ext="$4" issuer="${5:-}"
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$name.key" 2>/dev/null
  openssl req -config ca.cnf -new -key "$name.key" -subj "$subj" -out "$name.csr"
  echo "$serial" > serial
  if [[ -z "$issuer" ]]; then
    openssl ca -config ca.cnf -batch -notext -preserveDN -selfsign -keyfile "$name.key" \
      -startdate "$START" -enddate "$END" -extensions "$ext" -in "$name.csr" -out "$name.pem" 2>/dev/null
  else
    openssl ca -config ca.cnf -batch -notext -preserveDN -cert "$issuer.pem" -keyfile "$issuer.key" \
      -startdate "$START" -enddate "$END" -extensions "$ext" -in "$name.csr" -out "$name.pem" 2>/dev/null
  fi
  # keep only the PEM block
  openssl x509 -in "$name.pem" -out "$name.pem"
}

# body FILE HOSTNAME LEAF_INDEX CERT... : {"pem":"...","hostname":"..."[,"leafIndex":N]}
# PEM holds only base64, '-', ' ' and newlines, so escaping newlines is all JSON needs.
body() {
  local file="$1" host="$2" leaf="$3"; shift 3
  {
    printf '{"pem":"'
    for c in "$@"; do awk '{ printf "%s\\n", $0 }' "$c.pem"; done
    printf '","hostname":"%s"' "$host"
    [[ -n "$leaf" ]] && printf ',"leafIndex":%s' "$leaf"
    printf '}'
  } > "$file"
  echo "$file: $# certificates, $(wc -c < "$file") bytes" >&2
}

# --- the 3-certificate chain ---
issue chain-root "/O=Bench Chain/CN=Bench Chain Root CA" 1001 v3_root
issue chain-int "/O=Bench Chain/CN=Bench Chain Intermediate CA" 1002 v3_intermediate chain-root
BENCH_SAN="DNS:www.chain.bench.test,DNS:chain.bench.test" \
  issue chain-leaf "/O=Bench Chain/CN=www.chain.bench.test" 1003 v3_leaf chain-int
body "$OUT/cert-chain-3.json" www.chain.bench.test "" chain-leaf chain-int chain-root

# --- the 16-certificate bundle ---
issue bundle-root "/O=Bench Bundle/CN=Bench Bundle Root CA" 2000 v3_root
order=()
serial=2001
for g in a b c; do
  issue "bundle-int-$g" "/O=Bench Bundle/CN=Bench Bundle Intermediate $g" "$serial" v3_intermediate bundle-root
  serial=$((serial + 1))
  for i in 1 2 3 4; do
    BENCH_SAN="DNS:$g$i.bundle.bench.test,DNS:*.$g$i.bundle.bench.test" \
      issue "bundle-$g$i" "/O=Bench Bundle/CN=$g$i.bundle.bench.test" "$serial" v3_leaf "bundle-int-$g"
    serial=$((serial + 1))
    order+=("bundle-$g$i")
  done
  order+=("bundle-int-$g")
done
order+=(bundle-root)
body "$OUT/cert-bundle-16.json" a1.bundle.bench.test 0 "${order[@]}"
