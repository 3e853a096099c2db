"""Independent oracle for tests/domain/toolbox-oracle.test.ts: the CIDR additions of CONTRACT §7.4
(cidr-merge, cidr-split, cidr-contains) answered by Python's `ipaddress` module.

Reads {"cases": [...]} as JSON on stdin and writes one answer per case as a JSON list on stdout.
Every CIDR list, count and containment answer comes from `ipaddress` (`collapse_addresses`,
`subnets(new_prefix=...)`, `subnet_of`, `overlaps`); this script only arranges them in the shape of
the API results. Texts are written as oracle.py writes them (mixed notation for IPv4-mapped
addresses, from Python's own `ipv4_mapped`).
"""
import ipaddress
import json
import sys

from oracle import net_text, networks, total


def merge(case):
    nets = networks(case["inputs"])
    v4 = list(ipaddress.collapse_addresses([n for n in nets if n.version == 4]))
    v6 = list(ipaddress.collapse_addresses([n for n in nets if n.version == 6]))
    return {
        "cidrs": [net_text(n) for n in v4 + v6],
        "ipv4AddressCount": str(total(v4)),
        "ipv6AddressCount": str(total(v6)),
    }


def split(case):
    (net,) = networks([case["cidr"]])
    new_prefix = case["prefixLength"]
    count = 2 ** (new_prefix - net.prefixlen)
    answer = {"network": net_text(net), "prefixLength": new_prefix, "subnetCount": str(count)}
    if count <= case["limit"]:
        answer["cidrs"] = [net_text(n) for n in net.subnets(new_prefix=new_prefix)]
    return answer


def contains(case):
    blocks = networks(case["cidrs"])
    results = []
    for entry in networks(case["entries"]):
        same = [b for b in blocks if b.version == entry.version]
        holders = [b for b in same if entry.subnet_of(b)]
        best = max(holders, key=lambda b: b.prefixlen) if holders else None
        results.append(
            {
                "entry": net_text(entry),
                "contained": bool(holders),
                "overlaps": any(entry.overlaps(b) for b in same),
                "matchedCidr": None if best is None else net_text(best),
            }
        )
    return {"results": results}


HANDLERS = {"merge": merge, "split": split, "contains": contains}


def main():
    cases = json.load(sys.stdin)["cases"]
    json.dump([HANDLERS[c["kind"]](c) for c in cases], sys.stdout)


if __name__ == "__main__":
    main()
