"""The honest protocol's splits (DESIGN.md, "The honest protocol").

Default proportions follow seed 000 §4.2 (000_dd912381c0e6a8a4.txt): 45% train,
30% selection-validation, 10% model-validation, 15% test; stratified for
classification, seeded. The test part takes part in no selection and no tuning.

Structured rows: with ``groups`` every group lies in exactly one part (the
parts are then filled group by group, stratified by each group's majority class
where possible); with ``time`` the parts follow time order (train, then
selection-val, then model-val, then test), and rows with equal times stay in
one part. :func:`inner_cv` gives the folds a selector that cross-validates
inside its fit part should use so that the same rules hold there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.utils import check_random_state

__all__ = ["HonestSplit", "honest_split", "holdout_split", "inner_cv", "DEFAULT_FRACTIONS",
           "MIN_SAMPLES"]

DEFAULT_FRACTIONS = (0.45, 0.30, 0.10, 0.15)
MIN_SAMPLES = 20  # fewest rows the four-part split accepts


def holdout_split(n_samples: int, y, fraction: float, *, stratify: bool, random_state=None,
                  groups=None):
    """Indices of a seeded (stratified) split into a fit part and a held-out part.

    Parameters
    ----------
    n_samples : int
    y : ndarray of shape (n_samples,)
        Used for stratification when ``stratify``.
    fraction : float in (0, 1) or int
        Share (float) or number (int) of rows in the held-out part.
    stratify : bool
        Stratify by ``y`` (classification). Falls back to a plain shuffle when a
        class is too small to appear on both sides.
    random_state : int, RandomState or None
    groups : array-like of shape (n_samples,) or None, default=None
        Group labels: each group lands whole on one side (scikit-learn's
        ``GroupShuffleSplit``, ``fraction`` a share of the groups; no
        stratification). At least two groups are needed.

    Returns
    -------
    fit_idx, held_idx : ndarray of int

    Raises
    ------
    ValueError
        ``groups`` with fewer than two groups.
    """
    idx = np.arange(n_samples)
    seed = check_random_state(random_state).randint(0, 2**31 - 1)
    if groups is not None:
        from sklearn.model_selection import GroupShuffleSplit

        groups = np.asarray(groups)
        n_groups = len(np.unique(groups))
        if n_groups < 2:
            raise ValueError(f"groups holds {n_groups} group; splitting the rows by group "
                             "needs at least two.")
        share = fraction if not isinstance(fraction, (int, np.integer)) else fraction / n_samples
        share = min(max(share, 1 / n_groups), 1 - 1 / n_groups)
        a, b = next(GroupShuffleSplit(n_splits=1, test_size=share, random_state=seed).split(
            idx, groups=groups))
        return np.sort(a), np.sort(b)
    strat = y if stratify else None
    if strat is not None:
        _, counts = np.unique(strat, return_counts=True)
        n_held = fraction if isinstance(fraction, (int, np.integer)) else int(
            np.ceil(fraction * n_samples))
        if counts.min() < 2 or n_held < len(counts) or n_samples - n_held < len(counts):
            strat = None
    a, b = train_test_split(idx, test_size=fraction, random_state=seed, stratify=strat)
    return np.sort(a), np.sort(b)


@dataclass(frozen=True)
class HonestSplit:
    """Row indices of the four parts of the honest protocol."""

    train: np.ndarray
    selection_val: np.ndarray
    model_val: np.ndarray
    test: np.ndarray

    @property
    def fit(self) -> np.ndarray:
        """Train and selection-val together: what a method without its own
        validation split fits on (seed 000 §4.2)."""
        return np.sort(np.concatenate([self.train, self.selection_val]))

    def sizes(self) -> dict:
        return {k: int(len(getattr(self, k))) for k in ("train", "selection_val", "model_val", "test")}


def honest_split(y, task: str, *, fractions=DEFAULT_FRACTIONS, random_state=None, groups=None,
                 time=None, time_window: float = 1.0) -> HonestSplit:
    """Split rows into train / selection-val / model-val / test.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Encoded target (stratification uses it for classification).
    task : {"classification", "regression"}
    fractions : tuple of 4 floats, default=(0.45, 0.30, 0.10, 0.15)
        Must sum to 1.
    random_state : int, RandomState or None
    groups : array-like of shape (n_samples,) or None, default=None
        Group labels: all rows of a group go to the same part. Groups are
        shuffled (seeded) within strata of their majority class and given to
        the parts in turn so that each part gets about its share of rows
        (a group goes to the part its middle row falls in).
    time : array-like of shape (n_samples,) or None, default=None
        Row times (numbers or datetimes): the parts are consecutive in time,
        train first; no shuffling, ``random_state`` is unused. Exclusive with
        ``groups``.
    time_window : float in (0, 1], default=1.0
        With ``time``: split only the earliest ``time_window`` share of the
        rows (a rolling origin; :func:`featsieve.compare` repeats time-ordered
        splits with different windows). The later rows are in no part.

    Returns
    -------
    split : HonestSplit
        Index arrays, sorted by row index; with ``time`` each part is in time
        order.

    Raises
    ------
    ValueError
        Fractions that do not sum to 1, too few rows for four non-empty parts
        (at least 20 rows are needed), too few groups for four parts, both
        ``groups`` and ``time``.
    """
    fractions = tuple(float(f) for f in fractions)
    if len(fractions) != 4 or abs(sum(fractions) - 1) > 1e-9 or min(fractions) <= 0:
        raise ValueError(f"fractions must be 4 positive numbers summing to 1; got {fractions}.")
    y = np.asarray(y)
    n = len(y)
    if n < MIN_SAMPLES:
        raise ValueError(
            f"The honest protocol needs at least {MIN_SAMPLES} samples to split into "
            f"train/selection-val/model-val/test; got {n}."
        )
    if groups is not None and time is not None:
        raise ValueError("Give groups or time, not both: a time-ordered split of grouped rows "
                         "is not supported.")
    if time is not None:
        return _time_split(_check_len(time, n, "time"), fractions, time_window)
    if groups is not None:
        return _group_split(_check_len(groups, n, "groups"), y, task, fractions, random_state)
    rng = check_random_state(random_state)
    strat = task == "classification"
    _, sv, mv, te = fractions
    n_te, n_mv, n_sv = (int(round(f * n)) for f in (te, mv, sv))
    rest, test = holdout_split(n, y, n_te, stratify=strat, random_state=rng)
    a, b = holdout_split(len(rest), y[rest], n_mv, stratify=strat, random_state=rng)
    fit_part, model_val = rest[a], rest[b]
    c, d = holdout_split(len(fit_part), y[fit_part], n_sv, stratify=strat, random_state=rng)
    return HonestSplit(train=fit_part[c], selection_val=fit_part[d], model_val=model_val,
                       test=test)


def _check_len(values, n, what):
    v = np.asarray(values)
    if v.ndim != 1 or len(v) != n:
        raise ValueError(f"{what} must hold one value per row ({n}); got shape {v.shape}.")
    if v.dtype.kind in "fc" and np.isnan(v.astype(float)).any():
        raise ValueError(f"{what} has missing values; give every row a {what} value.")
    return v


_PARTS = ("train", "selection_val", "model_val", "test")


def _time_split(time, fractions, window) -> HonestSplit:
    if not 0 < window <= 1:
        raise ValueError(f"time_window must be in (0, 1]; got {window}.")
    order = np.argsort(time, kind="stable")
    n = int(round(window * len(order)))
    order, t = order[:n], time[order[:n]]
    cuts = np.round(np.cumsum(fractions)[:-1] * n).astype(int)
    # rows with equal times stay together: move each cut to the end of its tie block
    cuts = [int(np.searchsorted(t, t[c - 1], side="right")) if 0 < c < n else c for c in cuts]
    bounds = [0, *cuts, n]
    parts = [order[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    if min(len(p) for p in parts) == 0:
        raise ValueError("time: too few distinct times to cut the rows into four consecutive "
                         "parts (train, selection-val, model-val, test); give finer times.")
    return HonestSplit(**dict(zip(_PARTS, parts, strict=True)))


def _group_split(groups, y, task, fractions, random_state) -> HonestSplit:
    rng = check_random_state(random_state)
    labels, inv = np.unique(groups, return_inverse=True)
    sizes = np.bincount(inv)
    if task == "classification":  # stratum: the group's majority class
        counts = np.zeros((len(labels), int(y.max()) + 1))
        np.add.at(counts, (inv, y.astype(int)), 1)
        stratum = counts.argmax(axis=1)
    else:
        stratum = np.zeros(len(labels), int)
    # small parts first, so that rounding favours them: test, model-val, selection-val, train
    fill = [3, 2, 1, 0]
    bounds = np.cumsum([fractions[i] for i in fill])
    part_of_group = np.empty(len(labels), int)
    for s in np.unique(stratum):
        gs = np.flatnonzero(stratum == s)
        gs = gs[rng.permutation(len(gs))]
        cum = np.cumsum(sizes[gs])
        middle = (cum - sizes[gs] / 2) / cum[-1]
        part_of_group[gs] = np.array(fill)[np.minimum(np.searchsorted(bounds, middle), 3)]
    row_part = part_of_group[inv]
    parts = [np.flatnonzero(row_part == i) for i in range(4)]
    empty = [_PARTS[i] for i in range(4) if len(parts[i]) == 0]
    if empty:
        raise ValueError(f"groups: {len(labels)} groups are too few to fill the four parts of "
                         f"the honest protocol ({', '.join(empty)} got none); a grouped split "
                         "needs more groups (at least a few dozen for stable estimates).")
    return HonestSplit(**dict(zip(_PARTS, parts, strict=True)))


def inner_cv(task: str, n_splits: int, *, groups=None, time=None, y=None, random_state=None):
    """Folds for a selector that cross-validates inside its fit part.

    Parameters
    ----------
    task : {"classification", "regression"}
    n_splits : int
        Wanted folds; fewer when there are fewer groups (at least 2).
    groups : array-like of shape (n_rows,) or None
        Group labels of the fit part's rows: folds keep groups whole
        (``StratifiedGroupKFold`` for classes, ``GroupKFold`` otherwise).
    time : bool or None
        The fit part's rows are in time order: forward-chaining folds
        (``TimeSeriesSplit``: each fold validates on rows later than it trains on).
    y : array-like of shape (n_rows,)
        The fit part's target (needed with ``groups``).
    random_state : int, RandomState or None

    Returns
    -------
    folds : list of (train_idx, val_idx) or None
        None when neither ``groups`` nor ``time`` is given (the selector's own
        splitter applies).
    """
    from sklearn.model_selection import GroupKFold, StratifiedGroupKFold, TimeSeriesSplit

    if time:
        n = len(y)
        return list(TimeSeriesSplit(n_splits=max(2, min(n_splits, n // 4))).split(np.arange(n)))
    if groups is None:
        return None
    groups = np.asarray(groups)
    k = max(2, min(n_splits, len(np.unique(groups))))
    idx = np.zeros((len(groups), 1))
    if task == "classification":
        seed = check_random_state(random_state).randint(0, 2**31 - 1)
        splitter = StratifiedGroupKFold(n_splits=k, shuffle=True, random_state=seed)
    else:
        splitter = GroupKFold(n_splits=k)
    return list(splitter.split(idx, y, groups))
