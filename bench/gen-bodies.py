#!/usr/bin/env python3
"""Write the two large, fixed JSON bodies of the CIDR workloads into bench/data/.

    python3 bench/gen-bodies.py           # (re)write bench/data/subtract-1000.json, cover-1000.json
    python3 bench/gen-bodies.py --check   # exit 1 if the committed files differ from what it makes

The bodies are committed, so running the bench never needs this script. It exists so
anyone can see (and re-derive) exactly what is posted. Everything comes from one
seeded Python PRNG, drawn in a fixed order, so the bytes are identical on every
machine with CPython 3 (the draw order, including the iteration order of the
de-duplicating sets, is part of the recipe: do not "simplify" it).

  subtract-1000.json  POST /v1/cidr-subtract, IPv6: 500 distinct /48 networks in
                      2000::/3 to include, and 500 distinct /64 networks, each inside
                      one of those /48s, to exclude (answer: 7611 CIDRs, ~226 KB).
  cover-1000.json     POST /v1/cidr-cover: 1000 distinct IPv4 addresses drawn from
                      10.20.0.0/16, without prefixes.
"""
import ipaddress
import json
import random
import sys
from pathlib import Path

SEED = 20240601
DATA_DIR = Path(__file__).resolve().parent / "data"


def draw_distinct(count, draw):
    """Call draw() until `count` distinct values came out; return them in set order."""
    seen = set()
    while len(seen) < count:
        seen.add(draw())
    return list(seen)


def subtract_body(rng):
    # /48 network numbers: the top 3 bits are 001 (global unicast), 45 random bits follow.
    net48 = draw_distinct(500, lambda: (1 << 45) | rng.getrandbits(45))
    rng.shuffle(net48)
    # /64 network numbers: a random /48 from the list above, then 16 random subnet bits.
    net64 = draw_distinct(500, lambda: (rng.choice(net48) << 16) | rng.getrandbits(16))
    rng.shuffle(net64)

    def v6(number, prefix):
        return str(ipaddress.IPv6Network((number << (128 - prefix), prefix)))

    return {
        "include": [v6(n, 48) for n in net48],
        "exclude": [v6(n, 64) for n in net64],
    }


def cover_body(rng):
    base = int(ipaddress.IPv4Address("10.20.0.0"))
    hosts = rng.sample(range(1 << 16), 1000)
    return {"inputs": [str(ipaddress.IPv4Address(base + h)) for h in hosts]}


def render(body):
    # compact JSON, no trailing newline
    return json.dumps(body, separators=(",", ":")).encode()


def main(argv):
    check = "--check" in argv[1:]
    rng = random.Random(SEED)
    # order matters: both bodies share one PRNG stream, subtract first
    bodies = [("subtract-1000.json", subtract_body(rng)), ("cover-1000.json", cover_body(rng))]
    status = 0
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    for name, body in bodies:
        path = DATA_DIR / name
        data = render(body)
        if check:
            same = path.exists() and path.read_bytes() == data
            print(f"{path}: {'ok' if same else 'DIFFERS'}")
            status |= 0 if same else 1
        else:
            path.write_bytes(data)
            print(f"{path}: {len(data)} bytes")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
