#!/usr/bin/env python3
"""Write the fixed JSON bodies of the CIDR list workloads (issue 18) into bench/data/.

    python3 bench/gen-cidr-lists-bodies.py           # (re)write merge-1000, contains-1000, allocate-1000, compare-1000, usage-1000
    python3 bench/gen-cidr-lists-bodies.py --check   # exit 1 if the committed files differ

The recipe is the one the performance peers post (same seed string per body, same draw order),
so both sides of a comparison receive the same bytes; split-1024 is small and inline in its wrk
script. Each body has its own PRNG, seeded with "20240601:<name>", so adding a body never
changes the others. Do not "simplify" the draw order: it is part of the recipe.

  merge-1000.json     1000 entries, IPv4 and IPv6 shuffled: 300 random /24s in 10.0.0.0/12, 150
                      sibling /24s, 75 addresses inside chosen /24s, 75 anywhere in the /12;
                      200 random /48s in 2001:db8::/32, 100 siblings, 50 /64s inside chosen
                      /48s and 50 anywhere in the /32.
  contains-1000.json  500 blocks (400 IPv4 /14-/28 in 10.0.0.0/8, 100 IPv6 /36-/64 in
                      2001:db8::/32) and 500 entries (320 IPv4 addresses, 80 IPv4 CIDRs /12-/28,
                      80 IPv6 addresses, 20 IPv6 /56s).
  allocate-1000.json  within 10.0.0.0/8, 999 distinct used /24s at random, one /24 to allocate.
  usage-1000.json     pool: 20 IPv4 /16s in 10.0.0.0/8; used: 980 blocks /20 to /28 inside them,
                      overlapping at random (drawn after the others: adding it changed none).
  compare-1000.json   two versions of one allow list, a and b of 500 entries each, shuffled, both
                      families: per list 300 IPv4 entries in 10.0.0.0/12 (200 /24s drawn from one
                      pool of 300, so that 100 are in both lists; 60 /26-/32 blocks inside the
                      /24s only the other list has; 20 wider /20-/22s nesting /24s of both lists;
                      20 addresses anywhere) and 200 IPv6 entries in 2001:db8::/32 (the same with
                      130 /48s from a pool of 195, 40 /56-/64s, 15 /40-/44s, 15 /64s).
"""
import ipaddress
import json
import random
import sys
from pathlib import Path

SEED = 20240601
DATA_DIR = Path(__file__).resolve().parent / "data"


def merge_1000(rng):
    v4 = []
    n24 = rng.sample(range(1 << 12), 300)
    v4 += [(10 << 24) | (n << 8) for n in n24]
    v4 += [(10 << 24) | ((n ^ 1) << 8) for n in rng.sample(n24, 150)]
    out4 = [f"{ipaddress.IPv4Address(a)}/24" for a in v4]
    out4 += [str(ipaddress.IPv4Address((10 << 24) | (n << 8) | rng.getrandbits(8))) for n in rng.choices(n24, k=75)]
    out4 += [str(ipaddress.IPv4Address((10 << 24) | rng.getrandbits(20))) for _ in range(75)]
    db8 = 0x20010DB8
    n48 = rng.sample(range(1 << 16), 200)
    out6 = [str(ipaddress.IPv6Network(((db8 << 96) | (n << 80), 48))) for n in n48]
    out6 += [str(ipaddress.IPv6Network(((db8 << 96) | ((n ^ 1) << 80), 48))) for n in rng.sample(n48, 100)]
    out6 += [
        str(ipaddress.IPv6Network(((db8 << 96) | (n << 80) | (rng.getrandbits(16) << 64), 64)))
        for n in rng.choices(n48, k=50)
    ]
    out6 += [str(ipaddress.IPv6Network(((db8 << 96) | (rng.getrandbits(32) << 64), 64))) for _ in range(50)]
    inputs = out4 + out6
    rng.shuffle(inputs)
    return {"inputs": inputs}


def contains_1000(rng):
    def v4(plen):
        return str(ipaddress.IPv4Network(((10 << 24) | rng.getrandbits(24), plen), strict=False))

    def v6(plen):
        return str(ipaddress.IPv6Network(((0x20010DB8 << 96) | rng.getrandbits(96), plen), strict=False))

    cidrs = [v4(rng.randint(14, 28)) for _ in range(400)] + [v6(rng.randint(36, 64)) for _ in range(100)]
    entries = (
        [v4(32).split("/")[0] for _ in range(320)]
        + [v4(rng.randint(12, 28)) for _ in range(80)]
        + [v6(128).split("/")[0] for _ in range(80)]
        + [v6(56) for _ in range(20)]
    )
    rng.shuffle(cidrs)
    rng.shuffle(entries)
    return {"cidrs": cidrs, "entries": entries}


def allocate_1000(rng):
    used = [str(ipaddress.IPv4Network(((10 << 24) | (n << 8), 24))) for n in rng.sample(range(1 << 16), 999)]
    return {"within": ["10.0.0.0/8"], "used": used, "prefixLength": 24}


def compare_1000(rng):
    # per family: bit width, region start, region prefix length, pool block length, the length
    # ranges of nested and wide blocks, and the length of loose entries
    shape = {
        4: (32, 10 << 24, 12, 24, (26, 32), (20, 22), 32),
        6: (128, 0x20010DB8 << 96, 32, 48, (56, 64), (40, 44), 64),
    }

    def side(version, own, other, nested, wide, loose):
        width, base, top, unit, nested_lengths, wide_lengths, loose_length = shape[version]
        network = ipaddress.IPv4Network if version == 4 else ipaddress.IPv6Network
        blocks = [(base | (n << (width - unit)), unit) for n in own]
        blocks += [
            (base | (n << (width - unit)) | rng.getrandbits(width - unit), rng.randint(*nested_lengths))
            for n in rng.choices(other, k=nested)
        ]
        blocks += [(base | rng.getrandbits(width - top), rng.randint(*wide_lengths)) for _ in range(wide)]
        blocks += [(base | rng.getrandbits(width - top), loose_length) for _ in range(loose)]

        def text(value, length):
            net = network((value, length), strict=False)
            return str(net.network_address) if length == width else str(net)

        return [text(value, length) for value, length in blocks]

    pool4 = rng.sample(range(1 << 12), 300)  # /24 numbers inside 10.0.0.0/12
    pool6 = rng.sample(range(1 << 16), 195)  # /48 numbers inside 2001:db8::/32
    a = side(4, pool4[:200], pool4[200:], 60, 20, 20) + side(6, pool6[:130], pool6[130:], 40, 15, 15)
    b = side(4, pool4[100:], pool4[:100], 60, 20, 20) + side(6, pool6[65:], pool6[:65], 40, 15, 15)
    rng.shuffle(a)
    rng.shuffle(b)
    return {"a": a, "b": b}


def usage_1000(rng):
    # cidr-usage: a pool of 20 IPv4 /16s in 10.0.0.0/8 and 980 used blocks, /20 to /28, inside
    # those /16s (overlapping each other at random), so the free space is many small intervals
    pool_numbers = rng.sample(range(256), 20)
    pool = [str(ipaddress.IPv4Network(((10 << 24) | (n << 16), 16))) for n in pool_numbers]
    used = []
    for _ in range(980):
        n = rng.choice(pool_numbers)
        length = rng.randint(20, 28)
        value = (10 << 24) | (n << 16) | rng.getrandbits(16)
        used.append(str(ipaddress.IPv4Network((value, length), strict=False)))
    return {"pool": pool, "used": used}


BODIES = (
    ("merge-1000", merge_1000),
    ("contains-1000", contains_1000),
    ("allocate-1000", allocate_1000),
    ("compare-1000", compare_1000),
    ("usage-1000", usage_1000),
)


def main():
    check = "--check" in sys.argv[1:]
    differ = False
    for name, make in BODIES:
        text = json.dumps(make(random.Random(f"{SEED}:{name}")), separators=(",", ":"))
        path = DATA_DIR / f"{name}.json"
        if check:
            if not path.exists() or path.read_text() != text:
                print(f"{path} differs from the recipe", file=sys.stderr)
                differ = True
        else:
            path.write_text(text)
            print(f"{path}: {len(text)} bytes")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
