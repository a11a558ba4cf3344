"""The match's generator is SplitMix64: pinned to its published reference outputs."""

from collections import Counter

from cribbage.rng import Rng


def test_splitmix64_reference_vector():
    # Reference outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
    rng = Rng(0)
    assert [rng.next_u64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_below_is_in_range_and_roughly_uniform():
    rng = Rng(1)
    counts = Counter(rng.below(6) for _ in range(60000))
    assert set(counts) == set(range(6))
    assert all(9000 < n < 11000 for n in counts.values())


def test_shuffle_is_a_permutation_and_deterministic():
    a, b = list(range(52)), list(range(52))
    Rng(9).shuffle(a)
    Rng(9).shuffle(b)
    assert a == b and sorted(a) == list(range(52)) and a != list(range(52))
