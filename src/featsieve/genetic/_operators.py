"""The parts of FASTENER (seed 001 §3), each a small replaceable object.

Every operator receives the random generator explicitly (STYLE.md, habit 5);
none keeps random state of its own. Items are bitsets (Python ints, see
:mod:`featsieve.genetic._bitset`).

- :class:`RandomMatingPool` — "a simple random mating pool with a fixed size";
  every pair of the pool is mated (§3.3, §5.1: pool of 3).
- :class:`InformationGainCrossover` — Algorithm 2: intersection of the parents
  plus ``onGeneScaling(| |item1| - |item2| |)`` genes drawn from their XOR,
  weighted by each feature's information gain (mutual information).
- :class:`BitFlipMutation` — §3.2: every bit flips independently with
  probability ``a / N``.
- :class:`GenePurge` — Algorithm 3's choice of the gene to drop from a front
  item (§3.4): the one whose shuffling costs least.
- :class:`ParetoFront` — §3.1: best score for each size, dominated items removed.
- :class:`EveryK` — the default predicate for population reset and front purging.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from ._bitset import bits_from_mask, from_bits, popcount

__all__ = [
    "GENE_SCALINGS",
    "half_plus_one",
    "sqrt_plus_one",
    "log2_plus_one",
    "RandomMatingPool",
    "InformationGainCrossover",
    "BitFlipMutation",
    "GenePurge",
    "EveryK",
    "FrontItem",
    "ParetoFront",
    "weighted_sample",
]


# ----------------------------------------------------------- gene scaling
def half_plus_one(x: int) -> int:
    """``x -> floor(x / 2) + 1``: the seed's onGeneScaling (§3.3)."""
    return int(x) // 2 + 1


def sqrt_plus_one(x: int) -> int:
    """``x -> floor(sqrt(x)) + 1`` (§3.3 suggests sqrt for many features).

    The ``+ 1`` keeps the default's convention that equal-sized parents still
    exchange one gene (plain ``sqrt(0)`` would add none).
    """
    return math.isqrt(int(x)) + 1


def log2_plus_one(x: int) -> int:
    """``x -> floor(log2(x + 1)) + 1`` (§3.3's ``log_a x`` with a = 2, shifted so
    that it is defined at 0 and adds one gene there, like the default)."""
    return int(math.floor(math.log2(int(x) + 1))) + 1


GENE_SCALINGS = {"half": half_plus_one, "sqrt": sqrt_plus_one, "log": log2_plus_one}


# ------------------------------------------------------------ mating pool
@dataclass
class RandomMatingPool:
    """Draw a random mating pool of fixed size; every pair in it is mated.

    Parameters
    ----------
    pool_size : int, default=3
        Items drawn (without replacement) from the current population
        (seed 001 §5.1: 3, giving 3 pairs). With fewer items in the
        population, all of them form the pool.
    replace : bool, default=False
        Draw with replacement, as the reference implementation (PyPI
        ``fastener`` 1.0.4) does: an item may then be mated with itself (the
        child is the item, mutated afresh), which adds copies of good items
        while the population is small.

    Notes
    -----
    The seed says "two different items from the mating pool are combined"; we
    therefore draw the pool without replacement by default.
    """

    pool_size: int = 3
    replace: bool = False

    def select(self, population: list, rng: np.random.Generator) -> list:
        """``pool_size`` members of ``population`` (in draw order; distinct unless
        ``replace``)."""
        n = len(population)
        if n == 0:
            return []
        k = self.pool_size if self.replace else min(self.pool_size, n)
        idx = rng.choice(n, size=k, replace=self.replace)
        return [population[i] for i in idx]

    @staticmethod
    def pairs(pool: list) -> list:
        """Every unordered pair of the pool, in index order."""
        return list(combinations(pool, 2))


# --------------------------------------------------------------- crossover
@dataclass
class InformationGainCrossover:
    """Algorithm 2 (crossoverPair): intersection plus weighted picks from the XOR.

    With ``|item1| >= |item2|`` (swapped if needed) the child is
    ``(item1 & item2) | additional`` where ``additional`` holds
    ``addNum = gene_scaling(|item1| - |item2|)`` genes drawn *without
    replacement* from ``rest = item1 ^ item2`` with probability proportional to
    each feature's weight (its mutual information with the target). When the
    XOR holds fewer than ``addNum`` genes, all of them are added; genes of zero
    weight are drawn (uniformly) only after every positive-weight gene of the
    XOR has been taken; when every weight in the XOR is zero the draw is uniform.

    Parameters
    ----------
    gene_scaling : {"half", "sqrt", "log"} or callable, default="half"
        onGeneScaling: ``"half"`` is ``floor(x/2) + 1`` (the seed's choice),
        ``"sqrt"`` ``floor(sqrt(x)) + 1``, ``"log"`` ``floor(log2(x+1)) + 1``;
        a callable maps the size difference (int >= 0) to a number of genes.
        It may be replaced during a run (``crossover.gene_scaling = ...``).
    top_first : bool, default=False
        Also add the ``addNum`` highest-weight genes of the XOR (ties: lower
        index) before the weighted draw of ``addNum`` more from the rest: what
        the reference implementation (PyPI ``fastener`` 1.0.4,
        ``IntersectionMatingWithWeightedRandomInformationGain``) does. Not in
        the seed's Algorithm 2; an option with its own name.

    References
    ----------
    Seed 001 (001_d348067f051b51fa.txt), §3.3 and Algorithm 2.
    """

    gene_scaling: Any = "half"
    top_first: bool = False

    def n_additional(self, size_difference: int) -> int:
        """addNum for a size difference ``| |item1| - |item2| |``."""
        fn = GENE_SCALINGS[self.gene_scaling] if isinstance(self.gene_scaling, str) \
            else self.gene_scaling
        return max(0, int(fn(int(size_difference))))

    def __call__(self, item1: int, item2: int, weights: np.ndarray,
                 rng: np.random.Generator) -> int:
        """The child bitset of two parent bitsets.

        Parameters
        ----------
        item1, item2 : int
            Parent bitsets.
        weights : ndarray of shape (n_features,)
            Non-negative weight per feature (information gain, nats).
        rng : numpy.random.Generator

        Returns
        -------
        child : int
        """
        if popcount(item1) < popcount(item2):
            item1, item2 = item2, item1
        intermediate = item1 & item2
        rest = item1 ^ item2
        add_num = self.n_additional(popcount(item1) - popcount(item2))
        if rest == 0 or add_num == 0:
            return intermediate
        cand = from_bits(rest, len(weights))
        w = np.asarray(weights, dtype=np.float64)[cand]
        mask = np.zeros(len(weights), dtype=bool)
        if self.top_first:
            top = np.lexsort((cand, -w))[:add_num]
            mask[cand[top]] = True
            keep = np.ones(len(cand), dtype=bool)
            keep[top] = False
            cand, w = cand[keep], w[keep]
        if len(cand):
            mask[weighted_sample(cand, w, add_num, rng)] = True
        return intermediate | bits_from_mask(mask)


def weighted_sample(candidates: np.ndarray, weights: np.ndarray, k: int,
                    rng: np.random.Generator) -> np.ndarray:
    """``k`` distinct candidates drawn with probability proportional to ``weights``.

    Successive sampling without replacement (numpy's ``choice(replace=False,
    p=...)``); zero-weight candidates are used only once the positive ones are
    exhausted (then uniformly). All candidates when ``k >= len(candidates)``.
    """
    candidates = np.asarray(candidates)
    if k >= len(candidates):
        return candidates.copy()
    w = np.clip(np.nan_to_num(np.asarray(weights, dtype=np.float64), nan=0.0), 0.0, None)
    pos = w > 0
    n_pos = int(pos.sum())
    if n_pos >= k:
        p = w[pos] / w[pos].sum()
        return rng.choice(candidates[pos], size=k, replace=False, p=p)
    taken = candidates[pos]
    zero = candidates[~pos]
    more = rng.choice(zero, size=k - n_pos, replace=False)
    return np.concatenate([taken, more])


# ---------------------------------------------------------------- mutation
@dataclass
class BitFlipMutation:
    """Flip every bit independently with probability ``a / N`` (§3.2).

    Parameters
    ----------
    a : float or callable, default=1.0
        Expected number of flips per item. A callable ``a(generation) ->
        float`` changes the rate during the run (the seed: "varying a with
        generation number and changes in the Pareto front"); the attribute
        may also be reassigned between generations. The probability is
        clipped to 1.

    References
    ----------
    Seed 001 §3.2 (mutation adopted from POSS).
    """

    a: Any = 1.0

    def probability(self, n_features: int, generation: int = 0) -> float:
        """The flip probability ``a / N`` at ``generation``."""
        a = self.a(generation) if callable(self.a) else self.a
        return min(1.0, float(a) / n_features)

    def __call__(self, item: int, n_features: int, rng: np.random.Generator,
                 generation: int = 0) -> int:
        """The mutated bitset: ``item XOR flips`` with ``flips[j] ~ Bernoulli(a/N)``."""
        p = self.probability(n_features, generation)
        flips = rng.random(n_features) < p
        if not flips.any():
            return item
        return item ^ bits_from_mask(flips)


# ----------------------------------------------------------------- purging
@dataclass
class GenePurge:
    """Which gene Algorithm 3 drops from a front item (§3.4).

    The search measures, on the item's stored model, how much the
    selection-val score falls when each gene's values are shuffled
    (``decrease``); this object picks the gene to unset. The default is
    Algorithm 3 itself: the gene of least decrease (line 13), first on ties.

    Parameters
    ----------
    skip_tried : bool, default=False
        When dropping the least-decrease gene gives an item already evaluated
        (a purge of an unchanged front item repeats itself), take the next
        gene whose removal is new; §3.4: "another feature could be considered
        for removal". No gene when every removal was tried.
    max_decrease : float or None, default=None
        Genes whose shuffling costs more than this (in score units) are never
        dropped (§3.4: "an appropriate threshold ... so that features with
        very high predictive power are never removed"). None: no threshold.

    References
    ----------
    Seed 001 §3.4, Algorithm 3, lines 9-14.
    """

    skip_tried: bool = False
    max_decrease: float | None = None

    def __call__(self, genes, decrease, is_new, rng: np.random.Generator) -> int | None:
        """The gene (column index of the search) to unset, or None for none.

        Parameters
        ----------
        genes : ndarray of int, shape (|item|,)
        decrease : ndarray of float, shape (|item|,)
            ``base score - score with that gene shuffled``.
        is_new : callable
            ``is_new(gene) -> bool``: the item without ``gene`` is unevaluated.
        rng : numpy.random.Generator
            Unused by this rule; given so that a random rule (§3.4's sampling
            by scaled decreases) can replace it.
        """
        order = np.argsort(np.asarray(decrease, dtype=float), kind="stable")
        for i in order:
            if self.max_decrease is not None and decrease[i] > self.max_decrease:
                return None
            if not self.skip_tried or is_new(int(genes[i])):
                return int(genes[i])
        return None


# -------------------------------------------------------------- predicates
@dataclass
class EveryK:
    """Predicate true on every ``k``-th generation (``k`` = 0 or None: never)."""

    k: int | None = 5

    def __call__(self, generation: int) -> bool:
        return bool(self.k) and generation % self.k == 0


# ------------------------------------------------------------ Pareto front
@dataclass
class FrontItem:
    """An evaluated item on the front: its bitset, score, and stored model."""

    bits: int
    score: float
    evaluation: int = 0
    model: Any = field(default=None, repr=False, compare=False)

    @property
    def size(self) -> int:
        return popcount(self.bits)


class ParetoFront:
    """The Pareto front as "best score for each size" (seed 001 §3.1).

    ``(k1, s1)`` dominates ``(k2, s2)`` iff ``k1 <= k2`` and ``s1 >= s2``.
    :meth:`offer` puts an item on the front when its size is new or its score
    is strictly better than the item of the same size (an equal score keeps
    the incumbent, so results do not depend on tie order beyond evaluation
    order); :meth:`remove_dominated` then drops every item whose score is not
    strictly above the best score of all smaller sizes.
    """

    def __init__(self):
        self._items: dict[int, FrontItem] = {}

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, size: int) -> bool:
        return size in self._items

    def __getitem__(self, size: int) -> FrontItem:
        return self._items[size]

    def items(self) -> list[FrontItem]:
        """Front items by increasing size."""
        return [self._items[k] for k in sorted(self._items)]

    def sizes(self) -> list[int]:
        return sorted(self._items)

    def offer(self, item: FrontItem) -> bool:
        """Put ``item`` on the front if it beats the same-size incumbent."""
        size = item.size
        cur = self._items.get(size)
        if cur is None or item.score > cur.score:
            self._items[size] = item
            return True
        return False

    def remove_dominated(self) -> list[FrontItem]:
        """Remove dominated items; returns the removed ones."""
        removed, peak = [], -np.inf
        for k in sorted(self._items):
            it = self._items[k]
            if it.score <= peak:
                removed.append(self._items.pop(k))
            else:
                peak = it.score
        return removed

    def opt(self, k: int) -> float:
        """Best score among items of size <= k (-inf if none)."""
        best = -np.inf
        for s, it in self._items.items():
            if s <= k and it.score > best:
                best = it.score
        return best

    def pairs(self) -> list[tuple[int, float]]:
        """``[(size, score), ...]`` by increasing size."""
        return [(it.size, float(it.score)) for it in self.items()]

    def bits(self) -> list[int]:
        return [it.bits for it in self.items()]
