"""Area under a Pareto front of (subset size, score) pairs (seed 001 §5.1)."""

from __future__ import annotations

import numpy as np

__all__ = ["area_under_front"]


def _pairs(front):
    if hasattr(front, "pareto_front_"):  # a fitted FASTENER / POSS
        front = front.pareto_front_
    if hasattr(front, "columns"):  # DataFrame with size/score columns
        return list(zip(front["size"].to_numpy(), front["score"].to_numpy(), strict=False))
    if isinstance(front, dict):
        return list(front.items())
    return [tuple(p) for p in front]


def area_under_front(front, max_features: int = 20, *, empty_score: float = 0.0) -> float:
    """Area under a front (AUF), exactly as seed 001 §5.1 defines it.

    ``AUF = (1/K) * sum_{k=1..K} opt(k)`` with ``opt(k) = max{score of an item
    with |item| <= k}``: the mean, over subset sizes 1..K, of the best score
    reachable with at most that many features.

    Parameters
    ----------
    front : dict, sequence of (size, score), DataFrame, or fitted selector
        ``{size: score}``, pairs ``(size, score)`` (several items of one size
        are allowed; the best counts), a DataFrame with ``size`` and ``score``
        columns, or a fitted selector with ``pareto_front_``. Items need not
        be Pareto-optimal: ``opt`` takes the maximum.
    max_features : int, default=20
        K (the seed uses 20: "selected feature subsets rarely have more than
        20 features"). Items larger than K are ignored.
    empty_score : float, default=0.0
        ``opt(k)`` when no item has size <= k (the seed leaves it undefined;
        0 is the worst F1/accuracy, so a front that starts at size 3 is
        charged 0 for k = 1, 2).

    Returns
    -------
    auf : float
        In the units of the scores (for F1: in [0, 1]).

    Raises
    ------
    ValueError
        ``max_features < 1``.

    References
    ----------
    Seed 001 (001_d348067f051b51fa.txt), §5.1, the frontSurface / AUF formula.

    Examples
    --------
    >>> from featsieve.genetic import area_under_front
    >>> area_under_front({1: 0.5, 3: 0.8}, max_features=4)  # (0.5 + 0.5 + 0.8 + 0.8) / 4
    0.65
    """
    if int(max_features) < 1:
        raise ValueError(f"max_features must be >= 1; got {max_features}.")
    K = int(max_features)
    pairs = _pairs(front)
    sizes = np.array([int(s) for s, _ in pairs], dtype=np.int64)
    scores = np.array([float(v) for _, v in pairs], dtype=np.float64)
    best = np.full(K + 1, -np.inf)  # best[k] = best score of an item of size exactly k
    for s, v in zip(sizes, scores, strict=False):
        if 0 <= s <= K and v > best[s]:
            best[s] = v
    opt = np.maximum.accumulate(best)[1:]
    opt = np.where(np.isfinite(opt), opt, float(empty_score))
    return float(opt.sum() / K)
