"""FASTENER (seed 001, Algorithms 1-3) and POSS: the estimators over the search engine of ``_search``."""

from __future__ import annotations

import numbers
import warnings

import numpy as np
import pandas as pd
from joblib import Parallel
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._base import BaseSelector
from .._resources import ROWS_SEARCH, capped_rows
from .._utils import default_tree
from .._validation import FewerFeaturesWarning
from ..protocol import holdout_split
from ._bitset import from_bits, to_bits
from ._evaluator import SubsetEvaluator, evaluation_dtype, gather_rows, make_metric
from ._operators import (
    BitFlipMutation,
    EveryK,
    GenePurge,
    InformationGainCrossover,
    RandomMatingPool,
)
from ._search import FastenerStrategy, PossStrategy, SearchState, run_search

__all__ = ["FASTENER", "POSS"]

_SCORINGS = {"auto", "f1", "f1_macro", "f1_weighted", "accuracy", "neg_rmse", "neg_mse", "r2"}


#: The parameters every search of the family shares (see ``_COMMON_DOC``).
_SEARCH_CONSTRAINTS = {
    "scoring": [StrOptions(_SCORINGS), callable],
    "max_evaluations": [Interval(numbers.Integral, 1, None, closed="left"), None],
    "select": [StrOptions({"best", "plateau"}), Interval(numbers.Integral, 1, None,
                                                           closed="left")],
    "tol": [Interval(numbers.Real, 0, None, closed="left")],
    "auf_max_features": [Interval(numbers.Integral, 1, None, closed="left")],
    "validation_fraction": [Interval(numbers.Real, 0, 1, closed="neither")],
    "task": [StrOptions({"auto", "classification", "regression"})],
    "random_state": ["random_state"],
    "n_jobs": [numbers.Integral, None],
    "progress": ["boolean"],
    "max_samples": [Interval(numbers.Integral, 1, None, closed="left"), StrOptions({"auto"}),
                    None],
    "tree_kernel": ["boolean"],
}

_ZERO_IS_WORST = ("f1", "f1_macro", "f1_weighted", "accuracy")
_PREDICATE = [Interval(numbers.Integral, 0, None, closed="left"), "boolean", callable, None]


def _as_predicate(value):
    """An interval in generations (0/None/False: never, True: every one) or a predicate."""
    if value is None or isinstance(value, (bool, np.bool_)):
        return EveryK(1 if value else None)
    if isinstance(value, numbers.Integral):
        return EveryK(int(value) or None)
    return value


def _as_float_weights(w, what):
    try:
        return np.asarray(w, dtype=np.float64).ravel()
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} values that are not numbers: {exc}") from None


def _check_weights(w, what, where):
    """User-given crossover weights must be finite and >= 0 (all zero is allowed)."""
    problems = []
    for label, mask in (("NaN", np.isnan(w)), ("inf", np.isinf(w)),
                        ("negative", np.isfinite(w) & (w < 0))):
        if mask.any():
            at = np.flatnonzero(mask).tolist()
            problems.append(f"{mask.sum()} {label} values at {where} "
                            f"{at[:10]}{'...' if len(at) > 10 else ''}")
    if problems:
        raise ValueError(f"{what} {'; '.join(problems)}: weights must be finite and >= 0 "
                         "(all zero is allowed: the crossover then draws uniformly).")


class _GeneticSearch(BaseSelector):
    """Shared machinery: the split, the evaluator, the cache, the front, the result."""

    _missing = "model"  # NaN to the model when it takes NaN, else imputed (BaseSelector)

    _min_samples = 5
    _empty_initial_ok = False  # POSS starts from the empty set; FASTENER never evaluates it

    def _input_dtype(self):
        # a float32 table stays float32 when the model computes in float32 (the
        # default tree): no float64 copy of X is made by validation
        est = self.estimator
        if est is None or evaluation_dtype(est) == np.float32:
            return (np.float64, np.float32)
        return np.float64

    def _default_estimator(self, seed):
        """The model when ``estimator`` is None: a decision tree (§5.1)."""
        return default_tree(self.task_, random_state=seed)  # Gini, 2 samples to split

    # ------------------------------------------------------------- fit
    def _fit(self, X, y, X_val=None, y_val=None, groups=None):
        from threadpoolctl import threadpool_limits

        # parallelism is ours (items of a generation); native thread pools inside
        # the model and the MI estimator would only oversubscribe the cores
        with threadpool_limits(limits=1):
            state, scoring = self._new_search(X, y, X_val, y_val, groups)
            with Parallel(n_jobs=self.n_jobs, prefer="threads") as parallel:
                fitted = self._search(state, parallel)
        self._finish(state, scoring, fitted)
        return self

    def _search(self, state: SearchState, parallel) -> dict:  # pragma: no cover - abstract
        """Run the search on ``state``; returns the method's own fitted attributes."""
        raise NotImplementedError

    def _new_search(self, X, y, X_val, y_val, groups=None) -> tuple[SearchState, str]:
        """The split, the evaluator and an empty :class:`SearchState`, and the scoring's name.

        Without ``X_val`` the rows are split, each of ``groups`` kept on one side.

        Nothing is stored on the estimator: the state lives in ``fit``'s frame.
        """
        rs = check_random_state(self.random_state)
        rng = np.random.default_rng(rs.randint(0, 2**31 - 1))
        clf = self.task_ == "classification"
        if X_val is None:
            tr, va = holdout_split(len(y), y, self.validation_fraction, stratify=clf,
                                   random_state=int(rng.integers(2**31 - 1)), groups=groups)
        else:
            rng.integers(2**31 - 1)  # same stream whether or not X_val is given
        n_classes = len(self.classes_) if clf else 0
        metric, name = make_metric(self.scoring, self.task_, n_classes)
        tree_seed = int(rng.integers(2**31 - 1))
        est = self.estimator if self.estimator is not None else self._default_estimator(
            tree_seed)
        dtype = evaluation_dtype(est)
        caps = []
        if X_val is None:  # gather rows column by column: no float64 copy of the parts
            tr, va = self._cap(tr, y, caps, "training"), self._cap(va, y, caps, "selection-val")
            X_tr, y_tr = gather_rows(X, tr, dtype), y[tr]
            X_va, y_va = gather_rows(X, va, dtype), y[va]
        else:
            X_va, y_va = self._validate_val(X_val, y_val)
            X_tr, y_tr = X, y
            tr = self._cap(np.arange(len(y)), y, caps, "training")
            if len(tr) < len(y):
                X_tr, y_tr = gather_rows(X, tr, dtype), y[tr]
            va = self._cap(np.arange(len(y_va)), y_va, caps, "selection-val")
            if len(va) < len(y_va):
                X_va, y_va = X_va[va], y_va[va]
        self.strategy_ = "; ".join(caps)
        self.n_samples_used_ = int(len(y_tr))
        evaluator = SubsetEvaluator(est, X_tr, y_tr, X_va, y_va, metric, self.task_,
                                    tree_kernel=getattr(self, "tree_kernel", True))
        self.tree_kernel_ = evaluator.tree_kernel_
        # opt(k) of the AUF below the front's smallest item (§5.1 leaves it open): 0, the
        # worst F1 or accuracy, as the seed's figures read; for other scores the score of no
        # feature (majority class, training mean), so that -RMSE is not credited a perfect 0
        empty = 0.0 if name in _ZERO_IS_WORST else evaluator.fit_score(0)[0]
        budget = self.max_evaluations if self.max_evaluations is not None else np.inf
        return SearchState(evaluator, rng, budget=budget, empty_score=empty,
                           auf_max_features=self.auf_max_features,
                           name=type(self).__name__), name

    def _cap(self, idx, y, caps, what):
        """``idx`` capped at ``max_samples`` rows (a seeded, stratified subsample)."""
        rows, text = capped_rows(type(self).__name__, y[idx], self.max_samples,
                                 auto=ROWS_SEARCH, stratify=self.task_ == "classification",
                                 random_state=self.random_state,
                                 what=f"evaluations' {what} rows")
        if rows is None:
            return idx
        caps.append(text)
        return idx[rows]

    def _initial_items(self, d: int, weights=None) -> list[int]:
        init = self.initial
        if isinstance(init, str):
            if init == "empty":
                return [0]
            if init == "first":
                return [1]
            if init == "best_weight":
                return [1 << int(np.argmax(weights))]
            if init == "singletons":
                return [1 << j for j in range(d)]
        usable_idx = self._fit_index
        pos = {int(j): i for i, j in enumerate(usable_idx)}
        # column names are accepted when fit got a DataFrame (they name input columns)
        from_frame = (getattr(self, "feature_names_in_", None) is not None
                      or getattr(self, "_column_labels", None) is not None)
        names = {n: j for j, n in reversed(list(enumerate(self._all_feature_names)))}
        n_in = self.n_features_in_
        items, unknown, unusable, empty = [], [], [], []
        for k, cols in enumerate(init):
            if isinstance(cols, (str, numbers.Integral)):
                cols = [cols]
            try:
                cols = list(cols)
            except TypeError:
                cols = [cols]
            idx = []
            for c in cols:
                if isinstance(c, str) and from_frame and c in names:
                    j = names[c]
                elif (isinstance(c, numbers.Integral) and not isinstance(c, (bool, np.bool_))
                      and 0 <= int(c) < n_in):
                    j = int(c)
                else:
                    unknown.append(c)
                    continue
                if j not in pos:
                    unusable.append(c)
                else:
                    idx.append(pos[j])
            if not cols:
                empty.append(k)
            items.append(to_bits(idx))
        if unknown:
            what = (f"input column indices (0 to {n_in - 1}) or column names of X"
                    if from_frame else
                    f"input column indices (0 to {n_in - 1}); column names only when X is a "
                    "DataFrame")
            raise ValueError(f"initial has unknown entries {unknown[:20]}: items hold {what}.")
        if unusable:
            raise ValueError(
                f"initial refers to columns {unusable[:20]} that are constant or duplicated "
                f"(never selected); usable columns are {np.sort(usable_idx).tolist()[:20]}"
                f"{'...' if usable_idx.size > 20 else ''}.")
        if empty and not self._empty_initial_ok:
            raise ValueError(
                f"initial holds empty items (at positions {empty[:20]}); "
                f"{type(self).__name__} evaluates no empty item: give each at least one column.")
        if not items:
            raise ValueError("initial must hold at least one item.")
        return items

    # ----------------------------------------------------------- result
    def _finish(self, state: SearchState, scoring: str, fitted: dict) -> None:
        """Read the fitted attributes off the finished search's state."""
        names = self._fit_feature_names
        usable_idx = self._fit_index
        d = state.n_features
        rows = []
        for it in state.front.items():
            cols = from_bits(it.bits, d)
            in_cols = usable_idx[cols]
            rows.append({"size": int(cols.size), "score": float(it.score),
                         "features": tuple(names[c] for c in cols),
                         "columns": tuple(int(c) for c in in_cols),
                         "bits": to_bits(in_cols) if in_cols.size else 0,
                         "evaluation": int(it.evaluation)})
        front = pd.DataFrame(rows, columns=["size", "score", "features", "columns", "bits",
                                            "evaluation"])
        for key, value in fitted.items():
            setattr(self, key, value)
        self.scoring_ = scoring
        self.n_features_fit_ = d
        self.pareto_front_ = front
        self.front_history_ = state.front_history
        self.history_ = state.history
        self.n_evaluations_ = len(state.cache)
        self.n_model_fits_ = self.n_evaluations_ - (0 in state.cache)  # the empty item fits none
        self.n_cache_hits_ = state.n_hits
        self.n_permutation_predictions_ = state.n_predictions
        self.auf_ = state.auf(state.front.pairs())
        self.auf_empty_score_ = state.empty_score
        self.support_ = np.zeros(d, dtype=bool)
        self.selection_score_, self.selected_size_ = self._select(state, front)

    def _select(self, state: SearchState, front: pd.DataFrame) -> tuple[float, int]:
        """Set ``support_`` to the item ``select`` picks; its score and size."""
        d, chosen = state.n_features, self._choose(front)
        if chosen is not None:
            self.support_[from_bits(state.front[chosen].bits, d)] = True
            return float(state.front[chosen].score), int(chosen)
        if any(state.cache):  # only the empty set is on the front
            bits, score = max(((b, sc) for b, sc in state.cache.items() if b),
                              key=lambda p: (p[1], -p[0].bit_count(), -p[0]))
            self.support_[from_bits(bits, d)] = True
            warnings.warn(
                f"The Pareto front holds only the empty set (score {state.front[0].score:.4g}): "
                "no evaluated subset scored better than using no feature. support_ is the best "
                f"evaluated subset ({bits.bit_count()} features, score {score:.4g}); more "
                "generations or evaluations may find better ones.", FewerFeaturesWarning, stacklevel=5)
            return float(score), int(bits.bit_count())
        # only the empty set was evaluated: nothing is selected, it is the choice
        return (float(state.front[0].score) if 0 in state.front else np.nan), 0

    def _choose(self, front: pd.DataFrame):
        """Size of the front item ``select`` picks (None for an empty front)."""
        front = front[front["size"] > 0]
        if front.empty:
            return None
        sizes, scores = front["size"].to_numpy(), front["score"].to_numpy()
        best = scores.max()
        if self.select == "best":
            return int(sizes[np.flatnonzero(scores == best)[0]])
        if self.select == "plateau":
            return int(sizes[np.flatnonzero(scores >= best - self.tol)[0]])
        ok = sizes <= int(self.select)
        if not ok.any():
            return int(sizes[0])
        return int(sizes[ok][np.argmax(scores[ok])])

    def support_at(self, *, n_features: int) -> np.ndarray:
        """The front's best item of at most ``n_features`` columns (the tuning cut).

        On a Pareto front a larger item scores higher, so this is the largest
        item of at most ``n_features`` columns; the smallest item when every
        item is larger.

        Returns
        -------
        support : ndarray of bool, shape (n_features_in_,)
        """
        check_is_fitted(self, "pareto_front_")
        front = self.pareto_front_[self.pareto_front_["size"] > 0]
        if front.empty:
            return np.asarray(self.support_, dtype=bool).copy()
        sizes, scores = front["size"].to_numpy(), front["score"].to_numpy()
        ok = sizes <= int(n_features)
        size = int(sizes[0]) if not ok.any() else int(sizes[ok][np.argmax(scores[ok])])
        return self.front_support(size)

    def front_support(self, size: int) -> np.ndarray:
        """Boolean mask over the input columns of the front item of ``size``.

        Raises
        ------
        KeyError
            No item of that size on the front.
        """
        row = self.pareto_front_[self.pareto_front_["size"] == size]
        if row.empty:
            raise KeyError(f"No item of size {size} on the front; sizes are "
                           f"{self.pareto_front_['size'].tolist()}.")
        mask = np.zeros(self.n_features_in_, dtype=bool)
        mask[list(row["columns"].iloc[0])] = True
        return mask


_COMMON_DOC = """
    scoring : str or callable, default="auto"
        ``"auto"``: F1 of class 1 for two classes, macro F1 for more (seed 001
        §3, §5.1 use F1), ``-RMSE`` for regression (§7). Also ``"f1"``,
        ``"f1_macro"``, ``"f1_weighted"``, ``"accuracy"``, ``"neg_rmse"``,
        ``"neg_mse"``, ``"r2"`` or a callable ``(y_true, y_pred) -> float``
        (higher is better).
    max_evaluations : int or None, default=None
        Budget of model evaluations (fits); the run stops when it is spent
        (the last batch is cut to fit exactly). None: only ``n_generations``
        limits the run.
    select : {"plateau", "best"} or int, default="plateau"
        Which front item becomes ``support_``: ``"best"`` the highest score
        (ties: fewer features); ``"plateau"`` the smallest item whose score is
        within ``tol`` of the best (the seed's "the Pareto front plateaus",
        §3); an int ``k``: the best item with at most ``k`` features (the
        smallest item when none is that small).
    tol : float, default=0.01
        Tolerance of ``select="plateau"``, in score units.
    auf_max_features : int, default=20
        K of the area under the front recorded in ``history_`` (§5.1).
    validation_fraction : float, default=0.2
        When ``fit`` gets no ``X_val``: share of the rows held out (seeded,
        stratified for classes) to score items on (§5.1's 80:20).
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
        Seeds the split, the operators, the default tree and the permutations.
    n_jobs : int or None, default=None
        Evaluations of one generation run in parallel (joblib, threads
        preferred; a ``joblib.parallel_config`` backend overrides). Results are
        identical for any ``n_jobs``.
    progress : bool, default=False
        A progress bar over generations (terminal only).
    max_samples : int, "auto" or None, default=None
        Rows of each part (training, selection-validation) the evaluations
        read, for tall tables: None, every row (the seed's protocol); an int,
        a seeded subsample (stratified for classes) of that many rows of a
        part that has more; ``"auto"``, 20,000. Every evaluation then costs a
        fit on at most that many rows whatever the table's height; stated in
        a ``ScalableFormWarning`` and ``strategy_`` (``n_samples_used_``: the
        training rows used). ``featsieve compare`` uses ``"auto"``.
    tree_kernel : bool, default=True
        True: a plain Gini ``DecisionTreeClassifier`` (the default model
        for classes) is grown by featsieve's presorted CART kernel
        (``featsieve._cart``): the training columns are argsorted once per
        fit, and every evaluation grows scikit-learn's tree from those orders
        without sorting again; the trees are scikit-learn's except where two
        splits improve the Gini impurity exactly equally (the first in the
        item's column order is taken, where scikit-learn draws a column order
        from its ``random_state``). Other models, regression and tables with
        missing values fit the estimator. False: always clone and
        fit the estimator. ``tree_kernel_`` says which ran.
"""

_ATTR_DOC = """
    pareto_front_ : DataFrame
        One row per front item, by size: ``size``, ``score`` (on the
        selection-validation rows), ``features`` (names), ``columns`` (input
        column indices), ``bits`` (the subset as a little-endian int over input
        columns, §3), ``evaluation`` (index of the evaluation that found it).
    history_ : list of dict
        Per generation (0 = initial population): ``generation``,
        ``n_evaluations`` (so far), ``n_new``, ``cache_hits``, ``auf``,
        ``front_size``, ``best_score`` and the flags of that generation.
    front_history_ : list of list of (size, score)
        The front after every generation (for Figure 8-like plots).
    n_evaluations_ : int
        Distinct items evaluated; ``n_model_fits_`` is the same less one when
        the empty item (no model: majority class or mean) was among them.
    n_cache_hits_ : int
        Items met again and answered from the cache.
    auf_ : float
        AUF of the final front (K = ``auf_max_features``).
    auf_empty_score_ : float
        ``opt(k)`` used for sizes below the front's smallest item: 0 for F1
        and accuracy (their worst value), otherwise the selection-val score
        of no feature (majority class, or the training mean for regression).
    support_ : ndarray of bool, shape (n_features_in_,)
    selected_size_ : int
    selection_score_ : float
        Score of the chosen item on the selection-validation rows, in
        ``scoring_`` units. When the front holds only the empty set, the
        best evaluated non-empty subset is selected (with a UserWarning);
        when no non-empty subset was evaluated at all (POSS with
        ``n_generations=0`` or ``max_evaluations=1``), nothing is selected and
        this is the empty set's score on the front.
    scoring_ : str
    n_samples_used_ : int
        Training rows the evaluations were fitted on (``max_samples``).
    tree_kernel_ : {"presorted", "estimator"}
        What grew the models (``tree_kernel``).
    strategy_ : str
        The row subsamples of ``max_samples``, when drawn (empty otherwise).
"""


class FASTENER(_GeneticSearch):
    __doc__ = """FASTENER: entropy-guided genetic feature selection with a Pareto front.

    Algorithm 1 of seed 001: each generation draws a random mating pool from
    the population and mates every pair with the information-gain crossover
    (Algorithm 2), mutates the population and the children with bit flips of
    probability ``a/N``, evaluates the new items (fit on the training part,
    score on the selection-validation part; each bitset at most once), keeps
    at most ``max_bucket_size`` items per size in the population, updates the
    Pareto front ("best score per size", dominated items removed), purges the
    front with permutation importance on the stored models (Algorithm 3) and
    resets the population to the front on their predicates.

    Parameters
    ----------
    estimator : estimator or None, default=None
        The model fit for every item; None: a decision tree with the Gini
        criterion and at least two samples to split (§5.1).
    n_generations : int, default=50
        K of Algorithm 1.
    mating_pool : object or None, default=None
        ``select(population, rng) -> pool`` and ``pairs(pool)``;
        :class:`RandomMatingPool` (size 3, §5.1) when None.
    crossover : callable or None, default=None
        ``crossover(item1, item2, weights, rng) -> child``;
        :class:`InformationGainCrossover` with ``x -> floor(x/2) + 1`` when None.
    mutation : callable or None, default=None
        ``mutation(item, n_features, rng, generation) -> item``;
        :class:`BitFlipMutation` with ``a = 1`` when None.
    weights : "mi", callable or array-like, default="mi"
        Information gain per feature for the crossover: ``"mi"`` is
        scikit-learn's mutual information (k-NN estimator, nats) on the
        training part -- for classes computed by sorting
        (:func:`featsieve.genetic._mi.mutual_info_classif_sorted`: the same
        values as ``mutual_info_classif``, about 20 times faster); a callable
        ``(X, y) -> weights`` (called with the usable columns of the training
        part, one weight per column it gets); or one weight per input column.
        Given weights must be finite and >= 0, else ``fit`` raises
        ValueError naming the NaN, inf or negative entries; all zero is
        allowed (the crossover then draws uniformly).
    weights_max_samples : int or None, default=20000
        Rows (a seeded random subset of the training part) used for ``"mi"``;
        None uses all. The k-NN estimator costs O(n log n) per feature; on
        480,000 rows the full estimate takes minutes for a heuristic weight.
    initial : {"first", "best_weight", "singletons"} or list, default="first"
        Initial population: ``"first"`` is the item holding only the first
        usable column (the seed's run, §6.2: "the only item in the starting
        Pareto front"; for a DataFrame, first in the canonical order by
        label, so the start does not depend on the column order);
        ``"best_weight"`` the single column of highest weight;
        ``"singletons"`` every single column; or a list of items, each a list
        of input column indices or, when ``fit`` gets a DataFrame, column
        names (``[["f3", "f7"], [0]]``; a lone index or name is a
        one-column item). ``fit`` raises ValueError naming ``initial`` for
        unknown indices or names, for constant or duplicated columns (never
        selected), for an empty item and for an empty list.
    max_bucket_size : int, default=2
        Population items kept per size after evaluation (§6.1: buckets of 1
        and 2 worked best on the EO data; the reference code's default is 3,
        which did better on Isolet: see ``benchmarks/bench_fastener.py``).
    carry_front : bool, default=False
        Also mutate every front item in every generation (§5.1: "all items
        from the Pareto front were also carried over onto the next generation
        and mutated along with the newly created ones"). False follows
        Algorithm 1 as written, which is how we read that sentence: the front
        becomes the population at each reset (lines 13-14) and is mutated
        with the children of the next generation (line 6); the authors'
        reference code does the same. On Isolet at 1000
        evaluations True lowered the AUF (mean 0.557 against 0.572 on 7
        splits): mutating every front item each generation spends the budget
        on small steps around the front.
    reset_to_front : int, bool, callable or None, default=5
        Reset the population to the front every that many generations (or when
        ``reset_to_front(generation)`` is true); True: every generation; None,
        0 or False: never.
    purge_front : int, bool, callable or None, default=5
        Run Algorithm 3 every that many generations (or on the predicate);
        True, None, 0 and False as for ``reset_to_front``.
    gene_purge : callable or None, default=None
        ``gene_purge(genes, decrease, is_new, rng) -> gene or None``: which
        gene Algorithm 3 drops from a front item; :class:`GenePurge` (the
        gene whose shuffling costs least, line 13) when None.
""" + _COMMON_DOC + """
    Attributes
    ----------
    feature_weights_ : ndarray of shape (n_features_in_,)
        The crossover weights used (nats for ``"mi"``), per input column (0 for
        the columns that cannot be selected).
    n_permutation_predictions_ : int
        Predictions made by front purging (no fits).
""" + _ATTR_DOC + """
    Notes
    -----
    Choices where the seed is open (also in the closing note of issue 5):

    - The weights are the seed's (§3.3): scikit-learn's mutual information
      (k-NN estimator, 3 neighbours) of each feature on the training part,
      the same estimator on the same rows as the reference code (PyPI
      ``fastener`` 1.0.4); only the estimator's tie-breaking jitter is seeded
      differently, and the two estimates agree to a correlation of 0.998 on
      Isolet, as two seeds of either do. Rows beyond ``weights_max_samples``
      are subsampled (only on large tables).
    - Crossover draws the XOR genes *without replacement* (a gene cannot be
      added twice), weighted by plain mutual information (the reference code
      uses ``log1p(log1p(log1p(MI)))`` weights, draws with replacement, first
      adds the ``addNum`` highest-MI genes of the XOR -- available as
      ``InformationGainCrossover(top_first=True)`` -- and adds no gene when
      the parents have equal sizes).
    - The mating pool is drawn without replacement (two *different* items).
    - Front purging removes the gene whose permutation costs least (first such
      gene on ties) and evaluates the smaller item; it counts as an evaluation.
    - Empty items are never evaluated (the reference skips them too).
    - Models are kept only for items that enter the front (needed by the
      purge); an item whose score was not above the front when its batch was
      dispatched can never enter it, so its model is dropped at once.

    Memory: the training and validation parts once in float32 (trees) plus one
    ``(n_rows, |item|)`` block per running evaluation, plus one model per
    front item.

    References
    ----------
    Seed 001 (001_d348067f051b51fa.txt): Koprivec, Kenda, Šircelj, "FASTENER
    Feature Selection for Inference from Earth Observation Data", Entropy 22
    (2020) 1198; Algorithm 1 (main loop), Algorithm 2 (crossover), §3.2
    (mutation), Algorithm 3 (purging), §5.1 (setup, AUF).

    Examples
    --------
    >>> from featsieve import FASTENER
    >>> from featsieve.datasets import load_sonar
    >>> X, y = load_sonar(return_X_y=True)
    >>> sel = FASTENER(n_generations=10, random_state=0).fit(X, y)
    >>> int(sel.pareto_front_["size"].min())
    1
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_generations": [Interval(numbers.Integral, 0, None, closed="left")],
        "mating_pool": [HasMethods(["select", "pairs"]), None],
        "crossover": [callable, None],
        "mutation": [callable, None],
        "weights": [StrOptions({"mi"}), callable, "array-like"],
        "weights_max_samples": [Interval(numbers.Integral, 10, None, closed="left"), None],
        "initial": [StrOptions({"first", "best_weight", "singletons"}), list],
        "max_bucket_size": [Interval(numbers.Integral, 1, None, closed="left")],
        "carry_front": ["boolean"],
        "reset_to_front": _PREDICATE,
        "purge_front": _PREDICATE,
        "gene_purge": [callable, None],
        **_SEARCH_CONSTRAINTS,
    }

    def __init__(self, estimator=None, *, n_generations=50, mating_pool=None, crossover=None,
                 mutation=None, weights="mi", weights_max_samples=20000, initial="first",
                 max_bucket_size=2, carry_front=False, reset_to_front=5, purge_front=5,
                 gene_purge=None, scoring="auto", max_evaluations=None, select="plateau", tol=0.01,
                 auf_max_features=20, validation_fraction=0.2, task="auto", random_state=None,
                 n_jobs=None, progress=False, max_samples=None, tree_kernel=True):
        self.max_samples = max_samples
        self.tree_kernel = tree_kernel
        self.estimator = estimator
        self.n_generations = n_generations
        self.mating_pool = mating_pool
        self.crossover = crossover
        self.mutation = mutation
        self.weights = weights
        self.weights_max_samples = weights_max_samples
        self.initial = initial
        self.max_bucket_size = max_bucket_size
        self.carry_front = carry_front
        self.reset_to_front = reset_to_front
        self.purge_front = purge_front
        self.gene_purge = gene_purge
        self.scoring = scoring
        self.max_evaluations = max_evaluations
        self.select = select
        self.tol = tol
        self.auf_max_features = auf_max_features
        self.validation_fraction = validation_fraction
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.progress = progress

    # ----------------------------------------------------------- weights
    def _weights(self, X_tr, y_tr, rng):
        w = self.weights
        seed = int(rng.integers(2**31 - 1))
        if isinstance(w, str):  # "mi"
            from sklearn.feature_selection import mutual_info_regression

            from ._mi import mutual_info_classif_sorted

            n = len(y_tr)
            rows = np.arange(n)
            if self.weights_max_samples is not None and n > self.weights_max_samples:
                rows = np.sort(np.random.default_rng(seed).choice(
                    n, size=self.weights_max_samples, replace=False))
            Xw = np.asarray(X_tr[rows], dtype=np.float64)
            holes = np.isnan(Xw)
            if holes.any():  # the weights only: a missing value counts as the column's median
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN column
                    med = np.nan_to_num(np.nanmedian(Xw, axis=0))
                Xw = np.where(holes, med, Xw)
            if self.task_ == "classification":
                # scikit-learn's estimator (the seed's, §3.3), same values, by sorting
                out = mutual_info_classif_sorted(Xw, y_tr[rows], random_state=seed)
            else:
                out = mutual_info_regression(Xw, y_tr[rows], random_state=seed,
                                             n_jobs=self.n_jobs)
        elif callable(w):
            out = _as_float_weights(w(X_tr, y_tr), "weights(X, y) returned")
            if out.shape != (X_tr.shape[1],):
                raise ValueError(f"weights(X, y) returned shape {out.shape}; expected "
                                 f"({X_tr.shape[1]},), one per usable column.")
            _check_weights(out, "weights(X, y) returned", "positions")
            return out
        else:
            out = _as_float_weights(w, "weights has")
            if out.shape != (self.n_features_in_,):
                raise ValueError(f"weights has shape {out.shape}; expected "
                                 f"({self.n_features_in_},), one per input column.")
            _check_weights(out, "weights has", "columns")
            return out[self._fit_index]
        # "mi": computed, finite; clipping only removes the estimator's tiny negatives
        out = np.asarray(out, dtype=np.float64).ravel()
        return np.clip(np.nan_to_num(out, nan=0.0), 0, None)

    # ---------------------------------------------------------- search
    def _search(self, state, parallel):
        ev = state.evaluator
        # a bad ``initial`` fails before the weights are estimated (no random draws)
        init = None if self.initial == "best_weight" else self._initial_items(ev.n_features)
        weights = self._weights(ev.X_train, ev.y_train, state.rng)
        if init is None:
            init = self._initial_items(ev.n_features, weights)
        strategy = FastenerStrategy(
            mating_pool=self.mating_pool if self.mating_pool is not None else RandomMatingPool(3),
            crossover=self.crossover if self.crossover is not None else InformationGainCrossover(),
            mutation=self.mutation if self.mutation is not None else BitFlipMutation(1.0),
            gene_purge=self.gene_purge if self.gene_purge is not None else GenePurge(),
            weights=weights, max_bucket_size=self.max_bucket_size, carry_front=self.carry_front,
            reset=_as_predicate(self.reset_to_front), purge=_as_predicate(self.purge_front))
        run_search(strategy, state, init, n_generations=self.n_generations, parallel=parallel,
                   progress=self.progress)
        return {"feature_weights_": self._to_input_columns(weights, 0.0)}


class POSS(_GeneticSearch):
    __doc__ = """POSS: Pareto optimization for subset selection (mutation only).

    The baseline of seed 001 (its ref. [11]: Qian, Yu, Zhou, NeurIPS 2015):
    an archive of non-dominated items; each iteration picks an archive item
    uniformly at random, flips each of its bits with probability ``a/N``,
    evaluates the offspring and puts it in the archive unless an archive item
    dominates it (removing the items it dominates). The archive is the same
    :class:`ParetoFront` FASTENER keeps, and items are scored by the same
    evaluator (fit on train, score on selection-validation, cached).

    Parameters
    ----------
    estimator : estimator or None, default=None
        As for :class:`FASTENER`.
    n_generations : int, default=500
        Iterations; each makes ``batch_size`` offspring.
    batch_size : int, default=1
        Offspring per iteration (1 is the original sequential POSS; more
        lets one iteration's evaluations run in parallel).
    mutation : callable or None, default=None
        :class:`BitFlipMutation` with ``a = 1`` when None.
    initial : {"empty", "first"} or list, default="empty"
        POSS starts from the empty set (scored as the majority-class/mean
        predictor); ``"first"`` or a list as in :class:`FASTENER`, except that
        an empty item is allowed (``[[]]`` is the same start as ``"empty"``).
    max_size : int or None, default=None
        Offspring larger than this are discarded unevaluated (POSS's
        ``|x| >= 2k`` infeasibility); None: no limit.
""" + _COMMON_DOC + """
    Attributes
    ----------
""" + _ATTR_DOC + """
    Notes
    -----
    On equal size and score the archive keeps the incumbent (POSS proper
    replaces it); with cached, deterministic evaluations the difference only
    changes which of two equally good subsets is reported.

    References
    ----------
    Seed 001 §2.1, §5.3 (POSS as the EO baseline); C. Qian, Y. Yu, Z.-H. Zhou,
    "Subset selection by Pareto optimization", NeurIPS 2015, Algorithm 1.
    """

    _empty_initial_ok = True

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "n_generations": [Interval(numbers.Integral, 0, None, closed="left")],
        "batch_size": [Interval(numbers.Integral, 1, None, closed="left")],
        "mutation": [callable, None],
        "initial": [StrOptions({"empty", "first"}), list],
        "max_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
        **_SEARCH_CONSTRAINTS,
    }

    def __init__(self, estimator=None, *, n_generations=500, batch_size=1, mutation=None,
                 initial="empty", max_size=None, scoring="auto", max_evaluations=None,
                 select="plateau", tol=0.01, auf_max_features=20, validation_fraction=0.2,
                 task="auto", random_state=None, n_jobs=None, progress=False,
                 max_samples=None, tree_kernel=True):
        self.max_samples = max_samples
        self.tree_kernel = tree_kernel
        self.estimator = estimator
        self.n_generations = n_generations
        self.batch_size = batch_size
        self.mutation = mutation
        self.initial = initial
        self.max_size = max_size
        self.scoring = scoring
        self.max_evaluations = max_evaluations
        self.select = select
        self.tol = tol
        self.auf_max_features = auf_max_features
        self.validation_fraction = validation_fraction
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.progress = progress

    def _search(self, state, parallel):
        d = state.n_features
        strategy = PossStrategy(
            mutation=self.mutation if self.mutation is not None else BitFlipMutation(1.0),
            batch_size=self.batch_size, max_size=self.max_size if self.max_size is not None else d)
        run_search(strategy, state, self._initial_items(d), n_generations=self.n_generations,
                   parallel=parallel, progress=self.progress)
        return {}
