"""The statistics behind a comparison over repeated splits: pure functions of numbers.

- :func:`corrected_t` — the corrected resampled t of Nadeau & Bengio (2003) for
  scores from repeated random train/test splits (training sets overlap, so the
  plain t-test is too sure of itself).
- :func:`holm` — Holm's (1979) step-down adjustment of several p-values.
- :func:`nogueira_stability` — the stability of a feature selection across
  repeats (Nogueira, Sechidis & Brown 2018), with its variance and interval.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

__all__ = ["corrected_t", "holm", "nogueira_stability"]


def corrected_t(values, *, n_train: int, n_test: int, level: float = 0.95) -> dict:
    """Mean, interval and two-sided p-value (against 0) of repeated-split scores.

    The corrected resampled t of Nadeau & Bengio (2003, "Inference for the
    generalization error", Machine Learning 52, eq. (2) with the variance
    factor of §4): with ``J`` repeats of a random split into ``n_train``
    training and ``n_test`` test rows,

        var = (1 / J + n_test / n_train) * s^2,     t = mean / sqrt(var),

    where ``s^2`` is the sample variance of the ``J`` values (ddof=1), and
    ``t`` is referred to Student's t with ``J - 1`` degrees of freedom. The
    term ``n_test / n_train`` widens the plain ``s^2 / J`` to account for the
    overlap of training sets between repeats.

    Parameters
    ----------
    values : array-like of shape (J,)
        One number per repeat (a test score, or a paired difference of two).
    n_train, n_test : int
        Rows the model learned from and rows it was scored on in one repeat.
    level : float, default=0.95
        Coverage of the interval.

    Returns
    -------
    out : dict
        ``mean``, ``se`` (the corrected standard error ``sqrt(var)``), ``ci``
        ([lo, hi]), ``p_value`` (two-sided, for mean = 0). With one value: the
        interval is [mean, mean] and se/p-value are None. When every value is
        equal (``s = 0``, common when a difference is one test row in every
        repeat) the t statistic is undefined: the interval is [mean, mean] and
        the p-value is the exact two-sided sign test of ``J`` values of one
        sign, ``2 ** (1 - J)`` (1 for a mean of 0), never 0. ``test`` names
        the test behind the p-value: ``"corrected t"``, ``"sign"`` (that
        fallback) or None (no p-value).

    Examples
    --------
    >>> r = corrected_t([0.1, 0.2, 0.3], n_train=90, n_test=10)
    >>> round(r["mean"], 3), round(r["se"], 4)
    (0.2, 0.0667)
    """
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    j = v.size
    if j == 0:
        return {"mean": None, "se": None, "ci": [None, None], "p_value": None, "test": None}
    mean = float(v.mean())
    if j == 1:
        return {"mean": mean, "se": None, "ci": [mean, mean], "p_value": None, "test": None}
    s2 = float(v.var(ddof=1))
    se = math.sqrt((1.0 / j + n_test / max(n_train, 1)) * s2)
    if se == 0.0 or not np.isfinite(se):
        return {"mean": mean, "se": 0.0, "ci": [mean, mean],
                "p_value": 1.0 if mean == 0 else min(1.0, 2.0 ** (1 - j)), "test": "sign"}
    q = float(stats.t.ppf(0.5 + level / 2, j - 1))
    p = float(2 * stats.t.sf(abs(mean / se), j - 1))
    return {"mean": mean, "se": se, "ci": [mean - q * se, mean + q * se], "p_value": p,
            "test": "corrected t"}


def holm(p_values) -> list:
    """Holm's step-down adjusted p-values (family-wise error control).

    The ``i``-th smallest of ``m`` p-values is multiplied by ``m - i + 1``
    (``i`` from 1); adjusted values are made non-decreasing in that order and
    capped at 1 (Holm 1979, "A simple sequentially rejective multiple test
    procedure", Scand. J. Statist. 6). None entries are left out of the
    family and stay None.

    Parameters
    ----------
    p_values : sequence of float or None

    Returns
    -------
    adjusted : list of float or None
        In the input order.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    idx = [i for i, p in enumerate(p_values) if p is not None and np.isfinite(p)]
    out: list = [None] * len(p_values)
    m = len(idx)
    running = 0.0
    for rank, i in enumerate(sorted(idx, key=lambda i: (p_values[i], i))):
        running = max(running, min(1.0, (m - rank) * float(p_values[i])))
        out[i] = round(running, 15)
    return out


def nogueira_stability(Z, *, level: float = 0.95) -> dict:
    """Stability of feature selections across repeats, with its variance and interval.

    ``Z`` holds one selection per row. With ``M`` rows, ``d`` columns, the
    selection frequency ``p_f`` of column ``f`` and the mean number selected
    ``k̄``, the estimator is (Nogueira, Sechidis & Brown 2018, "On the
    stability of feature selection algorithms", JMLR 18(174), Definition 4)

        Φ̂ = 1 - mean_f(s_f^2) / ((k̄ / d) (1 - k̄ / d)),   s_f^2 = M / (M - 1) p_f (1 - p_f).

    It is 1 when every selection is the same, about 0 for selections drawn at
    random with the same sizes, and can be negative, down to ``-1 / (M - 1)``
    (the paper's bounds property). Its variance is
    ``4 / M^2 * sum_i (φ_i - φ̄)^2`` with the per-selection terms ``φ_i`` of
    the paper's Theorem 8 (their §5); the interval is ``Φ̂ ± z sqrt(var)``
    (Corollary 9), clipped to the measure's range ``[-1 / (M - 1), 1]`` (the
    normal approximation can reach past it: 0.85 ± 0.16 is [0.69, 1]).

    The measure compares the selections with random ones of the same mean
    size ``k̄``; when ``k̄`` is within one column of 0 or of ``d`` (every
    selection keeps, on average, fewer than one column, or all but fewer than
    one) random selections of that size nearly always agree, the
    denominator ``(k̄ / d)(1 - k̄ / d)`` is close to 0, and the estimate and
    its interval say nothing (a selector that keeps all 79 columns but one in
    one repeat of five scores about 0 ± 1.1). Such differing selections get
    no stability (None) and a ``note`` saying why, as ``k̄`` of exactly 0 or
    ``d`` with differing selections would; identical selections keep their
    stability of 1.

    Parameters
    ----------
    Z : array-like of bool of shape (M, d)
    level : float, default=0.95

    Returns
    -------
    out : dict
        ``stability``, ``variance``, ``ci`` ([lo, hi]), ``frequency``
        (ndarray of shape (d,)) and ``note`` (why there is no stability, else
        None). One selection has no stability (None, with a note: the measure
        compares selections with each other). When ``min(k̄, d - k̄) < 1``
        (every selection empty or full, or nearly so: the estimator is
        undefined or says nothing, see above), the stability is 1.0 if all
        selections are equal, else None; variance and interval are then None.

    Examples
    --------
    >>> round(nogueira_stability([[1, 1, 0, 0], [1, 1, 0, 0]])["stability"], 6)
    1.0
    """
    Z = np.asarray(Z, dtype=float)
    if Z.ndim != 2:
        raise ValueError(f"Z must be 2-D (selections x columns); got shape {Z.shape}.")
    m, d = Z.shape
    freq = Z.mean(axis=0) if m else np.zeros(d)
    k = Z.sum(axis=1)
    kbar = float(k.mean()) if m else 0.0
    denom = (kbar / d) * (1 - kbar / d) if d else 0.0
    if m < 2 or denom <= 0 or min(kbar, d - kbar) < 1:
        same = m >= 2 and bool((Z == Z[0]).all())
        note = ("undefined for one selection: it compares selections with each other (run "
                "more repeats)" if m == 1 else None)
        if not same and m >= 2:
            what = ("fewer than one column" if kbar < d / 2 else
                    f"all but fewer than one of the {d} columns")
            note = (f"undefined: the selections keep {what} on average ({kbar:.3g} of {d}), "
                    "where selections drawn at random with that size agree almost everywhere "
                    "too, so the measure (Nogueira et al. 2018), which compares with them, "
                    "says nothing")
        return {"stability": 1.0 if same else None, "variance": None, "ci": [None, None],
                "frequency": freq, "note": note}
    stab = 1 - (m / (m - 1)) * float(np.mean(freq * (1 - freq))) / denom
    phi = ((Z @ freq) / d - k * kbar / d**2
           + stab / 2 * (2 * k * kbar / d**2 - k / d - kbar / d + 1)) / denom
    var = float(4 / m**2 * np.sum((phi - phi.mean()) ** 2))
    z = float(stats.norm.ppf(0.5 + level / 2))
    half = z * math.sqrt(var)
    low = -1 / (m - 1)  # the estimator's lower bound
    return {"stability": float(stab), "variance": var,
            "ci": [max(low, stab - half), min(1.0, stab + half)], "frequency": freq,
            "note": None}
