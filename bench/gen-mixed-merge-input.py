"""Writes N address entries (default 1,000,000) for `nettools merge` benchmarks, IPv4 and IPv6
mixed, one a line (issue 18). Deterministic (seeded). 70 % IPv4 (/20 to /32, host bits sometimes
set, a third next to, inside or equal to an earlier entry), 30 % IPv6 (/48 to /128 in
2001:db8::/32 and a few IPv4-mapped addresses).
Usage: python3 bench/gen-mixed-merge-input.py [N] > entries.txt
"""
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
rng = random.Random(18)
out = []
blocks = []
for _ in range(n):
    if rng.random() < 0.3:
        if rng.random() < 0.05:
            a = rng.getrandbits(32)
            out.append(f"::ffff:{a >> 24}.{(a >> 16) & 255}.{(a >> 8) & 255}.{a & 255}")
            continue
        bits = rng.choice([48, 56, 64, 64, 128])
        value = (0x20010DB8 << 96) | (rng.getrandbits(32) << 64) | rng.getrandbits(64)
        groups = [(value >> (16 * (7 - i))) & 0xFFFF for i in range(8)]
        out.append(":".join(f"{g:x}" for g in groups) + ("" if bits == 128 else f"/{bits}"))
        continue
    if blocks and rng.random() < 0.35:
        network, bits = rng.choice(blocks)
        kind = rng.random()
        if kind < 0.5:
            network = (network + (1 << (32 - bits))) & 0xFFFFFFFF
        elif kind < 0.8 and bits < 32:
            bits = rng.randint(bits + 1, 32)
    else:
        bits = rng.choice([20, 22, 24, 24, 26, 28, 29, 30, 31, 32, 32, 32])
        network = rng.randint(1 << 24, (224 << 24) - 1) >> (32 - bits) << (32 - bits)
    blocks.append((network, bits))
    host = network | (rng.getrandbits(32 - bits) if bits < 32 and rng.random() < 0.2 else 0)
    text = f"{host >> 24}.{(host >> 16) & 255}.{(host >> 8) & 255}.{host & 255}"
    out.append(text if bits == 32 else f"{text}/{bits}")
sys.stdout.write("\n".join(out) + "\n")
