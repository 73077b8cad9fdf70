"""The wrapper family of seed 002 (FS18): forward selection read on a validation set."""

from __future__ import annotations

import numbers

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from sklearn.metrics import get_scorer
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions

from .._base import BaseSelector
from .._cart import PresortedCART, supports
from .._importance import model_importances
from .._resources import Cost, fit_seconds, search_model_kind
from .._utils import default_tree, scorer_for
from ..models import fit_model
from ..protocol import holdout_split


def _fit_score(estimator, X_tr, y_tr, X_va, y_va, cols, scorer, categorical=None):
    cat = None if categorical is None else categorical[cols]
    est = fit_model(estimator, X_tr[:, cols], y_tr, categorical=cat)
    return scorer(est, X_va[:, cols], y_va)


def _grow_score(cart, X_va, y_va, chosen, cands, scorer):
    """Scores of ``chosen + [j]`` for each ``j`` of ``cands``, trees grown by ``cart``;
    ``scorer`` None is accuracy, computed here (scikit-learn's scorer object costs more
    than growing a small tree)."""
    out = []
    for j in cands:
        cols = chosen + [j]
        tree = cart.fit(cols)
        if scorer is None:
            out.append(float(np.mean(tree.predict(X_va[:, cols]) == y_va)))
        else:
            out.append(scorer(tree, X_va[:, cols], y_va))
    return out


def _presorted(est, tree_kernel, clf, categorical, X_tr, y_tr, X_va):
    """The presorted CART kernel bound to the training rows, or None when the model or
    the data is not the plain Gini tree on finite numbers it grows."""
    if not (tree_kernel and clf and supports(est)):
        return None
    if categorical is not None and np.any(categorical):
        return None
    if not (np.isfinite(X_tr).all() and np.isfinite(X_va).all()):
        return None
    return PresortedCART(X_tr, y_tr, est)


class ForwardSelector(BaseSelector):
    """Forward selection read on a validation set (wrapper family, seed 002 FS18).

    Each round fits the model once per remaining column, adds the column whose
    addition scores highest on the validation rows, and stops when the best
    score does not exceed the previous round's (the seed starts from 0, so the
    first round always adds a column when the score is positive) or after
    ``max_rounds`` rounds. Candidates of one round are evaluated in parallel
    through joblib; ties go to the lower column index (the seed's ``max`` over
    ``(score, name)`` would prefer the later name; we choose the index rule so
    that renaming columns cannot change the result).

    Parameters
    ----------
    estimator : estimator or None, default=None
        The model refit for every candidate; a depth-6 decision tree (the
        seed's model, FS16) when None.
    max_rounds : int, default=8
        At most this many columns are added (FS18).
    scoring : str or callable or None, default=None
        scikit-learn scorer; accuracy for classes and negative MSE for
        regression when None (higher is better).
    validation_fraction : float, default=0.4
        When ``fit`` gets no ``X_val``: share of the rows held out as the
        validation set (0.4 of train + selection-val is the protocol's 30 of 75).
    tol : float or None, default=0.0
        A round must gain more than this to continue. None: never stop early,
        always add ``max_rounds`` columns (seed 001's DT-forward, whose
        evaluation counts in Table 4 are exactly those of 15 full rounds).
    max_candidates : int or None, default=None
        None: every remaining column is a candidate in every round (``d`` fits
        per round). An int m: when there are more than m usable columns, the
        candidates are the m columns with the largest importance of one model
        fitted on all columns and training rows (a stated pre-screen: one
        more fit, then at most m per round; ``strategy_`` says so).
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
        Seeds the internal split.
    n_jobs : int or None, default=None
        Parallel candidate fits.
    tree_kernel : bool, default=True
        True: when the model is a plain Gini ``DecisionTreeClassifier``
        (the default for classes) and the table is numeric with no missing
        value, candidates' trees are grown by featsieve's presorted CART kernel
        (``featsieve._cart``: the training columns argsorted once, candidates
        in threads); the trees are scikit-learn's except where two splits
        improve the Gini impurity exactly equally (the first in column order is
        taken; scikit-learn draws a column order from its ``random_state``).
        False: every candidate clones and fits the estimator (as GBMO's
        ``tree_kernel``, the switch of featsieve's own tree code).

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
    ranking_ : ndarray of int, shape (n_features_in_,)
        Order in which columns were added (1 = first); unselected columns share
        the worst rank.
    history_ : list of dict
        Per round: ``round``, ``added`` (name), ``score`` (validation score with
        it), ``n_candidates``, ``accepted``.
    selection_score_ : float
        The validation score of the final set: the number the selection
        optimized (seed 002: "the selection's own number").
    n_model_fits_ : int
    strategy_ : str
        The pre-screen used when ``max_candidates`` applied (empty otherwise).
    tree_kernel_ : {"presorted", "estimator"}
        What grew the candidates' models (``tree_kernel``).

    References
    ----------
    Seed 002 (002_2595f2849cd4c4da.txt), FS18 and ``wrapper_select``.
    """

    _missing = "model"  # NaN to the model when it takes NaN, else imputed (BaseSelector)

    _parameter_constraints = {
        "estimator": [HasMethods(["fit"]), None],
        "max_rounds": [Interval(numbers.Integral, 1, None, closed="left")],
        "scoring": [None, str, callable],
        "validation_fraction": [Interval(numbers.Real, 0, 1, closed="neither")],
        "tol": [Interval(numbers.Real, 0, None, closed="left"), None],
        "max_candidates": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "task": [StrOptions({"auto", "classification", "regression"})],
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
        "tree_kernel": ["boolean"],
    }
    _min_samples = 4

    def __init__(self, estimator=None, *, max_rounds=8, scoring=None, validation_fraction=0.4,
                 tol=0.0, max_candidates=None, task="auto", random_state=None, n_jobs=None,
                 tree_kernel=True):
        self.estimator = estimator
        self.tree_kernel = tree_kernel
        self.max_rounds = max_rounds
        self.scoring = scoring
        self.validation_fraction = validation_fraction
        self.tol = tol
        self.max_candidates = max_candidates
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs

    def estimate_cost(self, n_samples: int, n_features: int) -> Cost:
        """Fits of at most ``max_rounds`` rounds (one per candidate), each on the
        training share of ``n_samples`` rows and the round's columns, and their
        predictions of the validation rows (``n_samples`` counts train plus
        validation rows)."""
        d = n_features
        m = d if self.max_candidates is None else min(d, self.max_candidates)
        n_tr = n_samples * (1 - self.validation_fraction)
        n_va = n_samples - n_tr
        est = self.estimator
        if est is None:  # the default: a depth-6 tree
            est = default_tree("classification", max_depth=6)
        kind = search_model_kind(est, self.tree_kernel)
        fits, secs = 0, 0.0
        if m < d:
            fits, secs = 1, fit_seconds(kind, n_tr, d)
        for r in range(min(self.max_rounds, m)):
            fits += m - r
            secs += (m - r) * fit_seconds(kind, n_tr, r + 1)
        strategy = (f"candidates: the {m} most important of {d} columns" if m < d else "")
        return Cost(memory_bytes=8 * n_samples * d, fits=fits, fit_seconds=secs,
                    predictions=(fits - (m < d)) * n_va, model=kind, strategy=strategy)

    def _fit(self, X, y, X_val=None, y_val=None, groups=None):
        clf = self.task_ == "classification"
        if self.estimator is None:
            est = default_tree(self.task_, max_depth=6, random_state=0)
        else:
            est = self.estimator
        scorer = get_scorer(self.scoring or scorer_for(self.task_))
        if X_val is None:
            tr, va = holdout_split(len(y), y, self.validation_fraction, stratify=clf,
                                   random_state=check_random_state(self.random_state),
                                   groups=groups)
            X_tr, y_tr, X_va, y_va = X[tr], y[tr], X[va], y[va]
        else:
            X_va, y_va = self._validate_val(X_val, y_val)
            X_tr, y_tr = X, y
        names = self._fit_feature_names
        d = X.shape[1]
        chosen: list[int] = []
        best = 0.0 if clf else -np.inf
        history, fits = [], 0
        pool = list(range(d))
        self.strategy_ = ""
        if self.max_candidates is not None and d > self.max_candidates:
            screen = fit_model(est, X_tr, y_tr, categorical=self._fit_categorical)
            imp = model_importances(screen, X_tr, y_tr, random_state=0)
            pool = sorted(np.lexsort((np.arange(d), -imp))[: self.max_candidates].tolist())
            fits += 1
            self.strategy_ = (f"candidates: the {self.max_candidates} most important of {d} "
                              "columns (one model fit on the training rows)")
        cart = _presorted(est, self.tree_kernel, clf, self._fit_categorical, X_tr, y_tr, X_va)
        self.tree_kernel_ = "presorted" if cart is not None else "estimator"
        # the kernel releases the GIL: candidates in threads, in chunks
        parallel = Parallel(n_jobs=self.n_jobs, prefer="threads" if cart is not None else None)
        n_chunks = 4 * max(1, effective_n_jobs(self.n_jobs))
        for rnd in range(1, min(self.max_rounds, len(pool)) + 1):
            cands = [j for j in pool if j not in chosen]
            if cart is not None:
                acc = self.scoring in (None, "accuracy")
                parts = parallel(delayed(_grow_score)(cart, X_va, y_va, chosen, list(c),
                                                      None if acc else scorer)
                                 for c in np.array_split(np.asarray(cands), n_chunks) if len(c))
                scores = [sc for part in parts for sc in part]
            else:
                scores = parallel(
                    delayed(_fit_score)(est, X_tr, y_tr, X_va, y_va, chosen + [j], scorer,
                                        self._fit_categorical)
                    for j in cands
                )
            fits += len(cands)
            i = int(np.argmax(scores))  # first maximum: lowest column index
            accepted = self.tol is None or scores[i] > best + self.tol
            history.append({"round": rnd, "added": names[cands[i]], "score": float(scores[i]),
                            "n_candidates": len(cands), "accepted": bool(accepted)})
            if not accepted:
                break
            best = float(scores[i])
            chosen.append(cands[i])
        if not chosen:  # no column beats the empty start: keep the best single column
            chosen = [cands[i]]
            best = float(scores[i])
        support = np.zeros(d, dtype=bool)
        support[chosen] = True
        ranking = np.full(d, len(chosen) + 1, dtype=np.int64)
        ranking[chosen] = np.arange(1, len(chosen) + 1)
        self.support_, self.ranking_ = support, ranking
        self.history_, self.selection_score_, self.n_model_fits_ = history, best, fits
        return self

