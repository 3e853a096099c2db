"""Writes N address entries (default 100,000) for `nettools merge` benchmarks, one a line.

Deterministic (seeded), shaped like a real block- or allow-list: IPv4 prefixes /20–/32 (host
bits sometimes set) spread over the unicast space, and about a third of them adjacent to,
inside or equal to an earlier entry, so that merging has work to do.
Usage: python3 bench/gen-merge-input.py [N] > entries.txt
"""
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
rng = random.Random(13)
out = []
blocks = []  # (network, bits) of earlier entries
for _ in range(n):
    if blocks and rng.random() < 0.35:
        network, bits = rng.choice(blocks)
        kind = rng.random()
        if kind < 0.5:  # the adjacent block of the same size
            network = (network + (1 << (32 - bits))) & 0xFFFFFFFF
        elif kind < 0.8 and bits < 32:  # a smaller block at its start, inside it
            bits = rng.randint(bits + 1, 32)
        # else: an exact duplicate
    else:
        bits = rng.choice([20, 22, 24, 24, 26, 28, 29, 30, 31, 32, 32, 32])
        network = rng.randint(1 << 24, (224 << 24) - 1) >> (32 - bits) << (32 - bits)
    blocks.append((network, bits))
    host = network | (rng.getrandbits(32 - bits) if bits < 32 and rng.random() < 0.2 else 0)
    text = f"{host >> 24}.{(host >> 16) & 255}.{(host >> 8) & 255}.{host & 255}"
    out.append(text if bits == 32 else f"{text}/{bits}")
sys.stdout.write("\n".join(out) + "\n")
