"""Benchmark (not a test): the cost of each group operation of the proven deal, in milliseconds.

For NIST P-256 (the real deal) and, for comparison, the small safe-prime test group: variable-base
``mul``, the build of a fixed-base table and its ``mul``, ``mul_gen``, ``multi_mul`` of 52 and 104
terms (and per term), ``decode``, ``encode`` and ``hash_to_group``. Runs in CPython and, through
``bench_group_pyodide.mjs``, inside Pyodide.

    python py/tools/bench_group.py [--repeat 20]
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cribbage.online.group import MODP_TEST, Group
from cribbage.online.p256 import P256_GROUP


def per_call_ms(fn: Callable[[int], object], repeat: int) -> float:
    """The best of three runs of ``repeat`` calls, in milliseconds a call."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for i in range(repeat):
            fn(i)
        best = min(best, (time.perf_counter() - start) / repeat)
    return best * 1000


def bench(group: Group, repeat: int, rng: random.Random) -> None:
    q = group.order
    ks = [rng.randrange(1, q) for _ in range(max(repeat, 104))]
    points = [group.mul_gen(k) for k in ks]
    encoded = [group.encode(p) for p in points]
    rows: list[tuple[str, float]] = []
    rows.append(("mul (variable base)", per_call_ms(lambda i: group.mul(points[i], ks[-1 - i]), repeat)))
    build = per_call_ms(lambda i: group.fixed(points[i]), max(1, repeat // 10))
    rows.append(("fixed(P) table build", build))
    table = group.fixed(points[0])
    rows.append(("fixed(P).mul", per_call_ms(lambda i: table.mul(ks[i]), repeat)))
    group.mul_gen(1)  # the generator's table is built on first use
    rows.append(("mul_gen", per_call_ms(lambda i: group.mul_gen(ks[i]), repeat)))
    for terms in (52, 104):
        pairs = list(zip(points[:terms], reversed(ks[:terms])))
        ms = per_call_ms(lambda i, pairs=pairs: group.multi_mul(pairs), max(1, repeat // 10))
        rows.append((f"multi_mul {terms} terms", ms))
        rows.append((f"multi_mul {terms}: per term", ms / terms))
    rows.append(("decode", per_call_ms(lambda i: group.decode(encoded[i]), repeat)))
    rows.append(("encode", per_call_ms(lambda i: group.encode(points[i]), repeat)))
    rows.append(("hash_to_group", per_call_ms(lambda i: group.hash_to_group(b"bench", i.to_bytes(4, "big")),
                                              repeat)))
    print(f"{group.name}:")
    for label, ms in rows:
        print(f"  {label:28s} {ms:9.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()} ({sys.platform})")
    for group in (P256_GROUP, MODP_TEST):
        bench(group, args.repeat, random.Random(1))


if __name__ == "__main__":
    main()
