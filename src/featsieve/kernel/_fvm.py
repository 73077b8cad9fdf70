"""The feature vector machine (Li, Yang and Xing 2006; seed 004 §1, eq. (2), §4)."""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from .._base import BaseSelector
from .._resources import Cost, check_memory
from .._validation import N_FEATURES_CONSTRAINT, FewerFeaturesWarning
from ._baselines import _discretize, discrete_mutual_info
from ._lasso import _expand, _order_ranking

__all__ = ["FVM"]


def mutual_info_matrix(Q) -> np.ndarray:
    """``D[k, l] = MI(u_k, u_l)`` (nats) of discretized columns ``Q`` (n, d); the
    diagonal is each column's entropy."""
    d = Q.shape[1]
    D = np.empty((d, d))
    for s in range(d):
        D[:, s] = discrete_mutual_info(Q, Q[:, s])
    return 0.5 * (D + D.T)


class FVM(BaseSelector):
    """Feature vector machine: the Lasso in a feature-wise kernel space, on mutual information.

    Li et al. map every feature vector ``u_k`` (its ``n`` values) and the output
    ``y`` by one non-linear map ``phi`` and solve the Lasso ``min_alpha ||phi(y) -
    sum_k alpha_k phi(u_k)||^2 + lambda ||alpha||_1`` (seed 004 eq. (1)). Through
    the kernel ``D(u, u') = phi(u)^T phi(u')`` it is a problem on the ``d x d``
    matrix ``D`` only; the seed's eq. (2) writes it as the FVM quadratic program
    ``min 1/2 alpha^T D alpha`` subject to ``|d_k^T alpha - D(u_k, y)| <= lambda /
    2``, whose solution is the Lasso's (Li et al., Theorem 1). With the original
    kernel, ``D`` is the mutual information: ``D[k, l] = MI(u_k, u_l)`` and
    ``D(u_k, y) = MI(u_k, y)``.

    We solve the Lasso form, which is equivalent, on its Gram form with
    scikit-learn's LARS-Lasso: ``alpha^T D alpha - 2 alpha^T h + lambda
    ||alpha||_1`` (``h_k = MI(u_k, y)``) is, halved,
    :func:`sklearn.linear_model.lars_path_gram` with ``Gram = D + c I``, ``Xy =
    h``, ``n_samples = 1`` and its ``alpha = lambda / 2``; LARS gives the exact
    regularization path (its knots), so the point with ``k`` features is exact.

    Parameters
    ----------
    n_features_to_select : int, float or None, default=None
        None: the features with a non-zero coefficient at ``lam`` (the seed's
        setting). An int (or a fraction in (0, 1]): the first point of the
        regularization path, from ``lambda_max = 2 max_k MI(u_k, y)`` down,
        with that many non-zero coefficients; if more enter at once the
        largest ``|alpha_k|`` are kept. The seed's Figure 1 scores FVM with
        the number of true features known, which is this setting.
    lam : float, default=1.0
        ``lambda`` of eq. (2) (seed 004 §4: ``lambda = 1``). With mutual
        information in nats of 3-state variables (at most ``ln 3``),
        ``lambda = 1`` exceeds ``lambda_max`` unless a feature shares more
        than 0.5 nat with the output, and then selects nothing (a warning
        says so): the scale of the seed's MI estimator is not given.
    ridge : "auto" or float, default="auto"
        The constant added to the diagonal of ``D`` (seed §4: "we added a
        small constant to the diagonal elements of D so that the objective
        function becomes convex"). ``"auto"``: the smallest making ``D``
        positive definite, ``max(0, -lambda_min(D)) + 1e-6 * mean(diag D)``.
    n_bins : int, default=3
        States per variable for the mutual information: 3 cuts each column
        (and a regression target) at its mean -/+ one standard deviation, the
        discretization of Peng et al.'s mRMR program whose estimator the seed
        used for FVM (§4); other values: equal-frequency bins. Classes are used
        as they are.
    task : {"auto", "classification", "regression"}, default="auto"

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
    coef_ : ndarray of shape (n_features_in_,)
        ``alpha`` at the chosen point.
    scores_ : ndarray of shape (n_features_in_,)
        ``|coef_|``.
    ranking_ : ndarray of int, shape (n_features_in_,)
        Order of entry along the path (ties: larger ``|alpha|``), then the rest
        by ``MI(u_k, y)``.
    mi_ : ndarray of shape (n_features_in_,)
        ``MI(u_k, y)`` in nats.
    ridge_ : float
        The constant added to ``D``'s diagonal.
    lambda_ : float
        ``lambda`` of the chosen point.
    lambdas_ : ndarray of shape (n_knots,)
        ``lambda`` at the knots of the LARS path (down to the chosen point).
    path_ : ndarray of shape (n_features_in_, n_knots)
        Coefficients at the knots.
    n_model_fits_ : int
        Always 0.

    Notes
    -----
    Needs the ``d x d`` mutual-information matrix: ``d`` plug-in estimates over
    ``n x d`` codes, ``O(n d^2)`` time and ``O(d^2)`` memory, then the
    LARS path to the chosen point (``O(d k^2 + d^2 k)`` for ``k`` active
    features; with ``ridge="auto"`` an eigenvalue solve ``O(d^3)`` when ``D``
    is not positive definite): for ``d`` up to a few thousand.

    References
    ----------
    F. Li, Y. Yang, E. P. Xing, "From Lasso regression to feature vector
    machine", NIPS 18 (2006). Seed 004 (``004_aacbb39825c2197a.txt``) §1 eq.
    (1)-(2), §4 (mutual information of the mRMR program, the diagonal constant,
    ``lambda = 1``) and Figure 1.

    Examples
    --------
    >>> from featsieve.datasets import make_hsic_additive
    >>> from featsieve.kernel import FVM
    >>> X, y, support = make_hsic_additive(n_samples=200, n_features=20, random_state=0)
    >>> int(FVM(4).fit(X, y).support_.sum())
    4
    """

    _parameter_constraints = {
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "lam": [Interval(numbers.Real, 0, None, closed="neither")],
        "ridge": [StrOptions({"auto"}), Interval(numbers.Real, 0, None, closed="left")],
        "n_bins": [Interval(numbers.Integral, 2, None, closed="left")],
        "task": [StrOptions({"auto", "classification", "regression"})],
    }

    def __init__(self, n_features_to_select=None, *, lam=1.0, ridge="auto", n_bins=3,
                 task="auto"):
        self.n_features_to_select = n_features_to_select
        self.lam = lam
        self.ridge = ridge
        self.n_bins = n_bins
        self.task = task

    def estimate_cost(self, n_samples: int, n_features: int) -> Cost:
        """The ``d x d`` mutual-information matrix (four float64 copies while it is
        assembled, ``d`` joint counts of ``O(n d)``) and the LARS path on it."""
        n, d = n_samples, n_features
        return Cost(memory_bytes=4 * 8.0 * d * d + 4 * 8 * n * d,
                    flops=30.0 * n * d * d + float(d) ** 3)

    def _fit(self, X, y):
        from sklearn.linear_model import lars_path_gram

        d = X.shape[1]
        check_memory("FVM", self.estimate_cost(*X.shape).memory_bytes,
                     what=f"the {d} x {d} mutual-information matrix",
                     alternatives="use mrmr (one column of that matrix per selected feature) "
                                  "or hsic-lasso, or reduce the columns first")
        Q = _discretize(X, self.n_bins)
        t = (y.astype(np.int64) if self.task_ == "classification"
             else _discretize(y, self.n_bins)[:, 0])
        h = discrete_mutual_info(Q, t)
        D = mutual_info_matrix(Q)
        c = self._ridge(D)
        G = D + c * np.eye(d)
        lam_max = 2.0 * float(np.max(np.abs(h)))
        # 1/2 a^T G a - a^T h + (lambda/2) ||a||_1: LARS-Lasso with n_samples=1, alpha=lambda/2
        if self.n_features_to_select is None:
            k = None
            alphas, _, coefs = lars_path_gram(h, G, n_samples=1, alpha_min=self.lam / 2,
                                              max_iter=4 * d + 10, method="lasso")
            lam = float(self.lam)
        else:
            k = self._n_to_select(d)
            it = k
            while True:
                alphas, _, coefs = lars_path_gram(h, G, n_samples=1, max_iter=it,
                                                  method="lasso")
                nnz = int((coefs[:, -1] != 0).sum())
                if nnz >= k or len(alphas) < it + 1 or it > 4 * d + 10:
                    break
                it += k - nnz
            lam = 2.0 * float(alphas[-1])
        coef = coefs[:, -1]
        lambdas = 2.0 * np.asarray(alphas)
        order = np.lexsort((np.arange(d), -np.abs(coef)))
        sel = [int(j) for j in order if coef[j] != 0]
        if k is not None:
            sel = sel[:k]
        support = np.zeros(d, bool)
        support[sel] = True
        nz = coefs != 0
        first = np.where(nz.any(axis=1), nz.argmax(axis=1), len(lambdas))  # knot of entry
        at_entry = np.abs(coefs[np.arange(d), np.minimum(first, len(lambdas) - 1)])
        in_path = [int(j) for j in np.lexsort((np.arange(d), -at_entry, first))
                   if first[j] < len(lambdas)]
        self.support_ = support
        self.coef_ = _expand(self, coef)
        self.scores_ = np.abs(coef)
        self.ranking_ = _order_ranking(in_path, h)
        self.mi_ = _expand(self, h)
        self.ridge_ = c
        self.lambda_ = lam
        self.lambdas_ = lambdas
        self.path_ = _expand(self, coefs)
        self.n_model_fits_ = 0
        if k is not None:
            self._warn_fewer(len(sel), k)
        elif not sel:
            warnings.warn(
                f"FVM: lambda = lam = {self.lam:g} is at or above lambda_max = {lam_max:.4g} "
                "(twice the largest mutual information with y, in nats), so every coefficient "
                "is zero. Give n_features_to_select to pick a point of the path, or a smaller "
                "lam.", FewerFeaturesWarning, stacklevel=3)
        return self

    def _ridge(self, D) -> float:
        if self.ridge != "auto":
            return float(self.ridge)
        tiny = 1e-6 * max(float(np.mean(np.diag(D))), 1e-12)
        try:
            np.linalg.cholesky(D)
            return tiny
        except np.linalg.LinAlgError:
            return max(0.0, -float(np.linalg.eigvalsh(D)[0])) + tiny
