"""Genetic feature selection: FASTENER and POSS (seed 001), FS-SDS, and the seed's baselines.

Seed: ``001_d348067f051b51fa.txt`` (Koprivec, Kenda, Šircelj, FASTENER, Entropy
2020). FASTENER searches feature subsets held as bitsets with an
information-gain crossover, bit-flip mutation, a Pareto front of (size, score)
and front purging by permutation on stored models; POSS is its mutation-only
baseline on the same evaluator and front. The seed's other baselines
(decision-tree forward selection, §5.4; k-best and ReliefF, §5.2) are rows of
the method table (:mod:`featsieve.methods`) built from the classic selectors
and :mod:`featsieve.scores`.

Real tables: the default decision tree takes missing values as NaN (scikit-learn
trees since 1.3); a model that does not take NaN gets imputed values
(``BaseSelector``); categorical columns are their category codes, for the tree
and for the MI crossover weights (estimated with a missing value counted as the
column's median).

The engine is apart from the estimators: ``_search`` holds one run's state
(evaluator, cache, front, generator, record) and the strategies FASTENER and
POSS run on it; the estimators build the state in ``fit`` and read the result
off it, so nothing of a search stays on them.
"""

from __future__ import annotations

from ._bitset import from_bits, popcount, to_bits
from ._evaluator import SubsetEvaluator, f1_from_labels, make_metric
from ._fastener import FASTENER, POSS
from ._front import area_under_front
from ._fssds import FSSDS
from ._operators import (
    BitFlipMutation,
    EveryK,
    GenePurge,
    InformationGainCrossover,
    ParetoFront,
    RandomMatingPool,
    half_plus_one,
    log2_plus_one,
    sqrt_plus_one,
)

__all__ = [
    "FASTENER",
    "area_under_front",
    "POSS",
    "FSSDS",
    "RandomMatingPool",
    "InformationGainCrossover",
    "BitFlipMutation",
    "GenePurge",
    "EveryK",
    "ParetoFront",
    "SubsetEvaluator",
    "half_plus_one",
    "sqrt_plus_one",
    "log2_plus_one",
    "to_bits",
    "from_bits",
    "popcount",
    "make_metric",
    "f1_from_labels",
]
