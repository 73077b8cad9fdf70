"""The methods seed 004 relates HSIC Lasso to, sharing its kernels (seed 004 §3, §4).

* :class:`MRMR`: minimum redundancy maximum relevance, greedy (Peng et al. 2005),
  with mutual information, normalized HSIC or the F-statistic and correlation
  (FCQ) as the dependence.
* :class:`CKTA`: centered kernel-target alignment, a non-negative least squares
  on the HSIC Gram (Cortes et al. 2012; seed §3.1).
* :class:`QPFS`: quadratic programming feature selection with the sum-to-one
  constraint (Rodriguez-Lujan et al. 2010; seed §3.5), solved with SciPy.
* :class:`FHSIC`: forward selection maximizing the HSIC of the selected set with
  the output (Song et al. 2012; seed §3.3, eq. (7)).
* :class:`GroupHSICLasso`: HSIC Lasso with a group penalty (seed §2.7).
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from .._base import BaseSelector
from .._resources import Cost, check_memory
from .._validation import N_FEATURES_CONSTRAINT
from ._design import KernelDesign
from ._kernels import GaussianKernel, center_gram, resolve_kernel
from ._lasso import (
    _MAX_SAMPLES_DOC,
    _SHARED_CONSTRAINTS,
    _build_design,
    _capped_n,
    _expand,
    _k_for,
    _kernel_cost,
    _order_ranking,
    _plan,
    _SingleBlas,
    _subsample,
)

__all__ = ["MRMR", "CKTA", "QPFS", "FHSIC", "GroupHSICLasso", "discrete_mutual_info"]

_KERNEL_DOC = """kernel_x, kernel_y, block_size, n_permutations, permutations, dtype, chunk_size :
        The kernel and blocking of :class:`featsieve.kernel.HSICLasso` (same
        meaning and defaults).
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
    n_jobs : int or None, default=None"""


class _KernelParams(_SingleBlas):
    """Shared constructor storage of the kernel x blocking parameters."""

    def _store_kernel_params(self, kw):
        for k, v in kw.items():
            setattr(self, k, v)


# ------------------------------------------------------------ discrete MI
def _discretize(X, n_bins: int) -> np.ndarray:
    """Codes 0..n_bins-1 per column: 3 bins cut at mean -/+ one standard deviation
    (Peng et al. 2005, the discretization of the mRMR program the seed used);
    other counts: equal-frequency bins."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim == 1:
        X = X[:, None]
    if n_bins == 3:
        mu, sd = X.mean(axis=0), X.std(axis=0)
        return ((X > mu - sd).astype(np.int64) + (X > mu + sd)).astype(np.int64)
    qs = np.quantile(X, np.linspace(0, 1, n_bins + 1)[1:-1], axis=0)  # (n_bins-1, d)
    return (X[None, :, :] > qs[:, None, :]).sum(axis=0).astype(np.int64)


def discrete_mutual_info(Q, t) -> np.ndarray:
    """Plug-in mutual information (nats) of each code column of ``Q`` with codes ``t``.

    Parameters
    ----------
    Q : ndarray of int, shape (n, d)
        Codes 0..a-1.
    t : ndarray of int, shape (n,)
        Codes 0..b-1.

    Returns
    -------
    mi : ndarray of shape (d,)
    """
    Q = np.asarray(Q, dtype=np.int64)
    t = np.asarray(t, dtype=np.int64)
    n, d = Q.shape
    a, b = int(Q.max()) + 1, int(t.max()) + 1
    idx = (Q * b + t[:, None]) + (np.arange(d) * a * b)[None, :]
    joint = np.bincount(idx.ravel(), minlength=d * a * b).reshape(d, a, b) / n
    pa = joint.sum(axis=2, keepdims=True)
    pb = joint.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(joint > 0, joint * np.log(joint / (pa * pb)), 0.0)
    return np.maximum(terms.sum(axis=(1, 2)), 0.0)


# ------------------------------------------------------------------ mRMR
class MRMR(_KernelParams, BaseSelector):
    __doc__ = f"""Minimum redundancy maximum relevance, greedy forward (Peng et al. 2005; seed 004 §3.2).

    Step ``t`` adds the feature maximizing ``D(u_j, y) - mean_{{s in S}} D(u_j,
    u_s)`` (seed eq. (6), the "MID" form), starting from the most relevant;
    with ``dependence="f"`` the quotient ``F(u_j, y) / mean_{{s in S}} |r(u_j,
    u_s)|`` (the "FCQ" form for continuous variables, Ding & Peng 2005).

    Parameters
    ----------
    n_features_to_select : int, float or None, default=None
        None selects 5.
    dependence : {{"mi", "hsic", "f", "auto"}}, default="mi"
        ``"mi"``: plug-in mutual information of discretized variables (3 states
        at mean -/+ one standard deviation, as the mRMR program of Peng et al.
        that the seed used; a regression target is discretized the same way).
        The seed describes a Parzen-window estimate; the discretized one is what
        the cited C++ program computes. ``"hsic"``: normalized HSIC with the
        kernels of :class:`HSICLasso` (Gram columns only of selected features).
        ``"f"``: relevance is scikit-learn's ANOVA F-statistic (``f_classif``;
        ``f_regression`` for a regression target), redundancy the absolute
        Pearson correlation floored at 0.001, combined as a quotient (FCQ, the
        form of ``mrmr-selection``); columns of zero or undefined F (constant)
        are never picked by the greedy steps, and a column separating the
        classes perfectly has an infinite F (as in scikit-learn) and comes first. ``"auto"``: ``"f"`` below
        ``AUTO_MI_MIN_ROWS`` (500) rows, else ``"mi"`` -- the seed itself
        warns (§3.2) that the mutual information estimate "is unreliable when
        the number of training samples is small"; the choice is stated in
        ``strategy_``. ``featsieve``'s method table uses ``"auto"``.
    n_bins : int, default=3
        States per variable for ``"mi"`` (3: the mean -/+ sd cut; others:
        equal-frequency bins).
    {_KERNEL_DOC}
    {_MAX_SAMPLES_DOC}

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
    ranking_ : ndarray of int, shape (n_features_in_,)
        Selection order (1 = first), then the rest by relevance.
    scores_ : ndarray of shape (n_features_in_,)
        Relevance ``D(u_j, y)``.
    history_ : list of dict
        ``step``, ``feature``, ``relevance``, ``redundancy``, ``criterion``.
    n_samples_used_ : int
        Rows the dependences were computed on.
    dependence_ : str
        The dependence used (``"auto"`` resolved).
    strategy_ : str
        The row subsample, the dependence ``"auto"`` chose and, for
        ``"hsic"``, the block form, when chosen by shape.

    References
    ----------
    Seed 004 (``004_aacbb39825c2197a.txt``) §3.2 eq. (6); Peng, Long and Ding,
    IEEE TPAMI 27(8), 2005; Ding and Peng, J. Bioinform. Comput. Biol. 3(2),
    2005 (the FCQ form).
    """

    #: below this many rows ``dependence="auto"`` uses ``"f"``
    AUTO_MI_MIN_ROWS = 500

    _parameter_constraints = {
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "dependence": [StrOptions({"mi", "hsic", "f", "auto"})],
        "n_bins": [Interval(numbers.Integral, 2, None, closed="left")],
        **_SHARED_CONSTRAINTS,
        "max_samples": [Interval(numbers.Integral, 1, None, closed="left"),
                        StrOptions({"auto"}), None],
    }

    def __init__(self, n_features_to_select=None, *, dependence="mi", n_bins=3,
                 kernel_x="gaussian", kernel_y="auto", block_size="auto", n_permutations=3,
                 permutations=None, dtype="float32", chunk_size=None, task="auto",
                 random_state=None, n_jobs=None, max_samples="auto"):
        self.n_features_to_select = n_features_to_select
        self.max_samples = max_samples
        self.dependence = dependence
        self.n_bins = n_bins
        self._store_kernel_params(dict(
            kernel_x=kernel_x, kernel_y=kernel_y, block_size=block_size,
            n_permutations=n_permutations, permutations=permutations, dtype=dtype,
            chunk_size=chunk_size, task=task, random_state=random_state, n_jobs=n_jobs))

    def estimate_cost(self, n_samples: int, n_features: int) -> Cost:
        """Memory and work of a fit on ``n_samples x n_features`` (before any allocation).

        ``"mi"``: the codes (``n d`` int64) and one joint count per step (``O(n d)``
        each, ``k`` steps); ``"hsic"``: the kernel design with one Gram column
        per step (:func:`featsieve.kernel.design_memory`); ``"f"``: the
        standardized table (``n d`` float64) and one product per step.
        """
        n, d = _capped_n(self, n_samples), n_features
        k = _k_for(self, d)
        dep = self._resolve_dependence(n)
        if dep == "hsic":
            return _kernel_cost(self, n, d, k, prefetch=0, passes=1 + k)
        if dep == "f":
            return Cost(memory_bytes=2 * 8 * n * d, flops=2.0 * k * n * d + 10.0 * n * d)
        return Cost(memory_bytes=4 * 8 * n * d, flops=30.0 * k * n * d)

    def _resolve_dependence(self, n_rows: int) -> str:
        if self.dependence != "auto":
            return self.dependence
        return "f" if n_rows < self.AUTO_MI_MIN_ROWS else "mi"

    def _fit(self, X, y):
        d = X.shape[1]
        k = self._n_to_select(d, default=min(5, d))
        X, y, _ = _subsample(self, X, y)
        dep = self.dependence_ = self._resolve_dependence(X.shape[0])
        auto = ("" if self.dependence != "auto" else
                f"dependence {dep!r} ({X.shape[0]} rows "
                f"{'<' if dep == 'f' else '>='} {self.AUTO_MI_MIN_ROWS})")
        self.strategy_ = "; ".join(t for t in (self._row_strategy, auto) if t)
        quotient = dep == "f"
        if dep == "f":
            rel, redundancy = self._f_dependence(X, y)
        elif dep == "mi":
            check_memory("MRMR", self.estimate_cost(*X.shape).memory_bytes,
                         what=f"the discretized {X.shape[0]} x {d} table and its joint counts",
                         alternatives="select from fewer columns (e.g. a univariate filter "
                                      "first)")
            Q = _discretize(X, self.n_bins)
            t = y.astype(np.int64) if self.task_ == "classification" else \
                _discretize(y, self.n_bins)[:, 0]
            rel = discrete_mutual_info(Q, t)

            def redundancy(s):
                return discrete_mutual_info(Q, Q[:, s])
        else:
            design = _build_design(self, X, y, prefetch=0, cached_columns=k)
            rel = design.h

            def redundancy(s):
                return design.columns([s])[:, 0]
        names = self._fit_feature_names
        first = np.where(np.isnan(rel), -np.inf, rel)
        chosen = [int(np.lexsort((np.arange(d), -first))[0])]
        red_sum = redundancy(chosen[0]).astype(float)
        history = [{"step": 1, "feature": names[chosen[0]], "relevance": float(rel[chosen[0]]),
                    "redundancy": 0.0, "criterion": float(rel[chosen[0]])}]
        free = np.ones(d, bool)
        free[chosen[0]] = False
        while len(chosen) < k:
            if quotient:  # FCQ: relevance over the mean (floored) correlation
                with np.errstate(divide="ignore", invalid="ignore"):
                    crit = rel / (red_sum / len(chosen))
                crit[~(rel > 0)] = -np.inf  # zero or undefined F: never a greedy pick
            else:
                crit = rel - red_sum / len(chosen)
            crit[~free] = -np.inf
            if not (crit > -np.inf).any():
                break
            j = int(np.argmax(crit))
            history.append({"step": len(chosen) + 1, "feature": names[j],
                            "relevance": float(rel[j]),
                            "redundancy": float(red_sum[j] / len(chosen)),
                            "criterion": float(crit[j])})
            chosen.append(j)
            free[j] = False
            if len(chosen) < k:
                red_sum += redundancy(j)
        support = ~free
        rel = np.where(np.isnan(rel), 0.0, rel)  # F of a constant column: 0
        self.support_, self.scores_ = support, np.asarray(rel, dtype=float)
        self.ranking_ = _order_ranking(chosen, self.scores_)
        self.history_ = history
        self.n_model_fits_ = 0
        return self

    def _f_dependence(self, X, y):
        """FCQ's relevance (F-statistic) and redundancy (|Pearson r|, floored at 0.001)."""
        from sklearn.feature_selection import f_classif, f_regression

        X = np.asarray(X, dtype=np.float64)
        check_memory("MRMR", self.estimate_cost(*X.shape).memory_bytes,
                     what=f"the standardized {X.shape[0]} x {X.shape[1]} table",
                     alternatives="select from fewer columns (e.g. a univariate filter first)")
        with np.errstate(divide="ignore", invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # constant columns: F is nan
            warnings.simplefilter("ignore", UserWarning)
            if self.task_ == "classification":
                rel = f_classif(X, y)[0]
            else:
                rel = f_regression(X, y)[0]
        Z = X - X.mean(axis=0)
        norm = np.sqrt((Z * Z).sum(axis=0))
        Z /= np.where(norm > 0, norm, 1.0)

        def redundancy(s):
            return np.clip(np.abs(Z.T @ Z[:, s]), 0.001, None)

        return rel, redundancy


# ------------------------------------------------------------ cKTA / QPFS
class _GramBaseline(_KernelParams, BaseSelector):
    _parameter_constraints = {
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "ridge": [Interval(numbers.Real, 0, None, closed="left")],
        **_SHARED_CONSTRAINTS,
    }

    #: the d x d solver's working copies of D (beyond D itself)
    _solver_copies = 1

    def estimate_cost(self, n_samples: int, n_features: int) -> Cost:
        """Memory and work of a fit on ``n_samples x n_features`` (before any allocation).

        The whole ``d x d`` Gram matrix (``3 d^2`` float64 while it is
        assembled, plus the solver's copies) on top of the kernel design; its
        ``d`` Gram columns are computed in passes of 256 MB of kernels; the
        solver is ``O(d^3)``.
        """
        n, d = n_samples, n_features
        plan = _plan(self, n, d, check=False)
        P = plan.n_groups * plan.block**2
        per_pass = min(d, max(1, (256 << 20) // max(P * 8, 1)))
        passes = 1 + int(np.ceil(d / per_pass))
        gram = (3 + self._solver_copies) * 8.0 * d * d
        return Cost(memory_bytes=plan.memory + gram + per_pass * P * 16,
                    kernel_entries=float(passes) * d * P, flops=self._solver_flops(d),
                    strategy=plan.strategy)

    def _solver_flops(self, d):
        return float(d) ** 3

    def _gram(self, X, y):
        n, d = X.shape
        name = type(self).__name__
        check_memory(name, self.estimate_cost(n, d).memory_bytes,
                     what=f"the {d} x {d} Gram matrix of the features",
                     alternatives="use hsic-lasso (HSICLasso computes Gram columns of the "
                                  "active features only) or mrmr, or reduce the columns first "
                                  "(e.g. a univariate filter)")
        design = _build_design(self, X, y, prefetch=0)
        D = design.full_gram()
        D = D + self.ridge * np.eye(D.shape[0])
        self.n_passes_ = design.n_passes
        return D, design.h

    def _finish(self, theta, h, k):
        d = len(theta)
        order = np.lexsort((np.arange(d), -h, -theta))
        pos = [j for j in order if theta[j] > 0][:k]
        support = np.zeros(d, bool)
        support[pos] = True
        self.support_ = support
        self.coef_ = _expand(self, theta)
        self.scores_ = np.asarray(theta, dtype=float)
        self.ranking_ = _order_ranking([int(j) for j in order if theta[j] > 0], h)
        self.n_model_fits_ = 0
        self._warn_fewer(len(pos), k)
        return self


class CKTA(_GramBaseline):
    __doc__ = f"""Centered kernel-target alignment for feature selection (seed 004 §3.1).

    ``min_{{alpha >= 0}} alpha^T D alpha - 2 alpha^T h`` with ``D_kl`` the
    normalized HSIC between features and ``h_k`` that with the output (the
    two-stage MKL of Cortes et al. 2012 applied to feature-wise kernels): a
    non-negative least-squares problem, solved by SciPy's ``nnls`` on the
    Cholesky factor of ``D + ridge I``. The seed's ``gamma = 0.5`` only scales the
    solution and does not change the ranking. The ``n_features_to_select``
    largest coefficients are selected.

    Parameters
    ----------
    n_features_to_select : int, float or None, default=None
        None selects 5.
    ridge : float, default=1e-6
        Added to the diagonal of ``D`` (the seed's "small constant" making it
        positive definite).
    {_KERNEL_DOC}

    Attributes
    ----------
    coef_, scores_ : ndarray of shape (n_features_in_,)
        The NNLS coefficients.
    ranking_ : ndarray of int, shape (n_features_in_,)
    support_ : ndarray of bool, shape (n_features_in_,)

    Notes
    -----
    Needs the whole ``d x d`` Gram matrix (``d`` Gram columns): for small ``d``.
    Its memory is estimated before any work (:meth:`estimate_cost`); above the
    budget (2 GiB, or ``FEATSIEVE_MEMORY_GB``; about d = 8,000) ``fit`` raises
    ``ResourceError`` with the gigabytes and the alternatives.

    References
    ----------
    Seed 004 §3.1; Cortes, Mohri and Rostamizadeh, JMLR 13, 2012.
    """

    def __init__(self, n_features_to_select=None, *, ridge=1e-6, kernel_x="gaussian",
                 kernel_y="auto", block_size="auto", n_permutations=3, permutations=None,
                 dtype="float32", chunk_size=None, task="auto", random_state=None, n_jobs=None):
        self.n_features_to_select = n_features_to_select
        self.ridge = ridge
        self._store_kernel_params(dict(
            kernel_x=kernel_x, kernel_y=kernel_y, block_size=block_size,
            n_permutations=n_permutations, permutations=permutations, dtype=dtype,
            chunk_size=chunk_size, task=task, random_state=random_state, n_jobs=n_jobs))

    def _fit(self, X, y):
        from scipy.linalg import cholesky, solve_triangular
        from scipy.optimize import nnls

        d = X.shape[1]
        k = self._n_to_select(d, default=min(5, d))
        D, h = self._gram(X, y)
        R = cholesky(D + 1e-12 * np.trace(D) * np.eye(d), lower=False)
        b = solve_triangular(R, h, trans="T", lower=False)
        theta = nnls(R, b, maxiter=50 * d)[0]
        return self._finish(theta, h, k)


class QPFS(_GramBaseline):
    __doc__ = f"""Quadratic programming feature selection (Rodriguez-Lujan et al. 2010; seed 004 §3.5).

    ``min_theta 1/2 (1 - gamma) theta^T D theta - gamma h^T theta`` subject to
    ``theta >= 0`` and ``sum(theta) = 1``, with ``D`` the normalized HSIC between
    features and ``h`` that with the output (the kernels shared with HSIC
    Lasso; the original uses mutual information), ``gamma = 0.5`` as in the
    seed's experiments. Solved by SciPy's SLSQP with the exact gradient; the
    ``n_features_to_select`` largest weights are selected.

    Parameters
    ----------
    n_features_to_select : int, float or None, default=None
        None selects 5.
    gamma : float, default=0.5
    ridge : float, default=1e-6
        Added to the diagonal of ``D``.
    max_iter : int, default=500
    {_KERNEL_DOC}

    Attributes
    ----------
    coef_, scores_ : ndarray of shape (n_features_in_,)
        The weights ``theta`` (sum to 1).
    ranking_, support_ : ndarray of shape (n_features_in_,)
    converged_ : bool
    n_iter_ : int
        SLSQP iterations.

    Notes
    -----
    Needs the whole ``d x d`` Gram matrix, and SLSQP costs ``O(d^3)`` per
    iteration: for ``d`` up to about a thousand. The memory (the Gram matrix
    and SLSQP's dense work arrays) is estimated before any work; above the
    budget (about d = 6,000 at 2 GiB) ``fit`` raises ``ResourceError`` with
    the gigabytes and the alternatives.

    References
    ----------
    Seed 004 §3.5 and §4 (``gamma = 0.5``); Rodriguez-Lujan et al., JMLR 11, 2010.
    """

    _parameter_constraints = {
        **_GramBaseline._parameter_constraints,
        "gamma": [Interval(numbers.Real, 0, 1, closed="both")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
    }

    def __init__(self, n_features_to_select=None, *, gamma=0.5, ridge=1e-6, max_iter=500,
                 kernel_x="gaussian", kernel_y="auto", block_size="auto", n_permutations=3,
                 permutations=None, dtype="float32", chunk_size=None, task="auto",
                 random_state=None, n_jobs=None):
        self.n_features_to_select = n_features_to_select
        self.gamma = gamma
        self.ridge = ridge
        self.max_iter = max_iter
        self._store_kernel_params(dict(
            kernel_x=kernel_x, kernel_y=kernel_y, block_size=block_size,
            n_permutations=n_permutations, permutations=permutations, dtype=dtype,
            chunk_size=chunk_size, task=task, random_state=random_state, n_jobs=n_jobs))

    _solver_copies = 2  # SLSQP's dense (d + 1)^2 work arrays

    def _solver_flops(self, d):
        return float(self.max_iter) * float(d) ** 3

    def _fit(self, X, y):
        import warnings

        from scipy.optimize import minimize

        d = X.shape[1]
        k = self._n_to_select(d, default=min(5, d))
        D, h = self._gram(X, y)
        g = self.gamma
        res = minimize(
            lambda t: 0.5 * (1 - g) * t @ D @ t - g * h @ t,
            np.full(d, 1.0 / d),
            jac=lambda t: (1 - g) * D @ t - g * h,
            method="SLSQP", bounds=[(0.0, None)] * d,
            constraints=[{"type": "eq", "fun": lambda t: t.sum() - 1.0,
                          "jac": lambda t: np.ones_like(t)}],
            options={"maxiter": self.max_iter, "ftol": 1e-12},
        )
        self.converged_ = bool(res.success)
        self.n_iter_ = max(1, int(getattr(res, "nit", 1)))
        if not res.success:
            from .._warnings import ConvergenceWarning

            warnings.warn(f"QPFS: SLSQP did not converge ({res.message}).", ConvergenceWarning,
                          stacklevel=2)
        theta = np.clip(res.x, 0.0, None)
        theta[theta < 1e-10] = 0.0
        return self._finish(theta, h, k)


# ------------------------------------------------------------------ FHSIC
class FHSIC(_KernelParams, BaseSelector):
    __doc__ = """Forward selection by HSIC of the selected set (Song et al. 2012; seed 004 §3.3).

    Step ``t`` adds the feature ``j`` maximizing ``tr(M_bar_{S+j} L_bar)``
    (seed eq. (7)), ``M`` the Gaussian kernel on the standardized selected
    features jointly. The joint Gaussian kernel is the element-wise product of
    per-feature ones, so a step is one pass over the features against the
    fixed matrix ``M_S o L_bar`` (never the ``n^2 x d`` design).

    Parameters
    ----------
    n_features_to_select : int, float or None, default=None
        None selects 5.
    width : {"fixed", "sqrt-size"}, default="fixed"
        ``"fixed"``: width ``sigma`` for every set, so the joint kernel is the
        product of the per-feature kernels of HSIC Lasso (``sigma_x = 1``).
        ``"sqrt-size"``: width ``sigma sqrt(|S|)`` (the squared distance of
        standardized data grows with ``|S|``). Song et al. use the median
        heuristic; the seed does not say. On Data1 (n = 200, 4 seeds) "fixed"
        found all four features every time, "sqrt-size" in 2 of 4.
    sigma : float, default=1.0
    kernel_y, block_size, n_permutations, permutations, dtype, chunk_size :
        As in :class:`HSICLasso` (the feature kernel is Gaussian).
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
    n_jobs : int or None, default=None

    Attributes
    ----------
    support_, ranking_ : ndarray of shape (n_features_in_,)
        ``ranking_``: selection order, then the rest by first-step HSIC.
    scores_ : ndarray of shape (n_features_in_,)
        HSIC of each feature alone with ``y`` (the first step).
    history_ : list of dict
        ``step``, ``feature``, ``hsic`` (of the set after the step).

    References
    ----------
    Seed 004 §3.3 eq. (7); Song, Smola, Gretton, Bedo and Borgwardt, JMLR 13, 2012.
    """

    _parameter_constraints = {
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        "width": [StrOptions({"sqrt-size", "fixed"})],
        "sigma": [Interval(numbers.Real, 0, None, closed="neither")],
        **{k: v for k, v in _SHARED_CONSTRAINTS.items() if k != "kernel_x"},
    }

    def __init__(self, n_features_to_select=None, *, width="fixed", sigma=1.0,
                 kernel_y="auto", block_size="auto", n_permutations=3, permutations=None,
                 dtype="float32", chunk_size=None, task="auto", random_state=None, n_jobs=None):
        self.n_features_to_select = n_features_to_select
        self.width = width
        self.sigma = sigma
        self._store_kernel_params(dict(
            kernel_y=kernel_y, block_size=block_size, n_permutations=n_permutations,
            permutations=permutations, dtype=dtype, chunk_size=chunk_size, task=task,
            random_state=random_state, n_jobs=n_jobs))

    def estimate_cost(self, n_samples: int, n_features: int) -> Cost:
        """Memory and work of a fit on ``n_samples x n_features``: one pass over the
        features per step (``k`` steps), the selected set's distances and targets
        (``G B^2`` each) besides the kernel design."""
        k = _k_for(self, n_features)
        return _kernel_cost(self, n_samples, n_features, k, prefetch=0, passes=k)

    def _fit(self, X, y):
        import warnings

        from sklearn.utils import check_random_state

        from .._resources import ScalableFormWarning
        from ._design import make_blocks

        d = X.shape[1]
        k = self._n_to_select(d, default=min(5, d))
        ky = resolve_kernel(self.kernel_y, task=self.task_, name="kernel_y")
        plan = _plan(self, *X.shape)
        if plan.strategy:
            warnings.warn(f"FHSIC: {plan.strategy}.", ScalableFormWarning, stacklevel=3)
        self.strategy_ = plan.strategy
        blocks, perms = make_blocks(X.shape[0], plan.block_size, self.n_permutations,
                                    self.permutations, check_random_state(self.random_state))
        zy = ky.standardize(y.reshape(-1, 1))[0][blocks]
        Lc = center_gram(ky.gram(zy))  # (G, B, B)
        Z = GaussianKernel().standardize(X)  # (d, n)
        G, B = blocks.shape
        sq = np.zeros((G, B, B))  # summed squared distances of the selected features
        names = self._fit_feature_names
        chosen, history, first = [], [], None
        free = np.ones(d, bool)
        for step in range(1, k + 1):
            s2 = self.sigma**2 * (step if self.width == "sqrt-size" else 1)
            V = (np.exp(-sq / (2 * s2)) * Lc).reshape(1, G, B * B)
            design = KernelDesign(X, None, kernel_x=GaussianKernel(np.sqrt(s2)),
                                  kernel_y=None, blocks=blocks, dtype=np.dtype(self.dtype),
                                  chunk_size=self.chunk_size, n_jobs=self.n_jobs)
            vals = design.scan(V)[:, :, 0].mean(axis=1)
            if first is None:
                first = vals.copy()
            vals[~free] = -np.inf
            j = int(np.argmax(vals))
            chosen.append(j)
            free[j] = False
            history.append({"step": step, "feature": names[j], "hsic": float(vals[j])})
            zj = Z[j][blocks]
            sq += (zj[:, :, None] - zj[:, None, :]) ** 2
        support = ~free
        self.support_, self.scores_ = support, first
        self.ranking_ = _order_ranking(chosen, first)
        self.history_, self.permutations_ = history, perms
        self.n_model_fits_ = 0
        return self


# ------------------------------------------------------------- group HSIC
def _prox_group(u, groups, thr):
    """Prox of ``thr * sum_g ||a_g||_2`` plus ``a >= 0``: clip, then shrink each group."""
    v = np.maximum(u, 0.0)
    for g in groups:
        nv = np.linalg.norm(v[g])
        v[g] = 0.0 if nv <= thr else v[g] * (1.0 - thr / nv)
    return v


class GroupHSICLasso(_KernelParams, BaseSelector):
    __doc__ = f"""HSIC Lasso with a non-negative group-Lasso penalty (seed 004 §2.7).

    ``min_{{alpha >= 0}} 1/2 ||L_bar - sum_k alpha_k K_bar^(k)||_F^2 + lambda
    sum_g ||alpha_g||_2`` (normalized kernels as in :class:`HSICLasso`), solved
    on the Gram form by accelerated proximal gradient (FISTA with backtracking;
    the prox clips to ``alpha >= 0`` and then shrinks each group, which is exact
    for this penalty) over a decreasing grid of ``lambda`` from ``lambda_max =
    max_g ||(h_g)_+||``, warm-started, until ``n_groups_to_select`` groups are
    non-zero. The seed suggests the DAL solver; the proximal method is simpler
    and only needs Gram columns of features with a non-zero coefficient.

    Parameters
    ----------
    groups : array-like of shape (n_features,) or None, default=None
        Group label of each input column; None puts every column in its own
        group (then the solution follows the plain HSIC Lasso path).
    n_groups_to_select : int, default=2
        When more groups become non-zero at once, the largest ``||alpha_g||``
        are kept.
    n_lambdas : int, default=60
        Grid points between ``lambda_max`` and ``1e-3 lambda_max`` (geometric).
    max_iter : int, default=2000
        FISTA iterations per ``lambda``.
    tol : float, default=1e-7
        Stop when the relative change of ``alpha`` is below it.
    {_KERNEL_DOC}

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
        Every column of the selected groups.
    coef_, scores_ : ndarray of shape (n_features_in_,)
    group_scores_ : dict
        Group label -> ``||alpha_g||_2`` at the chosen ``lambda``.
    selected_groups_ : list
        Labels of the selected groups, largest norm first.
    lambda_ : float
    n_iter_ : int
        FISTA iterations in total.

    References
    ----------
    Seed 004 §2.7; Yuan and Lin (2006), Beck and Teboulle (2009, FISTA).
    """

    _parameter_constraints = {
        "groups": ["array-like", None],
        "n_groups_to_select": [Interval(numbers.Integral, 1, None, closed="left")],
        "n_lambdas": [Interval(numbers.Integral, 2, None, closed="left")],
        "max_iter": [Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="neither")],
        **_SHARED_CONSTRAINTS,
    }

    def __init__(self, groups=None, *, n_groups_to_select=2, n_lambdas=60, max_iter=2000,
                 tol=1e-7, kernel_x="gaussian", kernel_y="auto", block_size="auto",
                 n_permutations=3, permutations=None, dtype="float32", chunk_size=None,
                 task="auto", random_state=None, n_jobs=None):
        self.groups = groups
        self.n_groups_to_select = n_groups_to_select
        self.n_lambdas = n_lambdas
        self.max_iter = max_iter
        self.tol = tol
        self._store_kernel_params(dict(
            kernel_x=kernel_x, kernel_y=kernel_y, block_size=block_size,
            n_permutations=n_permutations, permutations=permutations, dtype=dtype,
            chunk_size=chunk_size, task=task, random_state=random_state, n_jobs=n_jobs))

    def estimate_cost(self, n_samples: int, n_features: int) -> Cost:
        """Memory and kernel work of a fit (as :class:`HSICLasso`, Gram columns of
        the features that become non-zero; about ``5`` per selected group)."""
        k = min(n_features, 5 * self.n_groups_to_select)
        return _kernel_cost(self, n_samples, n_features, k)

    def _fit(self, X, y):
        d = X.shape[1]
        if self.groups is None:
            labels = np.arange(self.n_features_in_)
        else:
            labels = np.asarray(self.groups)
            if labels.shape != (self.n_features_in_,):
                raise ValueError(f"groups has shape {labels.shape}; expected "
                                 f"({self.n_features_in_},), one label per input column.")
        labels = labels[self._fit_index]
        uniq = list(dict.fromkeys(labels.tolist()))
        groups = [np.flatnonzero(labels == u) for u in uniq]
        k = min(self.n_groups_to_select, len(groups))
        design = _build_design(self, X, y, prefetch=16)
        h = design.h

        def grad_f(a):
            nz = np.flatnonzero(a)
            Ga = design.columns(nz, hint=h) @ a[nz] if nz.size else np.zeros(d)
            return Ga - h, 0.5 * a @ Ga - h @ a

        lam_max = max(np.linalg.norm(np.maximum(h[g], 0.0)) for g in groups)
        alpha = np.zeros(d)
        n_iter, lam = 0, lam_max
        norms = np.zeros(len(groups))
        Lc = 1.0
        for lam in lam_max * np.geomspace(1.0, 1e-3, self.n_lambdas)[1:]:
            yk, tk, prev = alpha.copy(), 1.0, alpha.copy()
            for _ in range(self.max_iter):
                n_iter += 1
                g, fy = grad_f(yk)
                while True:
                    new = _prox_group(yk - g / Lc, groups, lam / Lc)
                    diff = new - yk
                    _, fn = grad_f(new)
                    if fn <= fy + g @ diff + 0.5 * Lc * diff @ diff + 1e-12 * abs(fy):
                        break
                    Lc *= 2.0
                t_next = 0.5 * (1 + np.sqrt(1 + 4 * tk * tk))
                yk = new + ((tk - 1) / t_next) * (new - prev)
                tk = t_next
                step = np.linalg.norm(new - prev)
                prev = new
                if step <= self.tol * max(np.linalg.norm(new), 1e-12):
                    break
            alpha = prev
            norms = np.array([np.linalg.norm(alpha[g]) for g in groups])
            if (norms > 0).sum() >= k:
                break
        order = [int(i) for i in np.lexsort((np.arange(len(groups)), -norms)) if norms[i] > 0][:k]
        support = np.zeros(d, bool)
        for i in order:
            support[groups[i]] = True
        amax = alpha.max() if alpha.max() > 0 else 1.0
        self.support_ = support
        self.coef_ = _expand(self, alpha)
        self.scores_ = alpha / amax
        feat_order = [j for i in order for j in groups[i][np.argsort(-alpha[groups[i]])]]
        self.ranking_ = _order_ranking(feat_order, h)
        self.group_scores_ = {uniq[i]: float(norms[i]) for i in range(len(groups))}
        self.selected_groups_ = [uniq[i] for i in order]
        self.lambda_, self.n_iter_ = float(lam), n_iter
        self.n_model_fits_ = 0
        self._warn_fewer(len(order), k)
        return self
