"""Training-free feature selection with binary feature masks: GBMO and FLBMO.

Seed: ``000_dd912381c0e6a8a4.txt`` (Lorasdağı, Turalı & Kozat, "Binary Feature
Mask Optimization for Feature Selection"). A model is fitted once on a
training split (or given already fitted); features are then eliminated one
at a time by *masking* them in a selection-validation split: a masked column
takes a constant value (the Hadamard product of §3 and Appendix A is the
constant 0) while the model still sees all M columns. Each iteration removes
the least useful feature, the one whose masking gives the lowest validation
loss (Algorithm 1, SLUF, eq. 12-13). GBMO (Algorithm 2) stops the first time
``Loss_t > Loss_{t-1} (1 + mu)`` with ``Loss_0 = inf``; FLBMO (Algorithm 3)
stops when ``eta`` features remain.

The order of elimination does not depend on ``mu`` or ``eta``: both only say
where to stop on one path. :meth:`GBMO.support_at` reads the support for
any ``mu`` or ``eta`` from a fitted path, which is how ``featsieve compare``
tunes ``mu`` over {0.00025, 0.001, 0.01, 0.05} and ``eta`` over
{M/6, M/5, M/4, M/2} (§4.2) from a single path.

Speed: the |J| masked copies of the validation rows of one iteration are
stacked and predicted in one call per chunk (chunks bound the memory), chunks
run in parallel through joblib (threads preferred: tree and BLAS predictions
release the GIL), and the work is counted (``n_model_fits_``,
``n_predict_calls_``, ``n_candidates_evaluated_``). For LightGBM and
scikit-learn tree models the copies are evaluated by a compiled tree kernel
(:mod:`featsieve.mask._tree_kernel`, ``tree_kernel=True``) that re-descends only
the trees splitting on the masked column; the model itself settles near-ties,
so the path is the same as through ``predict``.
"""

from __future__ import annotations

import logging
import numbers

import numpy as np
from joblib import Parallel
from sklearn.metrics import get_scorer
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import HasMethods, Interval, StrOptions
from sklearn.utils.validation import check_is_fitted

from .._base import BaseSelector
from .._resources import ROWS_MASKED, capped_rows
from .._validation import N_FEATURES_CONSTRAINT, check_same_columns
from ..models import fit_model
from ..protocol import holdout_split
from ._losses import _Loss, _make_loss, _Replay
from ._sluf import (
    _MAX_BATCH_BYTES,
    PredictCandidates,
    TreeKernelCandidates,
    _as_model_input,
    sluf_path,
    tree_kernel_candidates,
    unused_columns,
)
from ._stop import SizeStop, SlackStop, stop_rule

__all__ = ["GBMO", "FLBMO", "MU_GRID"]

logger = logging.getLogger(__name__)

#: The slack grid of seed 000 Table 3.
MU_GRID = (0.00025, 0.001, 0.01, 0.05)


# ---------------------------------------------------------------- base
_COMMON_DOC = """
    estimator : estimator
        Any scikit-learn compatible model with ``fit`` and ``predict``
        (``predict_proba`` for the default classification loss). Cloned and
        fitted once on the training part, unless ``prefit``.
    prefit : bool, default=False
        The ``estimator`` is already fitted: it is used as is (never refit,
        ``n_model_fits_ == 0``) and ``fit(X, y)`` receives the
        selection-validation data.
    mask_value : {"zero", "mean"} or array-like of shape (n_features,), default="zero"
        The constant a masked column takes. ``"zero"`` is the seed's Hadamard
        product (§3, Appendix A); it is only meaningful when 0 is a neutral
        value of every column, e.g. standardized or min-max scaled data. On
        unscaled data (prices, counts, years) a zero is an outlier the model
        never saw; use ``"mean"``: the training mean of each column (with
        ``prefit``, the mean of the validation data given to ``fit``), or
        give one value per column. Categorical columns (real tables) are
        masked as *missing* under ``"zero"`` and ``"mean"`` (a code or a mean
        code would be an arbitrary category): NaN for a model that takes NaN
        (LightGBM, which then reads the column natively as missing;
        scikit-learn trees), otherwise the missing-value category the
        imputation gives them (code ``k``, one past the training categories).
    loss : None, str, scorer or callable, default=None
        The validation loss (lower is better). None: mean squared error for
        regression, log loss for classification (seed §4). Built in:
        ``"mse"``, ``"mae"``, ``"log_loss"``, ``"zero_one"`` (error rate; pass
        it for classifiers without ``predict_proba``, for which the default
        log loss raises a ``ValueError`` saying so). Any other string
        is a scikit-learn scorer name; a scorer object (``make_scorer``) is
        accepted too; the loss is minus the score. A plain callable is called
        as ``loss(y_true, y_out)`` with ``y_out`` the ``predict_proba`` output
        for classifiers that have it (columns in ``classes_`` order), else the
        ``predict`` output.
    validation_fraction : float in (0, 1), default=0.4
        When ``fit`` gets no ``X_val``: share of its rows held out for
        selection (seeded, stratified for classes). 0.4 is the seed's 30% of
        the 75% that training and selection-validation share (§4.1).
    batch_size : int or None, default=None
        Masked copies predicted per model call. None: as many as fit in 64 MiB
        (``batch_size * n_val_rows * n_features * 8`` bytes). The chunks never
        depend on ``n_jobs``, so the result is the same for any ``n_jobs``.
    skip_unused : bool, default=True
        Do not predict the copies that mask a column the model provably never
        reads (:func:`unused_columns`: LightGBM, scikit-learn trees and tree
        ensembles, linear models with zero coefficients); their loss is the
        current loss. Exact: the path is the same as with False.
    tree_kernel : bool, default=True
        For LightGBM models and scikit-learn decision trees and random /
        extra-trees forests, evaluate the masked copies with featsieve's
        compiled tree kernel (:mod:`featsieve.mask._tree_kernel`) instead of the
        model's ``predict``: only the trees that split on the masked column
        are re-descended (LightGBM's numerical and categorical splits: a text
        column masked to missing takes the kernel too). The kernel reaches the
        same leaves as the library,
        so its outputs equal the model's to rounding; the model itself
        settles candidates whose losses are within a relative 1e-9 of the
        best, so the path is the one of ``tree_kernel=False``. The kernel is
        used only after it reproduced the model's outputs on the unmasked
        rows, and with categorical splits also on a copy with those columns
        masked (``tree_kernel_`` says whether it was); other models always
        predict through the model.
    task : {"auto", "classification", "regression"}, default="auto"
    random_state : int, RandomState or None, default=None
        Seeds the internal train / selection-validation split.
    n_jobs : int or None, default=None
        Chunks of masked copies predicted in parallel (joblib, threads
        preferred; ``joblib.parallel_config`` can change the backend).
    max_samples : int, "auto" or None, default="auto"
        Selection-validation rows the masked copies are predicted on (tall
        tables): ``"auto"``, a seeded subsample (stratified for classes) of
        50,000 rows when there are more; an int, that many; None, every row.
        The model is still fitted on every training row. The path costs
        ``M (M + 1) / 2`` masked copies of these rows, so the cap bounds it by
        the columns alone; stated in a ``ScalableFormWarning`` and
        ``strategy_``."""

_COMMON_ATTRS = """
    support_ : ndarray of bool, shape (n_features_in_,)
    ranking_ : ndarray of int, shape (n_features_in_,)
        1 for selected features; eliminated features rank by elimination,
        the first one eliminated last (as in scikit-learn's RFE).
    estimator_ : fitted estimator
        The model the masks were evaluated on (the given one with ``prefit``).
    path_ : dict of ndarray
        The elimination path, one entry per SLUF iteration that was run:
        ``iteration`` (t, 1-based), ``feature`` (name of ``j_t^*``), ``index``
        (its column in the input), ``loss`` (``Loss_t^min``, eq. 13),
        ``n_remaining`` (features left once ``j_t^*`` is masked),
        ``accepted`` (whether this selector's rule kept the elimination; only
        GBMO's last iteration can be rejected). Loads directly into a
        DataFrame. Every other attribute about the path is read from it.
    history_ : list of dict
        A view of ``path_``, per iteration of this selector's own run: ``iteration``,
        ``n_remaining`` (after the iteration's decision), ``feature``
        (removed, or for a rejected iteration the one that would have been),
        ``loss`` (``Loss_t^min``) and ``accepted``.
    base_loss_ : float
        Validation loss with no feature masked.
    selection_loss_ : float
        Validation loss of the final mask (the number the selection minimized).
    mask_values_ : ndarray of shape (n_features_in_,)
        The constant each column takes when masked.
    loss_ : str
        Name of the loss used.
    n_model_fits_ : int
        1, or 0 with ``prefit``.
    n_predict_calls_ : int
        Model prediction calls spent (batched: one per chunk and iteration,
        plus one for ``base_loss_``).
    n_candidates_evaluated_ : int
        Masked copies evaluated, ``sum_t |J_t|``: the prediction calls (per
        response method) one call per candidate would have cost.
    n_copies_predicted_ : int
        Masked copies whose outputs were computed, by the model or by the
        tree kernel (fewer than ``n_candidates_evaluated_`` with
        ``skip_unused``).
    tree_kernel_ : bool
        Whether the masked copies were evaluated by the tree kernel.
    n_samples_used_ : int
        Selection-validation rows the masked copies were predicted on.
    strategy_ : str
        The subsample of those rows (``max_samples``), when one was drawn."""


class _MaskEliminationBase(BaseSelector):
    """Backward elimination by masking on one fitted model (seed 000 §3).

    The engine is :func:`~featsieve.mask._sluf.sluf_path` over a candidate
    evaluator (batched predictions or the compiled tree kernel); a subclass
    only names its stop rule (:meth:`_stop_rule`: GBMO's slack, FLBMO's size).
    Every fitted attribute about the path is read from ``path_``.
    """

    _missing = "model"  # NaN to the model when it takes NaN, else imputed (BaseSelector)

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "predict"])],
        "prefit": ["boolean"],
        "mask_value": [StrOptions({"zero", "mean"}), "array-like"],
        "loss": [None, str, callable],
        "validation_fraction": [Interval(numbers.Real, 0, 1, closed="neither")],
        "batch_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "skip_unused": ["boolean"],
        "tree_kernel": ["boolean"],
        "task": [StrOptions({"auto", "classification", "regression"})],
        "random_state": ["random_state"],
        "n_jobs": [numbers.Integral, None],
        "max_samples": [Interval(numbers.Integral, 1, None, closed="left"),
                        StrOptions({"auto"}), None],
    }
    _min_samples = 4

    @property
    def _drop_constant(self):
        # a prefit model was trained on every column, so it must be given every column
        return not self.prefit

    def _stop_rule(self, n_features: int):  # pragma: no cover - abstract
        """This selector's own :class:`SlackStop` or :class:`SizeStop`."""
        raise NotImplementedError

    # -------------------------------------------------------------- fit
    def fit(self, X, y, X_val=None, y_val=None, *, sample_weight=None, groups=None,
            **fit_params):
        """Fit the model once (unless ``prefit``) and run the masked elimination.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Training rows (split into training and selection-validation parts
            unless ``X_val`` is given); with ``prefit``, the
            selection-validation rows.
        y : array-like of shape (n_samples,)
        X_val, y_val : array-like, optional
            Explicit selection-validation data (not with ``prefit``).
        sample_weight : array-like of shape (n_samples,) or None, default=None
            Row weights: the model is fitted with them (its ``fit(...,
            sample_weight=)``) and the loss on the selection-validation rows
            is their weighted mean (a scorer ``loss`` gets them as its
            ``sample_weight``; a callable ``loss`` refuses them). Explicit
            ``X_val`` rows are unweighted; with ``prefit`` the weights are
            those of the selection-validation rows ``X``.
        groups : array-like of shape (n_samples,) or None, default=None
            Group labels: the split into training and selection-validation
            rows keeps each group on one side (``GroupShuffleSplit``).

        Returns
        -------
        self : object

        Raises
        ------
        ValueError
            Bad input; ``X_val`` with ``prefit``; an unfitted ``estimator``
            with ``prefit``; log loss for a model without ``predict_proba``; a
            ``mask_value`` vector of the wrong length; ``X_val`` or (with
            ``prefit``) ``X`` whose column names differ from those the model
            was trained on, or come in another order.

        Notes
        -----
        The model is given NumPy arrays of the usable columns (constant and
        duplicate columns removed), not DataFrames, in the canonical column
        order (:meth:`BaseSelector._canonical_order`; the given order with
        ``prefit``); a pipeline that picks columns by name needs ``prefit=True``.
        """
        if self.prefit and hasattr(X, "columns"):
            trained = getattr(self.estimator, "feature_names_in_", None)
            if trained is not None:
                check_same_columns(list(trained), list(X.columns), "X", "the prefit estimator",
                                   "X[list(estimator.feature_names_in_)]")
        return super().fit(X, y, X_val=X_val, y_val=y_val, sample_weight=sample_weight,
                           groups=groups, **fit_params)

    def _canonical_order(self) -> bool:
        """A prefit model reads the columns in the order it was trained on."""
        return not self.prefit

    def _fit(self, X, y, X_val=None, y_val=None, sample_weight=None, groups=None):
        d = X.shape[1]
        # check the loss suits the task and the model before any fitting
        _make_loss(self.loss, task=self.task_, model=self.estimator, labels=y, n_rows=len(y),
                   weights=sample_weight)
        model, X_ref, Xv, labels, fits, w_sel = self._model_and_rows(X, y, X_val, y_val,
                                                                     sample_weight, groups)
        rows, self.strategy_ = capped_rows(
            type(self).__name__, labels, self.max_samples, auto=ROWS_MASKED,
            stratify=self.task_ == "classification", random_state=self.random_state,
            what="masked copies predicted")
        if rows is not None:
            Xv, labels = Xv[rows], labels[rows]
            w_sel = None if w_sel is None else np.asarray(w_sel)[rows]
        self.n_samples_used_ = int(Xv.shape[0])
        fill = self._fill_values(X_ref, d)
        loss = _make_loss(self.loss, task=self.task_, model=model, labels=labels,
                          n_rows=len(labels), weights=w_sel)
        base, outputs, base_calls = self._base_loss(model, Xv, labels, loss)
        candidates, check_calls = self._candidates(model, Xv, labels, fill, loss, outputs)
        rule = self._stop_rule(d)
        with Parallel(n_jobs=self.n_jobs, prefer="threads") as parallel:
            order, losses = sluf_path(candidates, rule, d, base, parallel)
        n_removed = rule.n_removed(losses, d)
        self._set_path(order, losses, n_removed)
        self.support_ = np.ones(d, dtype=bool)
        self.support_[order[:n_removed]] = False
        self.ranking_ = np.ones(d, dtype=np.int64)
        self.ranking_[order[:n_removed]] = np.arange(n_removed + 1, 1, -1)
        self.estimator_ = model
        self.base_loss_ = float(base)
        self.selection_loss_ = float(losses[n_removed - 1]) if n_removed else float(base)
        self.mask_values_ = np.zeros(self._usable.shape[0])
        self.mask_values_[self._fit_index] = fill
        self.loss_ = loss.name
        self.n_model_fits_ = fits
        self.n_predict_calls_ = base_calls + check_calls + candidates.n_calls
        self.n_copies_predicted_ = candidates.n_copies
        self.tree_kernel_ = isinstance(candidates, TreeKernelCandidates)
        return self

    def _model_and_rows(self, X, y, X_val, y_val, sample_weight=None, groups=None):
        """The model and the rows SLUF reads.

        Returns ``(model, X_ref, X_sel, y_sel, n_fits, w_sel)``: the fitted
        model, the rows ``mask_value="mean"`` averages, the selection-validation
        rows and their targets (labels as the model knows them), the fits spent
        and the selection-validation rows' weights (None: unweighted). The model
        is fitted with ``sample_weight`` of its rows; the split keeps ``groups``
        whole; explicit ``X_val`` rows are unweighted.
        """
        sw = sample_weight
        if self.prefit:
            if X_val is not None or y_val is not None:
                raise ValueError(
                    "With prefit=True the estimator is already trained: pass the "
                    "selection-validation data as fit(X, y), not as X_val/y_val."
                )
            check_is_fitted(self.estimator)
            n_in = getattr(self.estimator, "n_features_in_", X.shape[1])
            if n_in != X.shape[1]:
                raise ValueError(
                    f"The prefit estimator expects {n_in} features; X has {X.shape[1]}.")
            labels = self.classes_[y] if self.task_ == "classification" else y
            return self.estimator, X, X, labels, 0, sw
        w_tr = w_sel = None
        if X_val is None:
            rng = check_random_state(self.random_state)
            tr, va = holdout_split(len(y), y, self.validation_fraction,
                                   stratify=self.task_ == "classification", random_state=rng,
                                   groups=groups)
            X_tr, y_tr, Xv, yv = X[tr], y[tr], X[va], y[va]
            if sw is not None:
                w_tr, w_sel = sw[tr], sw[va]
        else:
            Xv, yv = self._validate_val(X_val, y_val)
            X_tr, y_tr, w_tr = X, y, sw
        model = fit_model(self.estimator, X_tr, y_tr, categorical=self._fit_categorical,
                          sample_weight=w_tr)
        return model, X_tr, Xv, yv, 1, w_sel

    def _base_loss(self, model, Xv, labels, loss: _Loss):
        """The loss with no column masked, the outputs it read and the calls spent.

        A scorer loss learns here which response methods it reads (its
        outputs are then not kept: the scorer called the model itself).
        """
        if not loss.methods:  # a scorer: learn which outputs it reads, on the unmasked rows
            rec = _Replay(model, record=True)
            w = loss.block.weights if hasattr(loss.block, "weights") else None
            base = -float(_score(self.loss, rec, _as_model_input(model, Xv), labels, w))
            loss.methods = tuple(dict.fromkeys(rec._asked))
            return base, None, len(rec._asked)
        Xin = _as_model_input(model, Xv)
        outputs = {m: getattr(model, m)(Xin) for m in loss.methods}
        return loss.values(outputs, labels, 1)[0], outputs, len(loss.methods)

    def _candidates(self, model, Xv, labels, fill, loss, outputs):
        """The compiled tree kernel where it applies and agrees with the model, else predict.

        Returns the candidate evaluator and the prediction calls spent checking the kernel.
        """
        d = Xv.shape[1]
        skip = unused_columns(model, d) if self.skip_unused else None
        calls = 0
        if self.tree_kernel:
            kernel, calls = tree_kernel_candidates(model, Xv, labels, fill, loss, outputs,
                                                   task=self.task_, skip=skip)
            if kernel is not None:
                return kernel, calls
        chunk = (int(self.batch_size) if self.batch_size is not None
                 else max(1, _MAX_BATCH_BYTES // max(1, Xv.shape[0] * d * 8)))
        return PredictCandidates(model, Xv, labels, fill, loss, chunk=chunk, skip=skip), calls

    def _fill_values(self, X_ref, d):
        mv = self.mask_value
        if isinstance(mv, str) and mv in ("zero", "mean"):
            fill = np.zeros(d) if mv == "zero" else np.nanmean(X_ref, axis=0) if np.isnan(
                X_ref).any() else X_ref.mean(axis=0)
            cat = self._fit_categorical
            if cat.any():  # a categorical column masked is missing (see mask_value)
                usable = self._fit_index  # input column of each fit column (canonical order)
                fill[cat] = np.nan if self._missing_strategy() == "native" else [
                    len(self.columns_.categories[usable[j]]) for j in np.flatnonzero(cat)]
            return fill
        vec = np.asarray(mv, dtype=np.float64).ravel()
        if vec.shape != (self.n_features_in_,):
            raise ValueError(
                f"mask_value has {vec.size} values; expected one per input column "
                f"({self.n_features_in_}).")
        if not np.isfinite(vec).all():
            raise ValueError("mask_value contains NaN or infinity.")
        return vec[self._fit_index]

    # ------------------------------------------------------- reading the path
    def _set_path(self, order, losses, n_removed):
        """``path_``: the one record of the elimination; every other view reads it."""
        names = np.asarray(self._fit_feature_names, dtype=object)
        usable_idx = self._fit_index
        d, T = len(names), len(order)
        self.path_ = {
            "iteration": np.arange(1, T + 1),
            "feature": names[order] if T else np.array([], dtype=object),
            "index": usable_idx[order] if T else np.array([], dtype=np.int64),
            "loss": losses,
            "n_remaining": d - np.arange(1, T + 1),
            "accepted": np.arange(T) < n_removed,
        }

    @property
    def _n_path_features(self) -> int:
        """Columns the path started from (the usable ones)."""
        return int(self._usable.sum())

    def _n_removed_on_path(self, rule) -> int:
        return rule.n_removed(self.path_["loss"], self._n_path_features)

    @property
    def n_candidates_evaluated_(self) -> int:
        """Masked copies evaluated, ``sum_t |J_t|`` (read from ``path_``)."""
        check_is_fitted(self, "path_")
        return int(self.path_["n_remaining"].sum() + len(self.path_["n_remaining"]))

    @property
    def history_(self) -> list:
        """Every iteration of this selector's own run, read from ``path_`` (see :meth:`history_for`)."""
        check_is_fitted(self, "path_")
        n = len(self.path_["loss"])
        return self._history(int(self.path_["accepted"].sum()), n)

    def support_at(self, *, slack=None, n_features=None) -> np.ndarray:
        """The support GBMO (``slack``) or FLBMO (``n_features``) gives on this path.

        The elimination order of SLUF does not depend on ``mu`` or ``eta``
        (seed 000 §3.1-3.2): both only decide where to stop. So one fitted
        path serves every ``mu`` up to this selector's own (for GBMO; the stop
        iteration grows with ``mu``) and every ``eta`` down to the smallest
        size the path reached.

        Parameters
        ----------
        slack : float or None
            ``mu`` of Algorithm 2.
        n_features : int or None
            ``eta`` of Algorithm 3.

        Returns
        -------
        support : ndarray of bool, shape (n_features_in_,)

        Raises
        ------
        ValueError
            Neither or both given, or the fitted path is too short to answer
            (refit with a larger ``slack`` or a smaller ``n_features_to_select``).
        """
        check_is_fitted(self, "path_")
        n_removed = self._n_removed_on_path(stop_rule(slack=slack, n_features=n_features))
        support = np.zeros(self.n_features_in_, dtype=bool)
        support[self._usable] = True
        support[self.path_["index"][:n_removed]] = False
        return support & ~self.constant_features_

    def history_for(self, *, slack=None, n_features=None) -> list:
        """The ``history_`` GBMO (``slack``) or FLBMO (``n_features``) would record.

        Read from the fitted path like :meth:`support_at` (same parameters
        and errors). For GBMO the last entry is the rejected iteration, unless
        the path ran down to one feature.

        Returns
        -------
        history : list of dict
            ``iteration``, ``n_remaining``, ``feature``, ``loss``, ``accepted``.
        """
        check_is_fitted(self, "path_")
        rule = stop_rule(slack=slack, n_features=n_features)
        n_removed = self._n_removed_on_path(rule)
        return self._history(n_removed, rule.n_recorded(n_removed, len(self.path_["loss"])))

    def _history(self, n_removed: int, n_iter: int) -> list:
        d, p = self._n_path_features, self.path_
        return [{"iteration": t + 1,
                 "n_remaining": int(d - t - 1 if t < n_removed else d - t),
                 "feature": str(p["feature"][t]), "loss": float(p["loss"][t]),
                 "accepted": bool(t < n_removed)} for t in range(n_iter)]


def _score(loss, model, X, y, sample_weight=None):
    """The scikit-learn score of ``model`` on ``(X, y)`` for a scorer name or object."""
    scorer = get_scorer(loss) if isinstance(loss, str) else loss
    kw = {} if sample_weight is None else {"sample_weight": sample_weight}
    return scorer(model, X, y, **kw)


# ---------------------------------------------------------------- GBMO
class GBMO(_MaskEliminationBase):
    __doc__ = f"""General Binary Mask Optimization (seed 000, Algorithms 1-2).

    The model is fitted once; features are then masked one at a time in the
    selection-validation rows, each time the one whose masking gives the lowest
    loss (SLUF, eq. 12), until ``Loss_t > Loss_{{t-1}} (1 + mu)`` (with
    ``Loss_0 = inf``, so the first elimination is always made). The number
    of features is not fixed in advance.

    Parameters
    ----------
    {_COMMON_DOC.strip()}
    slack : float >= 0, default=0.001
        ``mu``: how much the loss may rise per elimination. The seed tunes it
        over {{0.00025, 0.001, 0.01, 0.05}} (:data:`MU_GRID`) on a separate
        validation split; ``inf`` runs the whole path down to one feature.

    Attributes
    ----------
    {_COMMON_ATTRS.strip()}

    Notes
    -----
    Choices where the seed is silent: ties in SLUF go to the lowest column
    index; equal losses are accepted (Algorithm 2 stops only on ``>``); the
    last feature is never eliminated, so at least one is selected; losses
    that are NaN count as infinite. A negative previous loss (minus a
    higher-is-better score) gets the tolerance ``Loss_{{t-1}} (1 - mu)``.

    Cost: iteration t predicts ``|J_t|`` masked copies of the K validation
    rows (fewer with ``skip_unused``), in ``ceil(|J_t| / batch_size)``
    calls; the whole path costs at most ``M (M + 1) / 2`` copies, ``M``
    calls and one model fit, against ``M`` fits for recursive feature
    elimination with step 1. Memory: one chunk, at most 64 MiB by default.

    References
    ----------
    M. E. Lorasdağı, M. Y. Turalı, S. S. Kozat, "Binary Feature Mask
    Optimization for Feature Selection" (seed ``000_dd912381c0e6a8a4.txt``),
    §3.1, eq. (10)-(16), Algorithms 1 and 2.

    Examples
    --------
    >>> from sklearn.linear_model import LinearRegression
    >>> from featsieve import GBMO
    >>> from featsieve.datasets import make_gbmo_synthetic
    >>> X, y, _ = make_gbmo_synthetic(300, 20, 3, distribution="normal", random_state=0)
    >>> sel = GBMO(LinearRegression(), slack=0.01, random_state=0).fit(X, y)
    >>> sel.n_model_fits_
    1
    """

    _parameter_constraints = {
        **_MaskEliminationBase._parameter_constraints,
        "slack": [Interval(numbers.Real, 0, None, closed="both")],
    }

    def __init__(self, estimator, *, slack=0.001, prefit=False, mask_value="zero", loss=None,
                 validation_fraction=0.4, batch_size=None, skip_unused=True, tree_kernel=True,
                 task="auto", random_state=None, n_jobs=None, max_samples="auto"):
        self.max_samples = max_samples
        self.estimator = estimator
        self.slack = slack
        self.prefit = prefit
        self.mask_value = mask_value
        self.loss = loss
        self.validation_fraction = validation_fraction
        self.batch_size = batch_size
        self.skip_unused = skip_unused
        self.tree_kernel = tree_kernel
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _stop_rule(self, n_features):
        return SlackStop(self.slack)


# --------------------------------------------------------------- FLBMO
class FLBMO(_MaskEliminationBase):
    __doc__ = f"""Fixed-Length Binary Mask Optimization (seed 000, Algorithm 3).

    The same masked elimination as :class:`GBMO` (SLUF, eq. 12), run until
    ``eta`` features remain; every elimination is kept.

    Parameters
    ----------
    {_COMMON_DOC.strip()}
    n_features_to_select : int, float or None, default=None
        ``eta``: features to keep (a float in (0, 1] is a fraction); None
        keeps half. The seed tunes it over {{M/6, M/5, M/4, M/2}}.

    Attributes
    ----------
    {_COMMON_ATTRS.strip()}

    Notes
    -----
    Ties in SLUF go to the lowest column index. The path of FLBMO with
    ``eta`` is a prefix of GBMO's full path (``slack=inf``):
    ``support_at(n_features=k)`` answers any ``k >= eta``.

    References
    ----------
    Seed ``000_dd912381c0e6a8a4.txt``, §3.2, eq. (17), Algorithm 3.

    Examples
    --------
    >>> from sklearn.linear_model import LinearRegression
    >>> from featsieve import FLBMO
    >>> from featsieve.datasets import make_gbmo_synthetic
    >>> X, y, _ = make_gbmo_synthetic(300, 20, 3, distribution="normal", random_state=0)
    >>> FLBMO(LinearRegression(), n_features_to_select=3, random_state=0).fit(X, y).n_features_selected_
    3
    """

    _parameter_constraints = {
        **_MaskEliminationBase._parameter_constraints,
        "n_features_to_select": N_FEATURES_CONSTRAINT,
    }

    def __init__(self, estimator, *, n_features_to_select=None, prefit=False, mask_value="zero",
                 loss=None, validation_fraction=0.4, batch_size=None, skip_unused=True,
                 tree_kernel=True, task="auto", random_state=None, n_jobs=None,
                 max_samples="auto"):
        self.max_samples = max_samples
        self.estimator = estimator
        self.n_features_to_select = n_features_to_select
        self.prefit = prefit
        self.mask_value = mask_value
        self.loss = loss
        self.validation_fraction = validation_fraction
        self.batch_size = batch_size
        self.skip_unused = skip_unused
        self.tree_kernel = tree_kernel
        self.task = task
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _stop_rule(self, n_features):
        return SizeStop(self._n_to_select(n_features))


