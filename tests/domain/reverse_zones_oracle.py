"""Independent oracle for tests/domain/reverse-zones.test.ts: the reverse DNS zones of a
block (CONTRACT §8.8) from Python's `ipaddress` module.

Reads {"cases": ["CIDR or address", ...]} as JSON on stdin and writes one {"cidr", "zones"} answer
per case as a JSON list on stdout. Every zone is Python's own `reverse_pointer` of the zone's
network address, cut to the labels the zone covers, plus a dot:
- the zones of a block of length p are its subnets of the next label boundary b at or above p
  (`subnets(new_prefix=b)`), each named by the last b/8 (IPv4) or b/4 (IPv6) labels of its
  reverse pointer followed by `in-addr.arpa` or `ip6.arpa`;
- an IPv4 block of length 25 to 31 is one RFC 2317 name: the first label of its network's reverse
  pointer, "/p", then the other labels.
"""
import ipaddress
import json
import sys

from oracle import WS, net_text


def zones(text):
    net = ipaddress.ip_network(text.strip(WS), strict=False)
    p = net.prefixlen
    labels = ipaddress.ip_address(net.network_address).reverse_pointer.split(".")
    if net.version == 4 and 25 <= p <= 31:
        names = [f"{labels[0]}/{p}." + ".".join(labels[1:]) + "."]
    else:
        step = 8 if net.version == 4 else 4
        b = -(-p // step) * step  # the next multiple of step at or above p
        keep = b // step + 2  # the covered labels, then in-addr.arpa / ip6.arpa
        names = []
        for zone in net.subnets(new_prefix=b):
            pointer = ipaddress.ip_address(zone.network_address).reverse_pointer.split(".")
            names.append(".".join(pointer[-keep:]) + ".")
    return {"cidr": net_text(net), "zones": names}


def main():
    cases = json.load(sys.stdin)["cases"]
    json.dump([zones(c) for c in cases], sys.stdout)


if __name__ == "__main__":
    main()
