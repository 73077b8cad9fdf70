"""Comparators from statistics: model-X knockoffs (knockpy) and best subset (abess)."""

from __future__ import annotations

import contextlib
import numbers
import threading
import warnings

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from .._base import BaseSelector
from ._common import require, seed_of

__all__ = ["KnockoffSelector", "AbessSelector"]

_TASK = [StrOptions({"auto", "classification", "regression"})]
_GLOBAL_RNG_LOCK = threading.Lock()


@contextlib.contextmanager
def _numpy_global_seed(seed: int):
    """Run code that draws from NumPy's global generator with a given seed, then restore it.

    knockpy draws every random number (the S-matrix solver's coordinate order,
    the Gaussian knockoffs, the statistic's column shuffle) from
    ``np.random``; this is the only way to make it repeatable. The caller's
    global state is put back afterwards, and a lock keeps two threads of ours
    from interleaving.
    """
    with _GLOBAL_RNG_LOCK:
        state = np.random.get_state()  # noqa: NPY002 - knockpy reads the global generator
        np.random.seed(seed)  # noqa: NPY002 - scoped, restored below
        try:
            yield
        finally:
            np.random.set_state(state)  # noqa: NPY002


class KnockoffSelector(BaseSelector):
    """Model-X knockoffs with false-discovery-rate control (knockpy).

    knockpy builds a Gaussian "knockoff" copy of the columns (same
    covariance, same covariance with the originals except on the diagonal,
    where it is lowered by the S-matrix chosen by minimum variance-based
    reconstructability, "mvr"), fits an L1 model (the Lasso for numbers, L1
    logistic regression for two classes, penalty by cross-validation) on
    columns plus knockoffs, and takes ``W_j = |b_j| - |b~_j|``; the
    knockoff+ threshold keeps the columns with ``W_j >= T``, where T is the
    smallest value with ``(1 + #{W <= -T}) / #{W >= T} <= fdr``.

    What it assumes: rows are independent draws; the columns' joint
    distribution is (close to) Gaussian, with a covariance estimated from the
    rows fitted on (Ledoit-Wolf shrinkage) — the FDR guarantee is exact only
    when the knockoffs are drawn from the true distribution of X, so skewed,
    discrete or heavy-tailed columns weaken it; ``n`` well above the number
    of columns. Nothing is assumed about how y depends on X. The guarantee is
    on the expected share of false discoveries, over datasets, among the
    columns kept; "null" means independent of y given the other columns.
    Knockoff+ needs about ``1/fdr`` discoveries before it can keep any, so
    with a handful of relevant columns it may keep none.

    Parameters
    ----------
    fdr : float in (0, 1), default=0.1
        Target false discovery rate.
    offset : {0, 1}, default=1
        1: knockoff+, which controls the FDR exactly; 0: the original knockoff
        threshold ``#{W <= -T} / #{W >= T} <= fdr``, which controls a modified
        FDR ``E[V / (R + 1/fdr)]`` and can keep a handful of columns.
    fstat : {"lasso", "ridge", "ols", "randomforest"}, default="lasso"
        knockpy's feature statistic.
    smatrix : {"mvr", "sdp", "equicorrelated", "mmi"}, default="mvr"
        How knockpy chooses the S-matrix.
    task : {"auto", "classification", "regression"}, default="auto"
        Classification with two classes only.
    random_state : int, RandomState or None, default=None
        Seeds knockpy (see Notes).

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
    scores_ : ndarray of shape (n_features_in_,)
        The knockoff statistics ``W``.
    threshold_ : float
        Knockoff+ threshold (``inf`` when nothing can be kept at this FDR).
    n_model_fits_ : int
        1 (the statistic's cross-validation is knockpy's own).

    Raises
    ------
    ValueError
        More than two classes (knockpy's statistics are for numbers or two
        classes): use another method, or recode y as one class against the rest.
    MethodUnavailableError
        ``knockpy`` is not installed: ``pip install 'featsieve[comparators]'``.

    Notes
    -----
    knockpy draws from NumPy's global generator; the fit seeds it from
    ``random_state`` inside a scope that restores the caller's state
    afterwards (the one place featsieve touches it). Columns are standardized
    first. Cost: an S-matrix solve (about O(d^3) per sweep) plus one
    cross-validated L1 fit on 2d columns.

    References
    ----------
    Candès, E., Fan, Y., Janson, L. and Lv, J. (2018). Panning for gold:
    model-X knockoffs for high dimensional controlled variable selection.
    JRSS B 80(3). Spector, A. and Janson, L. (2022). Powerful knockoffs via
    minimizing reconstructability. Annals of Statistics 50(1) (mvr; knockpy).

    Examples
    --------
    >>> import numpy as np
    >>> from featsieve.comparators import KnockoffSelector
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((300, 30))
    >>> y = X[:, :12].sum(axis=1) + rng.standard_normal(300)
    >>> KnockoffSelector(random_state=0).fit(X, y).get_support(indices=True)
    array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11])
    """

    _parameter_constraints = {
        "fdr": [Interval(numbers.Real, 0, 1, closed="neither")],
        "offset": [Interval(numbers.Integral, 0, 1, closed="both")],
        "fstat": [StrOptions({"lasso", "ridge", "ols", "randomforest"})],
        "smatrix": [StrOptions({"mvr", "sdp", "equicorrelated", "mmi"})],
        "task": _TASK,
        "random_state": ["random_state"],
    }

    def __init__(self, *, fdr=0.1, offset=1, fstat="lasso", smatrix="mvr", task="auto",
                 random_state=None):
        self.fdr = fdr
        self.offset = offset
        self.fstat = fstat
        self.smatrix = smatrix
        self.task = task
        self.random_state = random_state

    def _fit(self, X, y):
        require("knockpy", "knockoff")
        from knockpy.knockoff_filter import KnockoffFilter
        from knockpy.knockoff_stats import data_dependent_threshhold
        from sklearn.preprocessing import StandardScaler

        if self.task_ == "classification" and len(self.classes_) > 2:
            raise ValueError(
                f"knockoff selection handles numbers or two classes; y has "
                f"{len(self.classes_)} classes. Use another method, or recode y as one class "
                "against the rest.")
        d = X.shape[1]
        Xs = StandardScaler().fit_transform(X)
        target = y.astype(float)
        kf = KnockoffFilter(fstat=self.fstat, ksampler="gaussian",
                            knockoff_kwargs={"method": self.smatrix, "verbose": False})
        with _numpy_global_seed(seed_of(self.random_state)), warnings.catch_warnings():
            # knockpy passes scikit-learn arguments that newer versions deprecate
            warnings.simplefilter("ignore", FutureWarning)
            if d == 1:  # knockpy needs two columns: nothing to compare a lone column with
                W = np.zeros(1)
            else:
                kf.forward(Xs, target, fdr=self.fdr)
                W = np.asarray(kf.W, float)
        threshold = float(data_dependent_threshhold(W, fdr=self.fdr, offset=self.offset))
        self.scores_, self.threshold_ = W, threshold
        self.support_ = W >= threshold if np.isfinite(threshold) else np.zeros(d, bool)
        self.n_model_fits_ = 1
        return self


class AbessSelector(BaseSelector):
    """Best-subset selection for linear and logistic models with abess.

    abess ("adaptive best subset selection") solves, for each support size
    s, the L0-constrained least squares or (multinomial) logistic likelihood
    by splicing (swapping columns in and out of the active set while the
    loss falls), and picks s by an information criterion (the extended BIC by
    default) or by cross-validation on the rows it is fitted on. featsieve
    standardizes the columns and keeps those with a non-zero coefficient.

    Parameters
    ----------
    max_size : int or None, default=None
        Largest support size tried (sizes 0..max_size); None: abess's own
        default, ``min(d, n / (log(log n) log d))``.
    ic_type : {"ebic", "gic", "bic", "aic"}, default="ebic"
        Criterion for the size when ``cv == 1``.
    cv : int, default=1
        Folds to choose the size by (1: use ``ic_type``).
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
        Not used by abess's deterministic solver; kept for the shared interface.

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
    scores_ : ndarray of shape (n_features_in_,)
        |coefficient| on standardized columns (summed over classes).
    n_model_fits_ : int
        Support sizes tried (times folds).

    Raises
    ------
    MethodUnavailableError
        ``abess`` is not installed: ``pip install 'featsieve[comparators]'``.

    References
    ----------
    Zhu, J., Wen, C., Zhu, J., Zhang, H. and Wang, X. (2020). A polynomial
    algorithm for best-subset selection problem. PNAS 117(52). Zhu, J. et al.
    (2022). abess: a fast best-subset selection library in Python and R. JMLR 23.

    Examples
    --------
    >>> from featsieve.comparators import AbessSelector
    >>> from sklearn.datasets import make_regression
    >>> X, y = make_regression(200, 8, n_informative=3, noise=1.0, shuffle=False,
    ...                        random_state=0)
    >>> AbessSelector().fit(X, y).get_support(indices=True)
    array([0, 1, 2])
    """

    _parameter_constraints = {
        "max_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "ic_type": [StrOptions({"ebic", "gic", "bic", "aic"})],
        "cv": [Interval(numbers.Integral, 1, None, closed="left")],
        "task": _TASK,
        "random_state": ["random_state"],
    }

    def __init__(self, *, max_size=None, ic_type="ebic", cv=1, task="auto", random_state=None):
        self.max_size = max_size
        self.ic_type = ic_type
        self.cv = cv
        self.task = task
        self.random_state = random_state

    def _fit(self, X, y):
        abess = require("abess", "abess")
        from sklearn.preprocessing import StandardScaler

        n, d = X.shape
        Xs = StandardScaler().fit_transform(X)
        if self.task_ == "regression":
            cls = abess.LinearRegression
        elif len(self.classes_) == 2:
            cls = abess.LogisticRegression
        else:
            cls = abess.MultinomialRegression
        sizes = None if self.max_size is None else list(range(0, min(self.max_size, d) + 1))
        cv = min(self.cv, n) if self.cv > 1 else 1
        model = cls(support_size=sizes, ic_type=self.ic_type, cv=cv)
        fold_ids = None
        if cv > 1:  # abess draws its folds from the global generator: give them
            from sklearn.model_selection import KFold

            fold_ids = np.empty(n, dtype=np.int64)
            split = KFold(cv, shuffle=True, random_state=seed_of(self.random_state))
            for f, (_, te) in enumerate(split.split(Xs)):
                fold_ids[te] = f
        model.fit(Xs, y.astype(float) if self.task_ == "regression" else y,
                  cv_fold_id=fold_ids)
        coef = np.atleast_2d(np.asarray(model.coef_, float))
        if cls is abess.MultinomialRegression:  # (d, n_classes)
            coef = coef.T
        self.scores_ = np.abs(coef).sum(axis=0)
        self.support_ = self.scores_ > 0
        self.n_model_fits_ = len(np.atleast_1d(model.support_size_)) * cv if hasattr(
            model, "support_size_") else cv
        return self
