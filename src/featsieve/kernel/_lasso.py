"""HSIC Lasso, NOCCO Lasso and group HSIC Lasso (seed 004), composed of kernel x blocking x solver."""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._base import BaseSelector
from .._resources import (
    ROWS_SCORES,
    Cost,
    ResourceError,
    ScalableFormWarning,
    capped_rows,
    format_bytes,
    memory_budget,
    row_cap,
)
from .._validation import N_FEATURES_CONSTRAINT
from ._design import (
    PREFETCH_GROWTH_CAP,
    KernelDesign,
    column_passes,
    covariate_gram,
    design_memory,
    make_blocks,
)
from ._kernels import CategoricalColumns, GaussianKernel, resolve_kernel
from ._lars import nonnegative_lars

__all__ = ["HSICLasso", "NOCCOLasso", "hsic_scores"]

_KERNEL_NAMES = {"gaussian", "gaussian-lookup", "delta"}
_KERNEL_PARAM = [StrOptions(_KERNEL_NAMES), HasMethods(["standardize", "cross"])]

_SHARED_CONSTRAINTS = {
    "kernel_x": _KERNEL_PARAM,
    "kernel_y": [StrOptions(_KERNEL_NAMES | {"auto"}), HasMethods(["standardize", "cross"])],
    "block_size": [Interval(numbers.Integral, 0, None, closed="left"), StrOptions({"auto"})],
    "n_permutations": [Interval(numbers.Integral, 1, None, closed="left")],
    "permutations": ["array-like", None],
    "dtype": [StrOptions({"float32", "float64"})],
    "chunk_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
    "task": [StrOptions({"auto", "classification", "regression"})],
    "random_state": ["random_state"],
    "n_jobs": [numbers.Integral, None],
}


class _SingleBlas:
    """Run ``fit`` with single-threaded BLAS: the parallelism is ``n_jobs`` (threads over
    chunks of features); nested BLAS threads only oversubscribe the cores (on a busy
    2-core machine they made small problems 10-50x slower)."""

    def fit(self, X, y, **fit_params):
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1, user_api="blas"):
            return super().fit(X, y, **fit_params)


#: rows per block when ``block_size="auto"`` leaves HSIC's plain form (pyHSICLasso's B)
AUTO_BLOCK_HSIC = 20
#: NOCCO's plain form runs up to this many rows (one n x n solve per feature and pass)
NOCCO_MAX_PLAIN = 1000
#: rows per block when ``block_size="auto"`` leaves NOCCO's plain form
AUTO_BLOCK_NOCCO = 250


@dataclass(frozen=True)
class _Plan:
    """The blocking and pass size a kernel fit will use (decided from the shape)."""

    block_size: int
    n_groups: int
    block: int
    max_batch: int
    memory: int
    plain_memory: int
    strategy: str


def _n_perms(est, n_blocks):
    if n_blocks <= 1:
        return 1
    if est.permutations is not None:
        return int(np.atleast_2d(np.asarray(est.permutations)).shape[0])
    return int(est.n_permutations)


def _plan(est, n, d, *, measure="hsic", cached_columns=0, check=True, prefetch=0):
    """Choose the blocking by shape and check the memory, before any allocation.

    ``block_size="auto"``: the plain form (one block of all rows) while its
    estimated memory (:func:`featsieve.kernel.design_memory`, one Gram column
    per pass) fits the budget (:func:`featsieve._resources.memory_budget`; at
    the default 2 GiB and float32 that is up to about n = 8,000 rows) and, for
    NOCCO, ``n <= NOCCO_MAX_PLAIN`` (1,000); above, block HSIC with ``B =
    AUTO_BLOCK_HSIC`` (20, M = ``n_permutations``) or block NOCCO with ``B =
    AUTO_BLOCK_NOCCO`` (250). An explicit ``block_size`` is kept; when its
    memory is over the budget, :class:`~featsieve._resources.ResourceError`.
    The pass size (Gram columns per pass, at most ``1 + max(prefetch, 64)``:
    the prefetch doubles with every pass) is capped at the
    largest that fits the budget, at least 1: the selection does not depend
    on it. ``memory`` is the estimate at the pass size used.
    """
    itemsize = np.dtype(getattr(est, "dtype", "float32")).itemsize
    chunk = getattr(est, "chunk_size", None)
    budget = memory_budget()

    def cost(B, batch=1):
        B = n if B == 0 else min(B, n)
        G = (n // B) * _n_perms(est, n // B)
        return G, B, design_memory(n, d, G, B, measure=measure, itemsize=itemsize,
                                   batch=batch, chunk_size=chunk,
                                   cached_columns=cached_columns)

    plain = cost(0)[2]
    strategy = ""
    if est.block_size == "auto":
        B = 0
        over = plain > budget or (measure == "nocco" and n > NOCCO_MAX_PLAIN)
        if over:
            B = AUTO_BLOCK_HSIC if measure == "hsic" else AUTO_BLOCK_NOCCO
            M = _n_perms(est, n // B)
            why = (f"the plain form would need {format_bytes(plain)}" if plain > budget else
                   f"the plain form solves a {n} x {n} system per feature and pass")
            strategy = (f"block {'HSIC' if measure == 'hsic' else 'NOCCO'} with B={B}, M={M} "
                        f"({n} rows; {why})")
    else:
        B = int(est.block_size)
    G, Bv, need = cost(B)
    name = type(est).__name__
    if need > budget and check:
        what = "the plain (one-block) kernels" if B in (0,) or B >= n else \
            f"kernels in blocks of {B}"
        raise ResourceError(
            f"{name} on {n} rows x {d} columns would need about {format_bytes(need)} for "
            f"{what}, above the memory budget of {format_bytes(budget)}; use "
            f"block_size='auto' (block form above the stated size) or a smaller block_size, "
            f"select fewer features (n_features_to_select), or raise the budget with "
            f"FEATSIEVE_MEMORY_GB.")
    per_col = cost(B, 2)[2] - need
    max_batch = int(max(1, 1 + (budget - need) // max(per_col, 1)))
    batch = min(max_batch, 1 + _most_prefetched(prefetch), d)  # the largest pass fit makes
    return _Plan(B, G, Bv, max_batch, cost(B, batch)[2], plain, strategy)


def _most_prefetched(prefetch: int) -> int:
    """The largest prefetch of one pass (:func:`~featsieve.kernel._design.prefetch_sizes`)."""
    return max(int(prefetch), PREFETCH_GROWTH_CAP) if prefetch > 0 else 0


def _build_design(est, X, y, *, measure="hsic", epsilon=1e-3, prefetch=16, covariates=None,
                  cached_columns=0):
    """Kernel x blocking for a fitted selector's parameters (shared by every kernel selector).

    The blocking comes from :func:`_plan` (a switch to blocks warns with
    :class:`~featsieve._resources.ScalableFormWarning` and is kept in
    ``strategy_``).
    """
    kx = resolve_kernel(est.kernel_x, name="kernel_x")
    cat = getattr(est, "_fit_categorical", None)
    if cat is not None and cat.shape == (X.shape[1],) and cat.any() and isinstance(
            kx, GaussianKernel):
        kx = CategoricalColumns(kx, cat)  # the indicator kernel on categorical columns
    ky = resolve_kernel(est.kernel_y, task=est.task_, name="kernel_y")
    rng = check_random_state(est.random_state)
    plan = _plan(est, X.shape[0], X.shape[1], measure=measure, cached_columns=cached_columns,
                 prefetch=prefetch)
    if plan.strategy:
        warnings.warn(f"{type(est).__name__}: {plan.strategy}.", ScalableFormWarning,
                      stacklevel=4)
    est.strategy_ = "; ".join(t for t in (getattr(est, "_row_strategy", ""), plan.strategy) if t)
    blocks, perms = make_blocks(X.shape[0], plan.block_size, est.n_permutations,
                                est.permutations, rng)
    cov = None
    if covariates is not None:
        cov = covariate_gram(covariates, blocks, est.covariates_kernel)
    design = KernelDesign(X, y, kernel_x=kx, kernel_y=ky, blocks=blocks, measure=measure,
                          epsilon=epsilon, dtype=np.dtype(est.dtype),
                          chunk_size=est.chunk_size, prefetch=prefetch, n_jobs=est.n_jobs,
                          covariate_gram=cov, max_batch=plan.max_batch,
                          nocco_normalize=getattr(est, "epsilon_scale", "n") == "frobenius")
    est.permutations_ = perms
    est.n_blocks_ = int(blocks.shape[0])
    return design


def _kernel_cost(est, n, d, k, *, measure="hsic", prefetch=16, passes=None) -> Cost:
    """Memory and kernel work of a kernel fit asking for ``k`` Gram columns (see :func:`_plan`).

    ``passes``: passes over the features (None: one for ``h`` and the norms, then
    one per pass of Gram columns, ``ceil((k + 1) / batch)``).
    """
    cached = k + 1 + _most_prefetched(prefetch)
    plan = _plan(est, n, d, measure=measure, cached_columns=cached, check=False,
                 prefetch=prefetch)
    if passes is None:
        passes = 1 + column_passes(k + 1, prefetch, plan.max_batch)
    P = plan.n_groups * plan.block**2
    flops = 2.7 * passes * d * plan.n_groups * plan.block**3 if measure == "nocco" else 0.0
    return Cost(memory_bytes=plan.memory + 16 * k * k, kernel_entries=float(passes) * d * P,
                flops=flops, strategy=plan.strategy)


def _k_for(est, d, default=5):
    """``n_features_to_select`` resolved without warnings (for cost estimates)."""
    v = getattr(est, "n_features_to_select", None)
    if v is None:
        return min(default, d)
    if isinstance(v, (float, np.floating)) and 0 < v <= 1 and not float(v).is_integer():
        return max(1, int(round(v * d)))
    if isinstance(v, (float, np.floating)) and v == 1.0:
        return d
    return max(1, min(int(v), d))


def _expand(est, values, fill=0.0):
    """Per-usable-column array -> per-input-column array (first axis)."""
    return est._to_input_columns(values, fill)


def _order_ranking(first: list, secondary: np.ndarray) -> np.ndarray:
    """Rank ``first`` (in order) 1.., then the rest by ``secondary`` descending."""
    d = secondary.shape[0]
    rest = np.setdiff1d(np.arange(d), np.asarray(first, dtype=int))
    rest = rest[np.lexsort((rest, -secondary[rest]))]
    order = np.concatenate([np.asarray(first, dtype=int), rest])
    ranking = np.empty(d, dtype=np.int64)
    ranking[order] = np.arange(1, d + 1)
    return ranking


# ---------------------------------------------------------------- scores
def hsic_scores(X, y, *, kernel_x="gaussian", kernel_y="auto", normalize: bool = False,
                block_size: int = 0, n_permutations: int = 3, random_state=None,
                task: str = "auto", dtype: str = "float64", n_jobs=None) -> np.ndarray:
    """HSIC of each feature with the target, one kernel per feature (seed 004 §2.2).

    Usable as ``SelectKBest(hsic_scores)``.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    kernel_x : {"gaussian", "gaussian-lookup", "delta"} or kernel object, default="gaussian"
        Gaussian on the standardized feature with ``sigma_x = 1`` by default.
    kernel_y : {"auto", "gaussian", "delta"} or kernel object, default="auto"
        ``"auto"``: delta kernel for classes, Gaussian on standardized ``y`` for
        regression (seed §2.3).
    normalize : bool, default=False
        False: ``tr(K_bar L_bar)`` as the seed defines HSIC (no ``1/(n-1)^2``).
        True: divided by ``||K_bar||_F ||L_bar||_F`` (the normalized HSIC that
        HSIC Lasso regresses on; between 0 and 1).
    block_size : int or "auto", default=0
        0: all samples (refused up front with the gigabytes when that does not
        fit the memory budget); ``B > 0``: the average over blocks of ``B``
        permuted samples (block HSIC), ``n_permutations`` times; ``"auto"``:
        all samples while they fit, else blocks of 20 (with a
        ``ScalableFormWarning``).
    n_permutations : int, default=3
    random_state : int, RandomState or None, default=None
        Draws the permutations of block HSIC.
    task : {"auto", "classification", "regression"}, default="auto"
        Decides ``kernel_y="auto"``.
    dtype : {"float64", "float32"}, default="float64"
    n_jobs : int or None, default=None

    Returns
    -------
    scores : ndarray of shape (n_features,)
        0 for constant columns.

    Examples
    --------
    >>> import numpy as np
    >>> from featsieve.kernel import hsic_scores
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 5)); y = np.sin(X[:, 3]) + 0.1 * rng.normal(size=100)
    >>> int(np.argmax(hsic_scores(X, y)))
    3
    """
    from .._validation import detect_task, encode_target, validate_X

    Xv = validate_X(X)
    t = detect_task(y, task)
    yv, _ = encode_target(y, t)
    kx = resolve_kernel(kernel_x, name="kernel_x")
    ky = resolve_kernel(kernel_y, task=t, name="kernel_y")
    from types import SimpleNamespace

    plan = _plan(SimpleNamespace(block_size=block_size, n_permutations=n_permutations,
                                 permutations=None, dtype=dtype, chunk_size=None),
                 Xv.shape[0], Xv.shape[1])
    if plan.strategy:
        warnings.warn(f"hsic_scores: {plan.strategy}.", ScalableFormWarning, stacklevel=2)
    blocks, _ = make_blocks(Xv.shape[0], plan.block_size, n_permutations, None,
                            check_random_state(random_state))
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        design = KernelDesign(Xv, yv, kernel_x=kx, kernel_y=ky, blocks=blocks,
                              dtype=np.dtype(dtype), n_jobs=n_jobs)
    const = np.ptp(Xv, axis=0) == 0
    out = design.h if normalize else design.hsic_raw
    return np.where(const, 0.0, np.maximum(out, 0.0) if normalize else out)


# ------------------------------------------------------------ row cap
def _capped_n(est, n: int) -> int:
    """Rows a kernel fit reads on ``n`` rows (``max_samples``; explicit permutations: all)."""
    if getattr(est, "permutations", None) is not None:
        return n
    cap = row_cap(getattr(est, "max_samples", None), ROWS_SCORES)
    return n if cap is None else min(n, cap)


def _subsample(est, X, y):
    """``(X, y, rows)``: the rows a kernel selector's statistics read (``max_samples``).

    Above the cap a seeded subsample (stratified for classes) is drawn and
    stated in ``strategy_`` (later joined by the block form's line) and a
    ``ScalableFormWarning``; ``n_samples_used_`` records the rows. Explicit
    ``permutations`` fix the rows: no subsample.
    """
    rows, text = None, ""
    if getattr(est, "permutations", None) is None:
        rows, text = capped_rows(type(est).__name__, y, getattr(est, "max_samples", None),
                                 auto=ROWS_SCORES, stratify=est.task_ == "classification",
                                 random_state=est.random_state)
    if rows is not None:
        X, y = X[rows], y[rows]
    est.n_samples_used_ = int(X.shape[0])
    est._row_strategy = text
    return X, y, rows


_MAX_SAMPLES_DOC = """max_samples : int, "auto" or None, default="auto"
        Rows the kernels are computed on (tall tables): ``"auto"``, a seeded
        subsample (stratified for classes) of 100,000 rows when there are
        more; an int, that many; None, every row. Ignored with explicit
        ``permutations``. Stated in a ``ScalableFormWarning`` and ``strategy_``;
        ``n_samples_used_`` records the rows."""


# ------------------------------------------------------------ the lassos
class _KernelLassoBase(_SingleBlas, BaseSelector):
    _measure = "hsic"

    def _epsilon(self):
        return 1e-3

    def estimate_cost(self, n_samples: int, n_features: int) -> Cost:
        """Memory and kernel work of a fit on ``n_samples x n_features``, before any allocation.

        The blocking is the one ``fit`` would choose (``block_size="auto"``: see
        Notes); ``memory_bytes`` follows :func:`featsieve.kernel.design_memory`
        plus the LARS state, ``kernel_entries`` one pass for ``h`` and the
        norms and one per pass of Gram columns. ``strategy`` names the block
        form when the shape calls for it.

        Returns
        -------
        cost : featsieve._resources.Cost
        """
        k = _k_for(self, n_features)
        n = _capped_n(self, n_samples)
        return _kernel_cost(self, n, n_features, k, measure=self._measure,
                            prefetch=self.prefetch)

    def _fit(self, X, y, covariates=None):
        cols = self._covariate_columns()
        X, y, rows = _subsample(self, X, y)
        if rows is not None and covariates is not None:
            covariates = np.asarray(covariates)[rows]  # the rows the kernels read
        extra = None
        if covariates is not None:
            if self._measure != "hsic":
                raise TypeError(f"{type(self).__name__}.fit got covariates; only HSICLasso "
                                "takes covariates.")
            from .._validation import validate_X

            extra = validate_X(np.asarray(covariates).reshape(X.shape[0], -1)
                               if np.ndim(covariates) == 1 else covariates)
            if extra.shape[0] != X.shape[0]:
                raise ValueError(f"covariates has {extra.shape[0]} rows; X has {X.shape[0]}.")
        if not cols:
            return self._fit_core(X, y, extra)
        usable = self._usable
        where = {int(j): i for i, j in enumerate(self._fit_index)}
        pos = np.array([where[c] for c in cols], dtype=np.int64)  # columns of the X _fit got
        C = X[:, pos] if extra is None else np.hstack([X[:, pos], extra])
        keep = np.ones(X.shape[1], bool)
        keep[pos] = False
        if not keep.any():
            raise ValueError("Every usable column of X is a covariate; nothing is left to "
                             "select.")
        # the covariate columns are no candidates: fit on the others, with the usable mask
        # (which maps per-candidate arrays to input columns) narrowed for the duration
        self._usable = usable.copy()
        self._usable[cols] = False
        try:
            self._fit_core(X[:, keep], y, C)
        finally:
            self._usable = usable
        d = X.shape[1]
        support = np.zeros(d, bool)
        support[keep] = self.support_
        scores = np.zeros(d)
        scores[keep] = self.scores_
        ranking = np.full(d, int(self.ranking_.max()) + 1, dtype=np.int64)
        ranking[keep] = self.ranking_
        self.support_, self.scores_, self.ranking_ = support, scores, ranking
        return self

    def _covariate_columns(self) -> list[int]:
        """Input column indices named by ``covariates`` (labels or indices)."""
        spec = getattr(self, "covariates", None)
        if spec is None:
            return []
        if isinstance(spec, (str, numbers.Integral)):
            spec = [spec]
        labels = getattr(self, "feature_names_in_", None)
        if labels is None:
            labels = getattr(self, "_column_labels", None)
        pos = {}
        if labels is not None:
            pos = {lab: j for j, lab in reversed(list(enumerate(labels)))}
        n_in = self.n_features_in_
        out, unknown, unusable = [], [], []
        for c in spec:
            if not isinstance(c, (bool, np.bool_)) and c in pos:
                j = pos[c]
            elif (isinstance(c, numbers.Integral) and not isinstance(c, (bool, np.bool_))
                  and 0 <= int(c) < n_in):
                j = int(c)
            else:
                unknown.append(c)
                continue
            if not self._usable[j]:
                unusable.append(c)
            elif j not in out:
                out.append(j)
        if unknown:
            raise ValueError(
                f"covariates has unknown entries {unknown[:10]}: give column indices (0 to "
                f"{n_in - 1}) or, when X is a DataFrame, column labels of X.")
        if unusable:
            raise ValueError(
                f"covariates names columns {unusable[:10]} that are constant or copy an earlier "
                "column; drop them from covariates (a constant covariate explains nothing) or "
                "name the column they copy.")
        return sorted(out)

    def _fit_core(self, X, y, covariates):
        d = X.shape[1]
        k = self._n_to_select(d, default=min(5, d))
        design = _build_design(self, X, y, measure=self._measure, epsilon=self._epsilon(),
                               prefetch=self.prefetch, covariates=covariates,
                               cached_columns=k + 1 + _most_prefetched(self.prefetch))
        h = design.h
        if self.solver == "lars":
            res = nonnegative_lars(h, design.columns, k)
            path, lambdas, sets, events = res.path, res.lambdas, res.active_sets, res.events
            active, coef = res.active, res.coef
        else:  # "lars-gram": scikit-learn on the full Gram matrix
            from .._resources import check_memory

            check_memory(type(self).__name__, 3 * 8 * d * d, what=f"the {d} x {d} Gram matrix "
                         "of solver='lars-gram'", alternatives="use solver='lars' (Gram "
                         "columns of active features only)")
            Gm = design.full_gram()
            path, lambdas, sets, events, active, coef = _sklearn_path(h, Gm, k)
        sel = sorted(active, key=lambda j: -coef[j])  # stable: entry order among ties
        names = self._fit_feature_names
        support = np.zeros(d, bool)
        support[sel] = True
        cmax = coef[sel[0]] if sel and coef[sel[0]] > 0 else 1.0
        scores = np.where(support, coef / cmax, 0.0)
        # related features: the largest Gram entries of each selected column
        nn = min(self.n_neighbors, d - 1)
        rel_idx = np.zeros((len(sel), max(nn, 0)), dtype=np.int64)
        rel_sc = np.zeros((len(sel), max(nn, 0)))
        if sel and nn > 0:
            GA = design.columns(sel)
            for i, j in enumerate(sel):
                col = GA[:, i].copy()
                col[j] = -np.inf
                top = np.lexsort((np.arange(d), -col))[:nn]
                rel_idx[i], rel_sc[i] = top, GA[top, i]
        full_idx = self._fit_index
        self.support_ = support
        self.scores_ = scores
        self.ranking_ = _order_ranking(sel, h)
        self.coef_ = _expand(self, coef)
        self.hsic_ = _expand(self, h)
        self.path_ = _expand(self, path)
        self.path_lambdas_ = np.asarray(lambdas, dtype=float)
        self.path_active_ = [full_idx[np.asarray(s, dtype=int)] for s in sets]
        self.selected_order_ = full_idx[np.asarray(sel, dtype=int)]
        self.related_features_ = {names[j]: [names[r] for r in rel_idx[i]]
                                  for i, j in enumerate(sel)}
        self.related_indices_ = full_idx[rel_idx] if rel_idx.size else rel_idx
        self.related_scores_ = rel_sc
        self.history_ = [{"knot": int(kn), "event": ev,
                          "feature": names[f] if f >= 0 else None,
                          "lambda": float(lambdas[min(kn, len(lambdas) - 1)]),
                          "n_active": len(sets[min(kn, len(sets) - 1)])}
                         for kn, ev, f in events]
        self.covariate_beta_ = design.covariate_beta
        self.n_gram_columns_ = design.n_columns
        self.n_passes_ = design.n_passes
        self.n_kernel_evaluations_ = design.n_kernel_evaluations
        self.n_model_fits_ = 0
        self._warn_fewer(len(sel), k)
        return self


    def support_at(self, *, n_features: int) -> np.ndarray:
        """The selection with ``n_features`` columns, read from this fit's LARS path.

        It is the active set just before the ``(n_features + 1)``-th feature
        enters (what a fit with ``n_features_to_select=n_features`` returns), so
        one path up to the largest k serves every k; beyond the fitted path,
        the first ``n_features`` of the last active set.

        Returns
        -------
        support : ndarray of bool, shape (n_features_in_,)
        """
        check_is_fitted(self, "path_active_")
        k = int(n_features)
        chosen = next((s[:k] for s in self.path_active_ if len(s) >= k + 1),
                      self.path_active_[-1][:k])
        mask = np.zeros(len(self.support_), dtype=bool)
        mask[np.asarray(chosen, dtype=int)] = True
        return mask


def _sklearn_path(h, Gm, k):
    """scikit-learn's positive LARS-Lasso, cut where the (k+1)-th feature enters.

    One ``lars_path_gram`` iteration adds (or drops) one feature, so ``max_iter
    = k`` ends at the knot where the (k+1)-th enters when nothing is dropped;
    with drops, ``max_iter`` grows until ``k`` coefficients are non-zero or
    the path ends.
    """
    from sklearn.linear_model import lars_path_gram

    d = len(h)
    it = k
    while True:
        alphas, _, coefs = lars_path_gram(h, Gm, n_samples=1, max_iter=it, method="lasso",
                                          positive=True)
        nnz = int((coefs[:, -1] > 0).sum())
        if nnz >= k or len(alphas) < it + 1 or it > 4 * d + 10:
            break
        it += k - nnz
    coef = coefs[:, -1].copy()
    sets, events, prev = [], [], []
    for t in range(coefs.shape[1]):
        nz = set(np.flatnonzero(coefs[:, t] > 0).tolist())
        now = [j for j in prev if j in nz]
        for j in sorted(nz - set(now), key=lambda j: -coefs[j, t]):
            now.append(j)
        for j in prev:
            if j not in nz:
                events.append((t, "drop", j))
        sets.append(list(now))
        prev = now
    active = [j for j in sets[-1] if coef[j] > 0][:k]
    return coefs, alphas, sets, events, active, coef


_LASSO_DOC_PARAMS = """
    kernel_x : {"gaussian", "gaussian-lookup", "delta"} or kernel object, default="gaussian"
        Kernel of each feature: Gaussian on the standardized feature with
        ``sigma_x = 1`` (seed §2.3, §4: ``GaussianKernel(sigma=1.0)``), the
        table-lookup Gaussian (seed §2.5: ``LookupGaussianKernel``, 4096 bins)
        or the normalized delta kernel for discrete features.
    kernel_y : {"auto", "gaussian", "gaussian-lookup", "delta"} or kernel object, default="auto"
        ``"auto"``: delta kernel (``1/n_y`` within a class) for classification,
        Gaussian on standardized ``y`` (``sigma_y = 1``) for regression.
    block_size : int or "auto", default="auto"
        ``"auto"``: the plain form while its estimated memory fits the budget
        (2 GiB, or ``FEATSIEVE_MEMORY_GB``; about n = 8,000 rows in float32)
        and, for NOCCO Lasso, up to n = 1,000 rows; above, block HSIC Lasso with
        ``B = 20`` (the reference package's default) or block NOCCO Lasso with
        ``B = 250``, ``M = n_permutations``, with a ``ScalableFormWarning``
        naming the switch (``strategy_``). 0: plain (vanilla) HSIC Lasso on all
        samples, refused up front (``ResourceError`` with the gigabytes) when
        it does not fit. ``B > 0``: block HSIC
        Lasso: ``n_permutations`` permutations of the samples are each cut into
        ``n // B`` blocks of ``B`` (the remaining ``n % B`` samples of a
        permutation are left out, as in the reference); every block has its
        own centered, Frobenius-normalized kernel and the design is their
        concatenation scaled by ``sqrt(1 / (n_blocks M))``. ``B >= n`` is one
        block of all samples.
    n_permutations : int, default=3
        ``M`` of block HSIC Lasso (forced to 1 with a single block).
    permutations : array-like of shape (M, n_samples) or None, default=None
        Explicit sample permutations (overrides ``n_permutations`` and
        ``random_state``); e.g. :func:`featsieve.kernel.pyhsiclasso_permutations`
        to reproduce the reference package's blocks.
    solver : {"lars", "lars-gram"}, default="lars"
        ``"lars"``: our non-negative LARS asking for Gram columns only of the
        features that become active. ``"lars-gram"``: scikit-learn's
        ``lars_path_gram(positive=True)`` on the full ``d x d`` Gram matrix
        (``d`` Gram columns: only for small ``d``).
    n_neighbors : int, default=10
        Related features kept per selected feature.
    dtype : {"float32", "float64"}, default="float32"
        Precision of the streamed kernel entries (the sums LARS uses are
        float64). float32 halves memory and time; the selections on the tests'
        problems are identical.
    chunk_size : int or None, default=None
        Features whose kernels are held at once; None: tiles of ~1 MB (NOCCO:
        ~64 MB of explicit kernels).
    prefetch : int, default=16
        Extra Gram columns computed in the first pass that computes a needed
        one, for the features with the largest current correlation; each
        further pass prefetches twice as many, up to 64 (a long path makes
        fewer passes). The selection does not depend on it.
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
        Draws the block permutations (and the row subsample of ``max_samples``).
    n_jobs : int or None, default=None
        Threads over chunks of features; results are identical for any value.
    """ + _MAX_SAMPLES_DOC

_LASSO_DOC_ATTRS = """
    support_ : ndarray of bool, shape (n_features_in_,)
    coef_ : ndarray of shape (n_features_in_,)
        The alpha coefficients at the knot where the path stopped.
    scores_ : ndarray of shape (n_features_in_,)
        ``coef_ / max(coef_)`` for the selected features (1 for the first),
        0 elsewhere (the reference's reported "score").
    ranking_ : ndarray of int, shape (n_features_in_,)
        Selected features by decreasing coefficient (1, 2, ...), then the
        others by decreasing marginal HSIC ``hsic_``.
    selected_order_ : ndarray of int
        Column indices of the selected features, by decreasing coefficient.
    hsic_ : ndarray of shape (n_features_in_,)
        Normalized dependence of each feature with ``y`` (``X^T y`` of the
        Lasso; seed eq. (4)).
    path_ : ndarray of shape (n_features_in_, n_knots)
        Coefficients at every knot of the LARS path.
    path_lambdas_ : ndarray of shape (n_knots,)
        Regularization value (largest correlation) at each knot.
    path_active_ : list of ndarray
        Active columns after each knot.
    related_features_ : dict
        Selected feature name -> names of the ``n_neighbors`` features with the
        largest normalized HSIC with it (the reference's "neighbors").
    related_indices_ : ndarray of int, shape (n_selected, n_neighbors)
    related_scores_ : ndarray of shape (n_selected, n_neighbors)
    history_ : list of dict
        One per path event: ``knot``, ``event`` ("add", "drop", "end"),
        ``feature``, ``lambda``, ``n_active``.
    permutations_ : ndarray of shape (M, n_samples) or None
    n_blocks_ : int
    strategy_ : str
        The row subsample (``max_samples``) and the block form chosen by shape
        (empty for the plain form on every row or an explicit ``block_size``).
    n_samples_used_ : int
        Rows the kernels were computed on.
    covariate_beta_ : float or None
        ``beta`` of the covariates (HSICLasso with covariates only; else None).
    n_gram_columns_ : int
        Gram columns computed (out of ``n_features_in_``).
    n_passes_ : int
        Passes over the features (kernel recomputations).
    n_kernel_evaluations_ : int
        Kernel entries computed (the work count).
    n_model_fits_ : int
        Always 0 (no model is trained)."""


class HSICLasso(_KernelLassoBase):
    __doc__ = f"""HSIC Lasso: feature-wise kernelized non-negative Lasso (seed 004 eq. (3)).

    Solves ``min_{{alpha >= 0}} 1/2 ||L_bar - sum_k alpha_k K_bar^(k)||_F^2 +
    lambda ||alpha||_1`` with centered Gram matrices normalized to unit
    Frobenius norm (as the reference package ``pyHSICLasso``; the seed's
    equation has no normalization, which would let a feature's kernel scale
    decide its coefficient). By the seed's eq. (4) this is a Lasso with design
    ``X^T X = [normalized HSIC(u_k, u_l)]`` and ``X^T y = [normalized HSIC(u_k,
    y)]``: relevant features enter, redundant ones are held back (the mRMR
    reading, seed §2.2). The non-negative LARS path is followed until
    ``n_features_to_select + 1`` features are active; the first
    ``n_features_to_select`` are selected and ordered by coefficient.

    Parameters
    ----------
    n_features_to_select : int, float or None, default=None
        Features to select (a float in (0, 1] is a fraction); None selects 5
        (the reference's default), or all when there are fewer.
    {_LASSO_DOC_PARAMS}
    covariates : list of column labels or indices, label, index or None, default=None
        Columns of ``X`` whose effect is removed before the selection, as
        pyHSICLasso's ``covars``: the part of the output kernel explained by
        the covariates' joint kernel ``C`` is subtracted, ``h_k = <K_k, L -
        beta C>`` with ``beta = <L, C> / <C, C>`` (normalized, block-scaled
        kernels), and the LARS runs on that. Covariate columns are never
        selected. ``fit(X, y, covariates=array)`` gives covariates that are
        not columns of ``X`` (shape ``(n_samples,)`` or ``(n_samples, c)``);
        both forms can be combined. Raises ValueError for unknown labels or
        indices and for constant or duplicated columns.
    covariates_kernel : {{"gaussian", "delta"}}, default="gaussian"
        Kernel of the covariates (pyHSICLasso's ``covars_kernel``): Gaussian
        of width ``sqrt(c)`` on the covariates divided by their common
        standard deviation, or the normalized delta kernel on their distinct
        rows (:func:`featsieve.kernel.covariate_gram`).

    Attributes
    ----------
    {_LASSO_DOC_ATTRS}

    Raises
    ------
    ValueError
        Unknown kernel names, explicit permutations of the wrong shape, and
        the input errors of :class:`featsieve.BaseSelector`.

    Notes
    -----
    The ``n^2 x d`` design is never built. A first pass over the features
    computes ``X^T y`` and every kernel's norm; each later pass computes Gram
    columns of the features that become active (plus ``prefetch`` likely
    ones, doubling with every pass up to 64). Time is ``O(passes d n^2)`` (``O(passes d n B M)`` in blocks), memory
    ``O(chunk n^2 + d n + d k)``; two passes suffice when the selected features
    are among the ``prefetch`` most correlated ones. Warns
    (``FewerFeaturesWarning``) when the path ends with fewer features.

    References
    ----------
    Seed 004 (``004_aacbb39825c2197a.txt``): Yamada, Jitkrittum, Sigal, Xing and
    Sugiyama, Neural Computation 26(1), 2014, eq. (3)-(4), §2.3, §2.5.
    Climente-Gonzalez et al., Bioinformatics 35(14), 2019 (block HSIC Lasso,
    the ``pyHSICLasso`` package).

    Examples
    --------
    >>> from featsieve.datasets import make_hsic_nonadditive
    >>> from featsieve.kernel import HSICLasso
    >>> X, y, support = make_hsic_nonadditive(n_samples=300, n_features=20, random_state=0)
    >>> sorted(HSICLasso(3).fit(X, y).selected_order_.tolist())
    [0, 1, 2]
    """

    _parameter_constraints = {
        "n_features_to_select": N_FEATURES_CONSTRAINT,
        **_SHARED_CONSTRAINTS,
        "solver": [StrOptions({"lars", "lars-gram"})],
        "n_neighbors": [Interval(numbers.Integral, 0, None, closed="left")],
        "prefetch": [Interval(numbers.Integral, 0, None, closed="left")],
        "covariates": [list, str, numbers.Integral, None],
        "covariates_kernel": [StrOptions({"gaussian", "delta"})],
        "max_samples": [Interval(numbers.Integral, 1, None, closed="left"),
                        StrOptions({"auto"}), None],
    }

    def __init__(self, n_features_to_select=None, *, kernel_x="gaussian", kernel_y="auto",
                 block_size="auto", n_permutations=3, permutations=None, solver="lars",
                 n_neighbors=10, dtype="float32", chunk_size=None, prefetch=16,
                 covariates=None, covariates_kernel="gaussian", task="auto",
                 random_state=None, n_jobs=None, max_samples="auto"):
        self.n_features_to_select = n_features_to_select
        self.max_samples = max_samples
        self.covariates = covariates
        self.covariates_kernel = covariates_kernel
        self.kernel_x = kernel_x
        self.kernel_y = kernel_y
        self.block_size = block_size
        self.n_permutations = n_permutations
        self.permutations = permutations
        self.solver = solver
        self.n_neighbors = n_neighbors
        self.dtype = dtype
        self.chunk_size = chunk_size
        self.prefetch = prefetch
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs


class NOCCOLasso(_KernelLassoBase):
    __doc__ = f"""NOCCO Lasso: HSIC Lasso on normalized cross-covariance kernels (seed 004 §2.6).

    Replaces every centered Gram matrix ``K_bar`` by ``K_tilde = K_bar (K_bar +
    epsilon n I)^{{-1}}`` (and ``L_bar`` by ``L_tilde``); the Lasso then regresses
    on ``D_NOCCO(u_k, y) = tr(K_tilde^(k) L_tilde)``, which is asymptotically
    independent of the kernel width (Fukumizu et al. 2008). As in
    :class:`HSICLasso`, each transformed matrix is normalized to unit Frobenius
    norm (our choice, for the same reason; the seed does not normalize). In
    block mode ``n`` is the block size.

    Parameters
    ----------
    n_features_to_select : int, float or None, default=None
        None selects 5.
    epsilon : float, default=1e-3
        The regularization (seed §4: ``epsilon = 1e-3``).
    epsilon_scale : {{"n", "frobenius"}}, default="n"
        ``"n"``: ``K_bar (K_bar + epsilon n I)^{{-1}}`` on the centered Gram
        matrix as the seed writes it (§2.6). ``"frobenius"``: the same on
        ``K_bar / ||K_bar||_F``, i.e. an effective ``epsilon ||K_bar||_F``
        (about ``0.27 n epsilon`` for the Gaussian kernel of width 1 on
        standardized Gaussian data): the unit-Frobenius scale at which HSIC
        Lasso and the reference package compare kernels. See Notes.
    {_LASSO_DOC_PARAMS}

    Attributes
    ----------
    {_LASSO_DOC_ATTRS}

    Notes
    -----
    Each feature needs one ``n x n`` solve per block and pass, ``O(d n^3)``
    per pass: practical for ``n`` up to about a thousand; above that
    ``block_size="auto"`` (the default) runs block NOCCO Lasso with ``B = 250``
    (``O(d n M B^2)`` per pass, ``epsilon B`` the regularization of a block),
    an approximation stated by a ``ScalableFormWarning``.

    Why ``epsilon = 1e-3`` recovers fewer features than the seed's Figure 1
    shows: with the seed's own definition the regularization ``epsilon n``
    (0.2 at ``n = 200``) lies below the leading eigenvalues of ``K_bar``
    (about 46, 27, 7, 3, 0.9 for one standardized Gaussian feature, width 1,
    ``n = 200``), so ``K_tilde`` is close to the projection onto six to eight
    smooth directions for *every* feature, and ``tr(K_tilde L_tilde)`` of an
    independent feature is of the order of the product of those ranks over
    ``n``: chance alignment swamps the signal. Fukumizu et al. (2008) need
    ``epsilon n^{{1/3}} -> infinity`` for consistency; at ``n <= 300``,
    ``epsilon = 1e-3`` is far from that. Centering is not the cause (the
    transform needs it), nor is the kernel width alone. Measured recovery
    (true features among the top k, mean of 4 draws; HSIC Lasso in
    brackets): Data1 ``n = 100``: 0.38 with ``epsilon = 1e-3``, 0.56 with
    ``1e-2``, 0.81 with ``1e-1``, 0.69 with ``epsilon_scale="frobenius"``
    (0.75); Data1 ``n = 200``: 0.63 / 0.94 / 1.0 / 1.0 (1.0); Data2
    ``n = 100``: 0.33 / 0.50 / 0.67 / 0.50 (0.67). Regularizing the
    Frobenius-normalized kernel, the scale HSIC Lasso works at, gives back
    the figure's recovery with the seed's ``epsilon``; whether the authors'
    code did so is not stated, so the default keeps the written equation.

    References
    ----------
    Seed 004 (``004_aacbb39825c2197a.txt``) §2.6, "NOCCO Lasso".

    Examples
    --------
    >>> from featsieve.datasets import make_hsic_additive
    >>> from featsieve.kernel import NOCCOLasso
    >>> X, y, support = make_hsic_additive(n_samples=150, n_features=30, random_state=0)
    >>> bool(NOCCOLasso(4).fit(X, y).support_[:4].sum() >= 3)
    True
    """

    _measure = "nocco"
    _parameter_constraints = {
        **{k: v for k, v in HSICLasso._parameter_constraints.items()
           if not k.startswith("covariates")},
        "epsilon": [Interval(numbers.Real, 0, None, closed="neither")],
        "epsilon_scale": [StrOptions({"n", "frobenius"})],
    }

    def __init__(self, n_features_to_select=None, *, epsilon=1e-3, epsilon_scale="n",
                 kernel_x="gaussian",
                 kernel_y="auto", block_size="auto", n_permutations=3, permutations=None,
                 solver="lars", n_neighbors=10, dtype="float32", chunk_size=None, prefetch=16,
                 task="auto", random_state=None, n_jobs=None, max_samples="auto"):
        self.n_features_to_select = n_features_to_select
        self.max_samples = max_samples
        self.epsilon = epsilon
        self.epsilon_scale = epsilon_scale
        self.kernel_x = kernel_x
        self.kernel_y = kernel_y
        self.block_size = block_size
        self.n_permutations = n_permutations
        self.permutations = permutations
        self.solver = solver
        self.n_neighbors = n_neighbors
        self.dtype = dtype
        self.chunk_size = chunk_size
        self.prefetch = prefetch
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _epsilon(self):
        return self.epsilon
