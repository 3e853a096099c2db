"""Independent oracle for tests/domain/oracle.test.ts, built on Python's `ipaddress` module.

Reads {"cases": [...]} as JSON on stdin and writes one answer per case as a JSON list on stdout.
Every address, count and CIDR list comes from `ipaddress`; this script only arranges them in the
shape of the API results.

One rule is ours, not Python's: addresses inside ::ffff:0:0/96 are written in mixed notation
(`::ffff:192.0.2.1`, CONTRACT §2 / RFC 5952 §5). Python up to 3.12 prints them as `::ffff:c000:201`
and 3.13 prints mixed notation, so `text()` writes "::ffff:" + str(addr.ipv4_mapped): the digits
still come from Python's own `ipv4_mapped`.
"""
import ipaddress
import json
import sys

WS = " \t\r\n"  # the only characters the contract trims


def text(addr):
    if addr.version == 6 and addr.ipv4_mapped is not None:
        return "::ffff:" + str(addr.ipv4_mapped)
    return str(addr)


def net_text(net):
    return f"{text(net.network_address)}/{net.prefixlen}"


def family(version):
    return "ipv4" if version == 4 else "ipv6"


def parse_text(case):
    try:
        addr = ipaddress.ip_address(case["input"].strip(WS))
    except ValueError:
        return {"ok": False}
    return {"ok": True, "family": family(addr.version), "text": text(addr), "value": str(int(addr))}


def parse_prefix(case):
    net = ipaddress.ip_network(case["input"].strip(WS), strict=False)
    return {
        "text": net_text(net),
        "first": text(net.network_address),
        "last": text(net.broadcast_address),
        "count": str(net.num_addresses),
    }


def networks(texts):
    return [ipaddress.ip_network(t.strip(WS), strict=False) for t in texts]


def total(nets):
    return sum(n.num_addresses for n in nets)


def cover(case):
    nets = networks(case["inputs"])
    union = list(ipaddress.collapse_addresses(nets))
    low = min(n.network_address for n in union)
    high = max(n.broadcast_address for n in union)
    cidr = ipaddress.ip_network(low)  # a /32 or /128, widened until it holds high
    while high not in cidr:
        cidr = cidr.supernet()
    return {
        "family": family(cidr.version),
        "normalizedInputs": [net_text(n) for n in nets],
        "cidr": net_text(cidr),
        "range": {"first": text(cidr.network_address), "last": text(cidr.broadcast_address)},
        "inputAddressCount": str(total(union)),
        "coveredAddressCount": str(cidr.num_addresses),
        "additionalAddressCount": str(cidr.num_addresses - total(union)),
    }


def subtract(case):
    include = networks(case["include"])
    exclude = networks(case["exclude"])
    union = list(ipaddress.collapse_addresses(include))
    cuts = list(ipaddress.collapse_addresses(exclude)) if exclude else []
    rest = []
    for net in union:
        parts = [net]
        for cut in cuts:
            nxt = []
            for p in parts:
                if cut.subnet_of(p):
                    nxt.extend(p.address_exclude(cut))
                elif not p.subnet_of(cut):
                    nxt.append(p)
            parts = nxt
        rest.extend(parts)
    rest = list(ipaddress.collapse_addresses(rest))  # sorted, minimal
    included = total(union)
    remaining = total(rest)
    return {
        "family": family(include[0].version),
        "normalizedInclude": [net_text(n) for n in include],
        "normalizedExclude": [net_text(n) for n in exclude],
        "cidrs": [net_text(n) for n in rest],
        "includedAddressCount": str(included),
        "removedAddressCount": str(included - remaining),
        "remainingAddressCount": str(remaining),
    }


def range_to_cidrs(case):
    first = ipaddress.ip_address(case["start"].strip(WS))
    last = ipaddress.ip_address(case["end"].strip(WS))
    cidrs = [net_text(n) for n in ipaddress.summarize_address_range(first, last)]
    return {
        "family": family(first.version),
        "range": {"first": text(first), "last": text(last)},
        "cidrs": cidrs,
        "cidrCount": len(cidrs),
        "addressCount": str(int(last) - int(first) + 1),
    }


HANDLERS = {
    "text": parse_text,
    "prefix": parse_prefix,
    "cover": cover,
    "subtract": subtract,
    "range": range_to_cidrs,
}


def main():
    cases = json.load(sys.stdin)["cases"]
    json.dump([HANDLERS[c["kind"]](c) for c in cases], sys.stdout)


if __name__ == "__main__":
    main()
