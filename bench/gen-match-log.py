"""Writes a web-server-like log and a block list for `nettools match` and grepcidr benchmarks and
tests (issue 18). Deterministic (seeded).

Each line: a timestamp, a client address (IPv4 in 80 % of lines, IPv6 in 15 %, none in 5 %), a
method, a path, a status, a size, and sometimes a second, comma-separated address (a proxy
chain). The block list holds BLOCKS prefixes: IPv4 /8 to /28 and IPv6 /32 to /64, some nested.
Addresses are drawn near the blocks so that about a third of the lines match.

Usage: python3 bench/gen-match-log.py LINES BLOCKS LOG_OUT BLOCKS_OUT [SEED]
"""
import ipaddress
import random
import sys

lines, nblocks, log_out, blocks_out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 18)

v4_blocks, v6_blocks = [], []
for _ in range(nblocks):
    if rng.random() < 0.8:
        bits = rng.randint(8, 28)
        net = ipaddress.IPv4Network((rng.getrandbits(32), bits), strict=False)
        v4_blocks.append(net)
    else:
        bits = rng.randint(32, 64)
        net = ipaddress.IPv6Network(((0x20010DB8 << 96) | (rng.getrandbits(64) << 32), bits), strict=False)
        v6_blocks.append(net)
with open(blocks_out, "w") as f:
    for net in v4_blocks + v6_blocks:
        f.write(f"{net}\n")


def v4():
    if v4_blocks and rng.random() < 0.4:
        net = rng.choice(v4_blocks)
        return str(net.network_address + rng.randrange(net.num_addresses))
    return str(ipaddress.IPv4Address(rng.getrandbits(32)))


def v6():
    if v6_blocks and rng.random() < 0.4:
        net = rng.choice(v6_blocks)
        return str(net.network_address + rng.randrange(min(net.num_addresses, 1 << 63)))
    return str(ipaddress.IPv6Address((0x20010DB8 << 96) | rng.getrandbits(96)))


METHODS = ["GET", "GET", "GET", "POST", "HEAD"]
PATHS = ["/", "/index.html", "/api/v1/items", "/static/app.js", "/login"]
out = []
for i in range(lines):
    r = rng.random()
    client = v4() if r < 0.8 else v6() if r < 0.95 else "-"
    stamp = f"2026-11-24T{(i // 3600) % 24:02d}:{(i // 60) % 60:02d}:{i % 60:02d}Z"
    line = f"{stamp} {client} {rng.choice(METHODS)} {rng.choice(PATHS)} {rng.choice([200, 200, 304, 404])} {rng.randint(0, 99999)}"
    if rng.random() < 0.1:
        line += f" via {v4()},{v4()}"
    out.append(line)
with open(log_out, "w") as f:
    f.write("\n".join(out) + "\n")
