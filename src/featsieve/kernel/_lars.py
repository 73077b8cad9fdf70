"""Non-negative LARS on the Gram form, asking for Gram columns lazily.

Solves the path of ``min_{a >= 0} 1/2 a^T G a - h^T a + lambda ||a||_1`` (the
Gram form of seed 004 eq. (3)/(4)) by least-angle regression with the Lasso
and positivity modifications (Efron et al. 2004, §3.4 and §5; Mørup et al.
2008, the non-negative LARS the reference package translates). Only the
columns ``G[:, A]`` of the active set are used, so a caller that computes
columns on demand never builds the ``d x d`` Gram matrix.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["LarsPath", "nonnegative_lars"]


@dataclass
class LarsPath:
    """The result of :func:`nonnegative_lars`.

    Attributes
    ----------
    active : list of int
        Selected features in order of entry (the ``n_nonzero + 1``-th entrant
        removed, as in the reference).
    coef : ndarray of shape (d,)
        Coefficients at the last knot.
    path : ndarray of shape (d, n_knots)
        Coefficients at every knot (the first column is zero).
    lambdas : ndarray of shape (n_knots,)
        The largest correlation ``max_j (h - G a)_j`` at each knot (the Lasso's
        ``lambda``).
    active_sets : list of list of int
        Active set after each knot.
    events : list of tuple
        ``(knot, "add" | "drop" | "end", feature)``.
    """

    active: list
    coef: np.ndarray
    path: np.ndarray
    lambdas: np.ndarray
    active_sets: list = field(default_factory=list)
    events: list = field(default_factory=list)


def nonnegative_lars(h, columns, n_nonzero: int, *, tol: float = 1e-9) -> LarsPath:
    """Non-negative LARS-Lasso path until ``n_nonzero + 1`` features are active.

    Parameters
    ----------
    h : ndarray of shape (d,)
        ``X^T y`` (HSIC of each feature with the output).
    columns : callable
        ``columns(idx, hint) -> ndarray (d, len(idx))``: Gram columns; ``hint``
        is the current correlation vector (for prefetching).
    n_nonzero : int
        Features to select. The path runs until one more feature would enter
        (the coefficients are those at that knot), or to the non-negative
        least-squares solution.
    tol : float, default=1e-9
        Steps and correlations at or below it count as zero (the reference's
        ``1e-9``).

    Returns
    -------
    LarsPath

    Notes
    -----
    Each step costs one ``|A| x |A|`` solve and a ``d x |A|`` product; a new
    active feature costs one Gram column. Ties go to the lower index. Unlike
    the reference, no feature is added once every correlation is <= ``tol``
    (the reference then appends an arbitrary zero-coefficient feature).
    """
    h = np.asarray(h, dtype=np.float64)
    d = h.shape[0]
    beta = np.zeros(d)
    c = h.copy()
    path, lambdas, sets, events = [beta.copy()], [], [], []
    j = int(np.argmax(c))
    if d == 0 or c[j] <= tol:
        return LarsPath([], beta, np.zeros((d, 1)), np.array([max(c.max(initial=0.0), 0.0)]),
                        [[]], [])
    A = [j]
    inactive = np.ones(d, bool)
    inactive[j] = False
    C = c[j]
    lambdas.append(C)
    sets.append(list(A))
    events.append((0, "add", j))
    knot = 0
    # the active set's Gram columns, in A's order, kept between steps (a new active
    # feature fetches one column; a drop shifts the rest): not re-stacked every step
    buf = np.empty((d, n_nonzero + 2))
    buf[:, 0] = columns(A, c)[:, 0]
    while len(A) < n_nonzero + 1 and c[A].mean() >= tol:
        GA = buf[:, :len(A)]
        GAA = GA[A]
        GAA = 0.5 * (GAA + GAA.T)
        try:
            w = np.linalg.solve(GAA, np.ones(len(A)))
        except np.linalg.LinAlgError:
            w = np.linalg.lstsq(GAA, np.ones(len(A)), rcond=None)[0]
        a = GA @ w
        idx_in = np.flatnonzero(inactive)
        with np.errstate(divide="ignore", invalid="ignore"):
            g1 = (C - c[idx_in]) / (a[A[0]] - a[idx_in])
            g2 = -beta[A] / w
        g3 = c[A[0]] / a[A[0]]
        gam = np.concatenate([g1, g2, [g3]])
        gam[~(gam > tol)] = np.inf
        t = int(np.argmin(gam))
        mu = gam[t]
        if not np.isfinite(mu):
            break
        beta[A] += mu * w
        knot += 1
        dropped = len(g1) <= t < len(g1) + len(g2)
        c = h - GA @ beta[A]
        if dropped:
            p = t - len(g1)
            jd = A.pop(p)
            buf[:, p:len(A)] = buf[:, p + 1:len(A) + 1].copy()
            beta[jd] = 0.0
            inactive[jd] = True
            events.append((knot, "drop", jd))
        path.append(beta.copy())
        if t == len(gam) - 1:  # least-squares end of the path
            lambdas.append(0.0)
            sets.append(list(A))
            events.append((knot, "end", -1))
            break
        idx_in = np.flatnonzero(inactive)
        if idx_in.size == 0:
            lambdas.append(float(c[A].max()))
            sets.append(list(A))
            break
        jn = int(idx_in[np.argmax(c[idx_in])])
        C = c[jn]
        lambdas.append(float(C))
        if not dropped:
            if C <= tol:
                sets.append(list(A))
                break
            A.append(jn)
            buf[:, len(A) - 1] = columns([jn], c)[:, 0]
            inactive[jn] = False
            events.append((knot, "add", jn))
        sets.append(list(A))
    active = list(A)
    if len(active) > n_nonzero:
        active = active[:n_nonzero]
    return LarsPath(active, beta, np.column_stack(path), np.asarray(lambdas, dtype=float),
                    sets, events)
