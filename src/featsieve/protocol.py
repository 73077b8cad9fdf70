"""The honest protocol's splits (DESIGN.md, "The honest protocol").

Default proportions follow seed 000 §4.2 (000_dd912381c0e6a8a4.txt): 45% train,
30% selection-validation, 10% model-validation, 15% test; stratified for
classification, seeded. The test part takes part in no selection and no tuning.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.utils import check_random_state

__all__ = ["HonestSplit", "honest_split", "holdout_split", "DEFAULT_FRACTIONS", "MIN_SAMPLES"]

DEFAULT_FRACTIONS = (0.45, 0.30, 0.10, 0.15)
MIN_SAMPLES = 20  # fewest rows the four-part split accepts


def holdout_split(n_samples: int, y, fraction: float, *, stratify: bool, random_state=None):
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

    Returns
    -------
    fit_idx, held_idx : ndarray of int
    """
    idx = np.arange(n_samples)
    seed = check_random_state(random_state).randint(0, 2**31 - 1)
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


def honest_split(y, task: str, *, fractions=DEFAULT_FRACTIONS, random_state=None) -> HonestSplit:
    """Split rows into train / selection-val / model-val / test.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Encoded target (stratification uses it for classification).
    task : {"classification", "regression"}
    fractions : tuple of 4 floats, default=(0.45, 0.30, 0.10, 0.15)
        Must sum to 1.
    random_state : int, RandomState or None

    Returns
    -------
    split : HonestSplit

    Raises
    ------
    ValueError
        Fractions that do not sum to 1, or too few rows for four non-empty
        parts (at least 20 rows are needed).
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
