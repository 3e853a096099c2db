"""Independent oracle for tests/domain/list-oracle.test.ts: the CIDR list operations of CONTRACT
§7.4 and §8.4-8.5 (cidr-merge, with and without excludeSpecial, cidr-split, cidr-contains,
cidr-compare) answered by Python's `ipaddress` module.

Reads {"cases": [...]} as JSON on stdin and writes one answer per case as a JSON list on stdout.
Every CIDR list, count and containment answer comes from `ipaddress` (`collapse_addresses`,
`subnets(new_prefix=...)`, `subnet_of`, `overlaps`, `address_exclude`); this script only arranges
them in the shape of the API results. Set differences and intersections lean on one fact: two
CIDR blocks are either disjoint or one holds the other. For excludeSpecial the test sends the
table rows of CONTRACT §8.5 (block, name, RFC, whether it excludes) as data. Texts are written as oracle.py writes them (mixed notation for IPv4-mapped
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
                "label": None,  # no block of these requests carries a label (CONTRACT §12)
            }
        )
    return {"results": results}


def minus(nets, cuts):
    """The addresses of nets (one version) outside every block of cuts, collapsed."""
    pieces = list(nets)
    for cut in cuts:
        kept = []
        for p in pieces:
            if not p.overlaps(cut):
                kept.append(p)
            elif not p.subnet_of(cut):  # the cut lies inside p
                kept.extend(p.address_exclude(cut))
        pieces = kept
    return list(ipaddress.collapse_addresses(pieces))


def common(nets, others):
    """The addresses in both lists (one version), collapsed: of two overlapping blocks, the smaller."""
    both = [n if n.subnet_of(m) else m for n in nets for m in others if n.overlaps(m)]
    return list(ipaddress.collapse_addresses(both))


def by_version(nets):
    return {v: list(ipaddress.collapse_addresses([n for n in nets if n.version == v])) for v in (4, 6)}


def written(v4, v6):
    return {
        "cidrs": [net_text(n) for n in v4 + v6],
        "ipv4AddressCount": str(total(v4)),
        "ipv6AddressCount": str(total(v6)),
    }


def compare(case):
    a = by_version(networks(case["a"]))
    b = by_version(networks(case["b"]))
    only_a = written(minus(a[4], b[4]), minus(a[6], b[6]))
    only_b = written(minus(b[4], a[4]), minus(b[6], a[6]))
    return {
        "onlyA": only_a,
        "onlyB": only_b,
        "both": written(common(a[4], b[4]), common(a[6], b[6])),
        "equal": not only_a["cidrs"] and not only_b["cidrs"],
    }


def merge_excluding(case):
    """Each row, most specific first, decides the input addresses no more specific row took."""
    remaining = by_version(networks(case["inputs"]))
    undecided = {v: list(nets) for v, nets in remaining.items()}
    rows = sorted(((ipaddress.ip_network(r["block"]), r) for r in case["rows"]), key=lambda x: -x[0].prefixlen)
    removed = []
    for block, row in rows:
        v = block.version
        decided = common(undecided[v], [block])
        undecided[v] = minus(undecided[v], [block])
        if row["excludes"]:
            remaining[v] = minus(remaining[v], decided)
            removed += [(v, n, row) for n in decided]
    removed.sort(key=lambda x: (x[0], x[1].network_address))
    answer = written(remaining[4], remaining[6])
    answer["excluded"] = [
        {"cidr": net_text(n), "block": row["block"], "name": row["name"], "rfc": row["rfc"]} for _, n, row in removed
    ]
    return answer


HANDLERS = {
    "merge": merge,
    "split": split,
    "contains": contains,
    "compare": compare,
    "merge-excluding": merge_excluding,
}


def main():
    cases = json.load(sys.stdin)["cases"]
    json.dump([HANDLERS[c["kind"]](c) for c in cases], sys.stdout)


if __name__ == "__main__":
    main()
