"""The one base class of every featsieve selector.

A selector writes ``_fit(X, y, **fit_params)`` and sets ``support_`` (and,
where they mean something, ``scores_``, ``ranking_``, ``history_``) for the
columns it was given; :class:`BaseSelector` does everything else once:
parameter checks, the validation of X and y (:mod:`featsieve._validation`),
the column kinds (numbers, booleans, categories/text, dates) and their
encoding, missing values (the method's declared strategy, ``_missing``),
task detection and label encoding, the constant- and ID-column policy,
feature names, and ``transform``/``get_feature_names_out``/``set_output``
(scikit-learn's :class:`~sklearn.feature_selection.SelectorMixin`; a table
with text, categories, dates or nullable columns comes back as the selected
original columns, dtypes unchanged).

One encoded column per original column: ``_fit`` receives a float matrix in
which a categorical column holds its category codes ``0..k-1`` (the order of
``columns_.categories``), a boolean 0/1 and a date its days since 1970
(:func:`featsieve._validation.encode_columns`), so every method selects among
the original columns and never among dummies. A family that needs to know
which columns are categories reads ``self._fit_categorical`` (or
``self._fit_discrete``, categories and booleans) and says in its docstring
what it does with them.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import _check_feature_names, _num_samples, check_is_fitted

from ._utils import canonical_rank
from ._validation import (
    ConstantFeatureWarning,
    DuplicateFeatureWarning,
    FewerFeaturesWarning,
    MissingTargetWarning,
    _names_str,
    check_same_columns,
    check_unique_columns,
    resolve_n_features,
    take_rows,
    to_pandas,
    validate_X,
    validate_Xy,
    warn_target_leaks,
)

__all__ = ["BaseSelector"]


_GIVEN_ORDER: ContextVar[bool] = ContextVar("featsieve_given_column_order", default=False)


@contextmanager
def given_column_order():
    """Within this block, selectors fit named columns in the order given, not the
    canonical one (an exact reproduction whose published ties follow a paper's
    column order, e.g. seed 002's hand-written tree). Outside it the canonical
    order holds (:meth:`BaseSelector._canonical_order`).

    Examples
    --------
    >>> with given_column_order():
    ...     pass
    """
    token = _GIVEN_ORDER.set(True)
    try:
        yield
    finally:
        _GIVEN_ORDER.reset(token)


class BaseSelector(SelectorMixin, BaseEstimator):
    """Base class for featsieve selectors (scikit-learn compatible).

    Subclasses implement ``_fit(self, X, y, **fit_params)`` where ``X`` is a
    float64 array (float32 when the input is float32 and the subclass's
    ``_input_dtype()`` keeps it, see below) holding only the usable
    (non-constant) columns when
    ``_drop_constant`` is True, and ``y`` is encoded (class codes
    0..n_classes-1 or float64). ``_fit`` must set ``support_`` (bool, one entry
    per column it received) and may set ``scores_`` (higher is more relevant)
    and ``ranking_`` (1 is best); the base class maps them back to all input
    columns: constant columns get ``support_=False``, the lowest score and the
    worst rank.

    Fitted attributes set here
    --------------------------
    n_features_in_ : int
    feature_names_in_ : ndarray of str, shape (n_features_in_,)
        Only when ``X`` was a DataFrame with string column names.
    task_ : {"classification", "regression"}
    classes_ : ndarray, shape (n_classes,)
        Original class labels (classification only).
    constant_features_ : ndarray of bool, shape (n_features_in_,)
        Columns found constant; they are never selected.
    duplicate_of_ : ndarray of int, shape (n_features_in_,)
        For a column that is an exact copy of another, the index of the
        group's representative; -1 otherwise. Copies are a tie broken by the
        canonical column order (by label for a DataFrame, by position
        otherwise): only the representative can be selected.
    n_features_selected_ : int
    columns_ : ColumnDescription
        The kind of every input column (``columns_.to_frame()``), the
        categories seen in training, the missing rows per column and the
        ID-like columns left out (never selected).

    Notes
    -----
    Missing values (NaN, None, ``pd.NA``, ``NaT``) are handled by the
    subclass's strategy ``_missing``: ``"impute"`` fills them before ``_fit``
    (numeric, boolean and date columns with the training median; a
    categorical column's missing rows become a category of their own, code
    ``k``) and fills validation rows with the same values; ``"native"`` keeps
    NaN; ``"model"`` keeps NaN when the method's model takes it (its
    scikit-learn tags say ``allow_nan``: LightGBM, scikit-learn trees and
    forests, and the method's default model when ``estimator`` is None) and
    imputes otherwise. A category not seen in training is missing.

    Named columns (a DataFrame) reach ``_fit`` in a canonical order, sorted
    by label (:func:`featsieve._utils.canonical_rank`), so the answer does not
    depend on the order they were given in; ``_fit_index`` maps the columns
    ``_fit`` received to the input columns, and every per-column fitted
    attribute is in the given order.

    Constant columns and exact copies are removed before ``_fit`` when
    ``_drop_constant`` is True (methods that must pass every column to a model,
    such as GBMO with a prefit model, set it to False; the base class still
    never selects them).
    """

    # class-level knobs a subclass may override
    _min_samples: int = 5
    _min_per_class: int = 2
    _drop_constant: bool = True
    _keep_sparse: bool = False  # True: _fit receives scipy sparse input unchanged
    _missing: str = "impute"  # "impute", "native" or "model" (see Notes)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.allow_nan = True  # handled by the strategy ``_missing``
        # sparse input is accepted: expanded to dense within MAX_DENSE_BYTES
        # (featsieve._validation), or kept sparse for methods that set _keep_sparse
        tags.input_tags.sparse = True
        return tags

    # ------------------------------------------------------------------ fit
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("support_at")
        if own is not None and not getattr(own, "_closes_groups", False):
            # a path selector's own cut answers per column; column groups close it
            @functools.wraps(own)
            def support_at(self, **cut):
                return self._close_groups(own(self, **cut))

            support_at._closes_groups = True
            cls.support_at = support_at

    def fit(self, X, y, X_val=None, y_val=None, *, columns=None, categorical=None, numeric=None,
            column_groups=None, **fit_params):
        """Fit the selector.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Numbers (pandas nullable ``Int64``/``Float64`` too), booleans,
            categories and text (``category``, object, ``str``,
            ``string[pyarrow]``) and dates (naive or tz-aware); missing values
            allowed. ID-like columns are left out with a warning.
        y : array-like of shape (n_samples,)
            Class labels (any type) or numbers; rows whose target is missing are
            left out with one warning giving their count.
        X_val, y_val : array-like, default=None
            Validation rows for the methods that read their own validation
            score (forward, GBMO/FLBMO, FASTENER/POSS); without them such a
            method splits ``X``. They are metadata in scikit-learn's routing:
            ``selector.set_fit_request(X_val=True, y_val=True)`` lets
            ``Pipeline.fit(X, y, X_val=..., y_val=...)`` pass them on (with
            ``Pipeline(..., transform_input=["X_val"])`` the earlier steps
            transform ``X_val`` too).
        columns : ColumnDescription or None, default=None
            The columns' kinds read before
            (:func:`featsieve._validation.describe_columns`; ``compare`` reads them once
            for the whole table); None reads them from ``X``.
        categorical, numeric : list of column labels or None, default=None
            Read these columns as categories / numbers whatever their dtype
            (ignored when ``columns`` is given). A column named here is never left
            out as ID-like.
        column_groups : dict of {str: list of column labels} or None, default=None
            Columns that are one unit (mlxtend's ``feature_groups``): a group is
            kept whole when the method keeps any of its columns, and dropped
            whole otherwise (``support_`` and ``support_at``; the method itself
            scores the columns one by one). Stored as ``column_groups_``.
        **fit_params : dict
            Passed to the method; two are read here first (keywords only, so that
            scikit-learn's estimator checks and metadata routing see them only on
            the methods that declare them in their own ``fit``):

        sample_weight : array-like of shape (n_samples,) or None, default=None
            Non-negative row weights, used by the methods whose ``_fit`` takes
            them (passed to the model's fit and to the method's own scores or
            loss, each method's docstring says how); any other method raises a
            TypeError naming ``sample_weight``. Rows whose target is missing
            are left out of the weights too.
        groups : array-like of shape (n_samples,) or None, default=None
            Group labels of the rows (a patient, a site). A method that splits
            the rows itself (a validation part, folds) keeps each group on one
            side (scikit-learn's ``GroupShuffleSplit``/``GroupKFold``); a method
            that does not split the rows has nothing to keep apart and ignores
            them; a method that splits but cannot keep groups apart raises a
            TypeError naming ``groups``.

        Returns
        -------
        self : object

        Raises
        ------
        ValueError
            Bad input (see README, "Bad input"); the message names the column.
        TypeError
            ``X_val``/``y_val`` given to a method that uses no validation rows;
            ``sample_weight`` or ``groups`` given to a method that cannot use them.
        """
        if X_val is not None or y_val is not None:
            if "X_val" not in inspect.signature(self._fit).parameters:
                raise TypeError(
                    f"{type(self).__name__} uses no validation rows; fit it without "
                    "X_val/y_val (or fit it on X and X_val together).")
            fit_params = {**fit_params, "X_val": X_val, "y_val": y_val}
        self._validate_params()
        fit_params.update(self._row_metadata_params(fit_params.pop("sample_weight", None),
                                                    fit_params.pop("groups", None)))
        n_rows = _num_samples(X) if fit_params.keys() & {"sample_weight", "groups"} else 0
        if y is None:
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the target y is None."
            )
        tags = self.__sklearn_tags__()
        self._column_labels = None
        check_unique_columns(X)
        try:
            _check_feature_names(self, X, reset=True)
        except TypeError:  # mixed label types: sklearn keeps no names, we keep the labels
            if hasattr(self, "feature_names_in_"):
                del self.feature_names_in_
        if hasattr(X, "columns") and not hasattr(self, "feature_names_in_"):
            self._column_labels = list(X.columns)
        data = validate_Xy(
            X,
            y,
            task=getattr(self, "task", "auto"),
            allow_nan=tags.input_tags.allow_nan,
            min_samples=self._min_samples,
            min_per_class=self._min_per_class,
            accept_sparse=self._keep_sparse,
            dtype=self._input_dtype(),
            columns=columns,
            categorical=categorical,
            numeric=numeric,
        )
        self.columns_ = data.columns
        self.n_features_in_ = data.X.shape[1]
        self.task_ = data.task
        if data.task == "classification":
            self.classes_ = data.classes
        elif hasattr(self, "classes_"):
            del self.classes_
        self.constant_features_ = data.constant
        named = hasattr(X, "columns") or hasattr(self, "feature_names_in_")
        self._col_rank = (canonical_rank(data.feature_names)
                          if named and self._canonical_order() and not _GIVEN_ORDER.get()
                          else None)
        self.duplicate_of_ = self._representatives(data.duplicate_of, data.constant)
        dup = self.duplicate_of_ >= 0
        self._all_feature_names = [str(n) for n in data.feature_names]
        if data.constant.all():
            raise ValueError(
                f"All {data.X.shape[1]} feature columns are constant; there is nothing to select."
            )
        self._warn_unusable(data, dup)
        warn_target_leaks(data, self._all_feature_names, stacklevel=3)
        never = data.constant | dup | data.columns.left_out
        if never.all():
            raise ValueError("Every feature column is constant, a copy or ID-like; there is "
                             "nothing to select.")
        usable = ~never if self._drop_constant else ~data.columns.left_out
        self._usable = usable
        fit_index = self._fit_index
        X_fit = (data.X if fit_index.size == usable.size and self._col_rank is None
                 else data.X[:, fit_index])
        self._missing_fill = self._missing_fill_values(X_fit, data.columns.n_missing[fit_index])
        X_fit = self._impute(X_fit)
        self._group_of = self._resolve_groups(column_groups, data.feature_names)
        self._never = never
        self._fit(X_fit, data.y, **self._rows_kept(fit_params, data.rows, n_rows))
        self._expand_fitted()
        self.support_ = self._close_groups(np.asarray(self.support_, dtype=bool) & ~never)
        self.n_features_selected_ = int(self.support_.sum())
        if self.n_features_selected_ == 0:
            warnings.warn("No feature was selected.", FewerFeaturesWarning, stacklevel=2)
        return self

    # ---------------------------------------------------------- row metadata
    def _splits_rows(self) -> bool:
        """Whether the method splits its rows itself (validation rows or folds)."""
        params = self.get_params(deep=False)
        return ("X_val" in inspect.signature(self._fit).parameters or "cv" in params
                or "validation_fraction" in params)

    def _row_metadata_params(self, sample_weight, groups) -> dict:
        """``sample_weight``/``groups`` as ``_fit`` keywords, or the TypeError naming them."""
        accepts = inspect.signature(self._fit).parameters
        out = {}
        if sample_weight is not None:
            if "sample_weight" not in accepts:
                raise TypeError(
                    f"{type(self).__name__} does not use sample_weight: its scores and models "
                    "are unweighted. Fit it without sample_weight, or repeat or resample the "
                    "rows by weight (README, 'Bad input').")
            out["sample_weight"] = sample_weight
        if groups is not None:
            if "groups" in accepts:
                out["groups"] = groups
            elif self._splits_rows():
                raise TypeError(
                    f"{type(self).__name__} splits its rows but cannot keep groups apart: fit "
                    "it without groups, or give it X_val/y_val (or cv folds) split by group "
                    "yourself.")
        return out

    @staticmethod
    def _rows_kept(fit_params, rows, n_rows) -> dict:
        """``sample_weight``/``groups`` checked and narrowed to the rows fit kept."""
        out = dict(fit_params)
        for key in ("sample_weight", "groups"):
            if out.get(key) is None:
                continue
            v = to_pandas(out[key])
            v = v.to_numpy() if hasattr(v, "to_numpy") else np.asarray(v)
            if v.shape != (n_rows,):
                raise ValueError(f"{key} must hold one value per row of X: shape ({n_rows},); "
                                 f"got {v.shape}.")
            v = v if rows is None else v[rows]
            if key == "sample_weight":
                try:
                    v = v.astype(np.float64)
                except (TypeError, ValueError):
                    raise ValueError("sample_weight must hold numbers.") from None
                if not np.isfinite(v).all() or (v < 0).any() or v.sum() <= 0:
                    raise ValueError("sample_weight must be finite and non-negative, and not "
                                     "every weight zero.")
            elif pd.isna(v).any():
                raise ValueError("groups is missing on some rows; give every row a group.")
            out[key] = v
        return out

    # ------------------------------------------------------- column order
    def _canonical_order(self) -> bool:
        """Whether ``_fit`` gets named columns in the canonical order (the default).

        Named columns (a DataFrame) reach ``_fit`` sorted by
        :func:`featsieve._utils.canonical_rank`, so no model fit, random draw or
        tie-break depends on the order they were given in (issue 15, item 2);
        every per-column fitted attribute is mapped back to the given order. A
        method that must keep the given order (a prefit model reads columns by
        position) returns False.
        """
        return True

    @property
    def _fit_index(self) -> np.ndarray:
        """Input column of every column ``_fit`` receives, in ``_fit``'s order.

        The usable columns (``_usable``), in the canonical order for named
        columns and in the given order otherwise. Map a per-fit-column array
        to the input columns with ``full[self._fit_index] = values`` and an
        input-column array to the fit columns with ``values[self._fit_index]``.
        """
        idx = np.flatnonzero(self._usable)
        rank = getattr(self, "_col_rank", None)
        return idx if rank is None else idx[np.argsort(rank[idx], kind="stable")]

    def _to_input_columns(self, values, fill=0):
        """A per-fit-column array (first axis) as a per-input-column one, in the given order.

        Input columns ``_fit`` did not receive get ``fill``. Returns ``values``
        itself when the fit columns are all input columns in the given order.
        """
        values = np.asarray(values)
        idx, d = self._fit_index, self._usable.shape[0]
        if idx.size == d and getattr(self, "_col_rank", None) is None:
            return values
        out = np.full((d,) + values.shape[1:], fill, dtype=values.dtype)
        out[idx] = values
        return out

    def _representatives(self, first, constant) -> np.ndarray:
        """``duplicate_of_``: for each copy, the column of its group that can be selected.

        ``first`` is :func:`featsieve._validation.duplicate_columns`' answer (the
        earliest identical column); the group's representative is the first in
        the canonical order, so it does not depend on the given order.
        """
        first = np.asarray(first)
        rank = self._col_rank if self._col_rank is not None else np.arange(first.size)
        rep = first.copy()
        for g in np.unique(first[first != np.arange(first.size)]):
            members = np.flatnonzero(first == g)
            rep[members] = members[np.argmin(rank[members])]
        copy = (rep != np.arange(first.size)) & ~np.asarray(constant, bool)
        return np.where(copy, rep, -1)

    def _warn_unusable(self, data, dup) -> None:
        """One warning for the constant columns and one for exact copies, naming them."""
        if data.constant.any():
            warnings.warn(
                "Constant feature columns carry no information and will never be selected: "
                f"{_names_str([n for n, c in zip(self._all_feature_names, data.constant, strict=False) if c])}.",
                ConstantFeatureWarning,
                stacklevel=3,
            )
        if dup.any():
            names = self._all_feature_names
            pairs = [f"{names[j]!r} = {names[self.duplicate_of_[j]]!r}"
                     for j in np.flatnonzero(dup)]
            warnings.warn(
                "Feature columns that copy another column exactly are ties; only the first "
                f"of each group (by column label for a DataFrame, by position otherwise) can "
                f"be selected: {', '.join(pairs[:10])}"
                + (f" and {len(pairs) - 10} more" if len(pairs) > 10 else "") + ".",
                DuplicateFeatureWarning,
                stacklevel=3,
            )

    def _fit(self, X, y, **fit_params):  # pragma: no cover - abstract
        raise NotImplementedError

    # -------------------------------------------------------- column groups
    def _resolve_groups(self, groups, names):
        """Group index of every column (-1: none); sets ``column_groups_``."""
        group_of = np.full(len(names), -1, dtype=np.int64)
        self.column_groups_ = {}
        if not groups:
            return group_of
        pos = {n: i for i, n in enumerate(names)}
        pos.update({str(n): i for i, n in enumerate(names) if str(n) not in pos})
        for g, (name, members) in enumerate(dict(groups).items()):
            members = [members] if isinstance(members, str) else list(members)
            unknown = [m for m in members if m not in pos]
            if unknown:
                raise ValueError(f"column_groups[{name!r}] names columns that are not in X: "
                                 f"{_names_str(unknown)}.")
            for m in members:
                if group_of[pos[m]] >= 0:
                    raise ValueError(f"Column {m!r} is in two column groups; give each column "
                                     "one group.")
                group_of[pos[m]] = g
            self.column_groups_[name] = [names[pos[m]] for m in members]
        return group_of

    def _close_groups(self, support):
        """``support`` with every group kept whole when any of its columns is kept."""
        group_of = getattr(self, "_group_of", None)
        support = np.asarray(support, dtype=bool)
        if group_of is None or not (group_of >= 0).any():
            return support
        hit = np.unique(group_of[support & (group_of >= 0)])
        return (support | np.isin(group_of, hit)) & ~self._never

    def scores_table(self, support=None) -> pd.DataFrame:
        """Every input column with its kind, score, rank and whether it is kept.

        Parameters
        ----------
        support : array-like of bool or None, default=None
            The support to report (e.g. ``support_at(...)``); None: ``support_``.

        Returns
        -------
        table : DataFrame with one row per input column
            ``column``, ``kind``, ``selected``, ``score`` (``scores_``, higher is more
            relevant; NaN when the method has none), ``rank`` (``ranking_``, 1 is best;
            NaN when none), ``n_missing``, ``group`` and ``note`` (why a column
            cannot be selected: constant, a copy, ID-like).
        """
        check_is_fitted(self, "support_")
        d = self.n_features_in_
        support = self.support_ if support is None else np.asarray(support, dtype=bool)
        scores = getattr(self, "scores_", None)
        ranking = getattr(self, "ranking_", None)
        labels = getattr(self, "_column_labels", None) or self._all_feature_names
        group_name = {i: g for i, g in enumerate(getattr(self, "column_groups_", {}))}
        notes = []
        for j in range(d):
            if self.constant_features_[j]:
                notes.append("constant")
            elif self.duplicate_of_[j] >= 0:
                notes.append(f"copy of {labels[self.duplicate_of_[j]]!s}")
            else:
                notes.append(self.columns_.notes.get(j, ""))
        return pd.DataFrame({
            "column": list(labels),
            "kind": list(self.columns_.kinds),
            "selected": support,
            "score": np.full(d, np.nan) if scores is None else np.asarray(scores, float),
            "rank": pd.array([pd.NA] * d if ranking is None else np.asarray(ranking),
                             dtype="Int64"),  # whole numbers, empty where none
            "n_missing": self.columns_.n_missing,
            "group": [group_name.get(g, "") for g in self._group_of],
            "note": notes,
        })

    # ------------------------------------------------------- missing values
    def _missing_strategy(self) -> str:
        """``"impute"`` or ``"native"``: the class's ``_missing``, resolved for its model."""
        if self._missing != "model":
            return self._missing
        est = getattr(self, "estimator", None)
        if est is None:  # the methods' default models (LightGBM, scikit-learn trees) take NaN
            return "native"
        from sklearn.utils import get_tags

        try:
            return "native" if get_tags(est).input_tags.allow_nan else "impute"
        except (AttributeError, TypeError, ValueError):  # pragma: no cover - odd estimators
            return "impute"

    def _missing_fill_values(self, X, n_missing):
        """Per fit column: the value a missing cell takes (None: NaN kept, or nothing missing)."""
        if self._missing_strategy() == "native" or not np.any(n_missing):
            return None
        idx = self._fit_index
        kinds = self.columns_.kinds[idx]
        fill = np.zeros(X.shape[1])
        for j in np.flatnonzero(n_missing):
            if kinds[j] == "categorical":
                fill[j] = len(self.columns_.categories[idx[j]])  # "missing": a code of its own
            else:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN column
                    med = np.nanmedian(X[:, j])
                fill[j] = med if np.isfinite(med) else 0.0
        return fill

    def _impute(self, X):
        """``X`` with its missing cells filled by ``_missing_fill`` (a copy when any is)."""
        fill = getattr(self, "_missing_fill", None)
        if fill is None or hasattr(X, "tocsr"):
            return X
        holes = np.isnan(X)
        if not holes.any():
            return X
        return np.where(holes, fill.astype(X.dtype), X)

    @property
    def _fit_categorical(self) -> np.ndarray:
        """Bool mask over the columns ``_fit`` receives: categorical ones (codes 0..k-1)."""
        return self.columns_.categorical[self._fit_index]

    @property
    def _fit_discrete(self) -> np.ndarray:
        """Bool mask over the columns ``_fit`` receives: categorical or boolean ones."""
        return self.columns_.discrete[self._fit_index]

    def _input_dtype(self):
        """dtype ``_fit`` receives X in (see :func:`featsieve._validation.validate_X`).

        float64 by default. A method whose models compute in float32 (scikit-learn
        trees) returns ``(np.float64, np.float32)``: a float32 table then stays
        float32 and validation makes no float64 copy of it.
        """
        return np.float64

    # -------------------------------------------------------------- helpers
    @property
    def _fit_feature_names(self) -> list[str]:
        """Names of the columns ``_fit`` receives (for histories and reports)."""
        names = np.asarray(self._all_feature_names, dtype=object)
        return list(names[self._fit_index])

    def _n_to_select(self, n_features: int, default=None, name: str = "n_features_to_select"):
        """Resolve ``n_features_to_select`` with the library's one policy."""
        return resolve_n_features(
            getattr(self, name, None), n_features, name=name, default=default
        )

    def _warn_fewer(self, found: int, requested: int) -> None:
        """Say so when fewer useful features were found than were requested."""
        if found < requested:
            warnings.warn(
                f"{type(self).__name__} found only {found} useful features; "
                f"{requested} were requested.",
                FewerFeaturesWarning,
                stacklevel=3,
            )

    def _validate_val(self, X_val, y_val):
        """Validate explicit validation data against what ``fit`` saw.

        Returns the usable columns of ``X_val`` and ``y_val`` encoded with the
        training classes.
        """
        from ._validation import encode_target

        expected = getattr(self, "feature_names_in_", None)
        if expected is None:
            expected = getattr(self, "_column_labels", None)
        if expected is not None and hasattr(X_val, "columns"):
            check_same_columns(list(expected), list(X_val.columns), "X_val", "X",
                               "X_val[list(X.columns)]")
        X_val, y_val = to_pandas(X_val), to_pandas(y_val)
        n_cols = X_val.shape[1] if hasattr(X_val, "shape") and len(X_val.shape) == 2 else None
        if n_cols is not None and n_cols != self.n_features_in_:
            raise ValueError(f"X_val has {n_cols} columns; X has {self.n_features_in_}.")
        y_arr = y_val.to_numpy() if hasattr(y_val, "to_numpy") else np.asarray(y_val)
        keep = ~pd.isna(y_arr) if y_arr.ndim == 1 else None
        if keep is not None and not keep.all():
            warnings.warn(f"y_val is missing on {int((~keep).sum())} rows; those rows are left "
                          "out.", MissingTargetWarning, stacklevel=3)
            X_val, y_arr = take_rows(X_val, np.flatnonzero(keep)), y_arr[keep]
        Xv = validate_X(X_val, dtype=self._input_dtype(), columns=self.columns_)
        if Xv.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X_val has {Xv.shape[1]} columns; X has {self.n_features_in_}."
            )
        if self.task_ == "classification":
            unknown = np.setdiff1d(np.unique(y_arr), self.classes_)
            if unknown.size:
                raise ValueError(f"y_val has classes not seen in y: {unknown.tolist()}.")
            yv = np.searchsorted(self.classes_, y_arr)
        else:
            yv, _ = encode_target(y_arr, "regression", target_name="y_val")
        if len(yv) != Xv.shape[0]:
            raise ValueError("X_val and y_val have different numbers of rows.")
        return self._impute(Xv[:, self._fit_index]), yv

    def _expand_fitted(self) -> None:
        """Map per-column fitted attributes from the fit columns to all, in the given order."""
        idx, d = self._fit_index, self._usable.shape[0]
        if idx.size == d and self._col_rank is None:
            return
        support = np.zeros(d, dtype=bool)
        support[idx] = self.support_
        self.support_ = support
        if getattr(self, "scores_", None) is not None:
            scores = np.asarray(self.scores_, dtype=np.float64)
            low = np.nanmin(scores) if scores.size else 0.0
            full = np.full(d, min(low, 0.0))
            full[idx] = scores
            self.scores_ = full
        if getattr(self, "ranking_", None) is not None:
            ranking = np.asarray(self.ranking_)
            worst = ranking.max() + 1 if ranking.size else 1
            full = np.full(d, worst, dtype=np.int64)
            full[idx] = ranking
            self.ranking_ = full

    def support_at(self, *, n_features: int) -> np.ndarray:
        """The support this fit gives for another cut, without refitting.

        The one tuning protocol of featsieve: a selector whose single fit
        yields several supports answers ``support_at(**cut)``; ``compare`` tunes
        the cut named in the method table (``featsieve.method_table``) on model-val.
        Here, for rankers: the ``n_features`` best usable columns by
        ``ranking_`` (or ``scores_``), ties broken by the canonical column
        order (by label for a DataFrame, by index otherwise).
        Path selectors (GBMO ``slack=``, HSIC Lasso, FASTENER, PCLFS-ext
        ``max_score_drop=``) override it.

        Parameters
        ----------
        n_features : int
            Columns to keep (at least 1; capped at the usable columns).

        Returns
        -------
        support : ndarray of bool, shape (n_features_in_,)

        Raises
        ------
        AttributeError
            The selector has neither ``ranking_`` nor ``scores_``.
        """
        from ._utils import rank_from_scores

        check_is_fitted(self, "support_")
        tie = getattr(self, "_col_rank", None)
        if getattr(self, "ranking_", None) is not None:
            order, _ = rank_from_scores(-np.asarray(self.ranking_, dtype=np.float64), tie)
        elif getattr(self, "scores_", None) is not None:
            order, _ = rank_from_scores(self.scores_, tie)
        else:
            raise AttributeError(
                f"{type(self).__name__} has no ranking_ or scores_: it gives one support only.")
        never = getattr(self, "_never", None)
        if never is None:
            never = getattr(self, "constant_features_", np.zeros(len(order), bool)) | (
                getattr(self, "duplicate_of_", np.full(len(order), -1)) >= 0)
        order = order[~never[order]]
        support = np.zeros(len(never), dtype=bool)
        support[order[:max(1, int(n_features))]] = True
        return self._close_groups(support)

    def transform(self, X):
        """Reduce ``X`` to the selected columns.

        A DataFrame whose columns are not all NumPy numbers or booleans (text,
        categories, dates, pandas nullable types) comes back as a DataFrame of
        the selected original columns with their dtypes unchanged (its labels
        must be the training ones, in order); anything else as scikit-learn's
        :meth:`SelectorMixin.transform` gives it (NumPy by default, pandas with
        ``set_output(transform="pandas")``).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features_in_)

        Returns
        -------
        X_selected : ndarray or DataFrame of shape (n_samples, n_features_selected_)

        Raises
        ------
        ValueError
            Other columns than in training, or the same in another order (any
            label type); the message says how to reorder.
        """
        X = to_pandas(X)
        expected = None
        if isinstance(X, pd.DataFrame):
            # columns are matched by label for every label type (ints, tuples, mixed), not
            # only strings as scikit-learn does: other labels or another order are refused
            check_is_fitted(self, "support_")
            expected = getattr(self, "feature_names_in_", None)
            if expected is None:
                expected = getattr(self, "_column_labels", None)
            if expected is not None:
                hint = ("X[selector.feature_names_in_]" if hasattr(self, "feature_names_in_")
                        else f"X[{list(expected)[:6]}{' ...' if len(expected) > 6 else ''}]")
                check_same_columns(list(expected), list(X.columns), "X", "the training data",
                                   hint)
        if isinstance(X, pd.DataFrame) and not all(
                isinstance(dt, np.dtype) and dt.kind in "biuf" for dt in X.dtypes):
            if expected is None and X.shape[1] != self.n_features_in_:
                raise ValueError(f"X has {X.shape[1]} columns; the selector was fitted on "
                                 f"{self.n_features_in_}.")
            return X.iloc[:, np.flatnonzero(self.get_support())]
        return super().transform(X)

    def get_feature_names_out(self, input_features=None):
        """Names of the selected columns.

        Column labels of a DataFrame come back unchanged whatever their type
        (ints, tuples, mixed); otherwise as scikit-learn does.
        """
        labels = getattr(self, "_column_labels", None)
        if input_features is None and labels is not None:
            check_is_fitted(self, "support_")
            out = np.empty(len(labels), dtype=object)
            out[:] = labels
            return out[self.get_support()]
        return super().get_feature_names_out(input_features)

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_
