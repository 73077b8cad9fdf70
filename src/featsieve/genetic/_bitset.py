"""Feature subsets as bitsets held in Python ints (seed 001 §3).

Bit ``j`` of the integer is set when feature ``j`` is in the subset; the
representation is little-endian as in the seed ("binary string 11010 represents
a subset containing features 0, 1 and 3 and is represented by the decimal number
11"), so adding columns at the end never changes the number of a subset.
"""

from __future__ import annotations

import numpy as np

__all__ = ["to_bits", "from_bits", "bits_mask", "popcount"]


def to_bits(indices) -> int:
    """The bitset (Python int) of a collection of feature indices.

    Examples
    --------
    >>> to_bits([0, 1, 3])
    11
    """
    idx = np.asarray(indices, dtype=np.int64).ravel()
    if idx.size == 0:
        return 0
    mask = np.zeros(int(idx.max()) + 1, dtype=bool)
    mask[idx] = True
    return bits_from_mask(mask)


def bits_from_mask(mask) -> int:
    """The bitset of a boolean mask (``mask[j]`` -> bit ``j``)."""
    mask = np.asarray(mask, dtype=bool).ravel()
    if mask.size == 0:
        return 0
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


def bits_mask(bits: int, n_features: int) -> np.ndarray:
    """Boolean mask of length ``n_features`` of a bitset."""
    n_bytes = (n_features + 7) // 8
    raw = np.frombuffer(int(bits).to_bytes(max(n_bytes, 1), "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:n_features].astype(bool)


def from_bits(bits: int, n_features: int) -> np.ndarray:
    """Sorted feature indices of a bitset (int64 array)."""
    return np.flatnonzero(bits_mask(bits, n_features))


def popcount(bits: int) -> int:
    """Number of set bits: the size ``|item|`` of a subset."""
    return int(bits).bit_count()
