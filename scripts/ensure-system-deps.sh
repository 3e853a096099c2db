#!/usr/bin/env bash
# Makes sure the few Debian packages the test suite uses are present:
#   openssl          generates the certificate fixtures and is the oracle for certificate fields
#   ca-certificates  its mozilla/ folder: every root must parse and self-verify
#   python3          its ipaddress module is the independent oracle for CIDR results
#   chromium         the real browser that tests the Swagger UI page and the web page (tests/browser)
#   curl             runs the examples of docs/api.md (tests/docs/api-examples.test.ts)
#   grepcidr         the oracle for `nettools match` (tests/cli/match*.test.ts)
#   sipcalc          the oracle for `nettools split` (tests/cli/split.test.ts)
#   mmdb-bin         mmdblookup (libmaxminddb), the oracle for the GeoIP lookups (tests/adapters/geoip.test.ts)
# (Regenerating the GeoIP fixtures, tests/fixtures/geoip/generate.pl, also needs
# libmaxmind-db-writer-perl; the tests use the committed files and do not.)
#   nftables, ipset  load the `--format nft` and `--format ipset` outputs (tests/cli/list-formats.test.ts)
#   iproute2         `ip netns`, for the private network namespace those loads run in
#   redis-server     the shared rate-limit store the tests start (tests/e2e/rate-limit-store.test.ts)
#   prometheus       a real Prometheus scrapes CERT_WATCH's series and evaluates the example alert
#                    rules (tests/e2e/cert-watch-prometheus.test.ts); its promtool checks the alert
#                    rules (tests/deploy/manifests.test.ts)
#   bind9-utils      named-checkzone, the oracle for `nettools rdns --bind` (tests/cli/rdns-bind.test.ts)
#   libnss3-tools    certutil, which puts a private root in the NSS database Chromium reads
#                    (tests/browser/private-pki.test.ts)
# Installs what is missing when running as root with apt-get (a fresh CI machine);
# otherwise names what to install and fails, rather than skipping tests.
set -euo pipefail
missing=()
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
[[ -d /usr/share/ca-certificates/mozilla ]] || missing+=(ca-certificates)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v grepcidr >/dev/null 2>&1 || missing+=(grepcidr)
command -v sipcalc >/dev/null 2>&1 || missing+=(sipcalc)
command -v mmdblookup >/dev/null 2>&1 || missing+=(mmdb-bin)
[[ -x /usr/sbin/nft ]] || command -v nft >/dev/null 2>&1 || missing+=(nftables)
[[ -x /usr/sbin/ipset ]] || command -v ipset >/dev/null 2>&1 || missing+=(ipset)
[[ -x /usr/sbin/ip || -x /usr/bin/ip ]] || command -v ip >/dev/null 2>&1 || missing+=(iproute2)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
command -v named-checkzone >/dev/null 2>&1 || [[ -x /usr/sbin/named-checkzone ]] || missing+=(bind9-utils)
command -v certutil >/dev/null 2>&1 || missing+=(libnss3-tools)
if [[ -n "${EXTRA_SYSTEM_PACKAGES:-}" ]]; then
  for pkg in $EXTRA_SYSTEM_PACKAGES; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
fi
((${#missing[@]} == 0)) && exit 0
if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian packages: ${missing[*]}" >&2
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  exit 0
fi
echo "The test suite needs these packages: ${missing[*]} (Debian: sudo apt-get install ${missing[*]})" >&2
exit 1
