"""One validation path for every selector and front end.

Every check here raises an error that says what was expected, what was found
and how to fix it, naming the offending columns (STYLE.md habit 9). Nothing in
this module modifies the caller's data: arrays are copied before any change.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.preprocessing import LabelEncoder
from sklearn.utils import check_array
from sklearn.utils._param_validation import Interval, RealNotInt
from sklearn.utils.multiclass import type_of_target

__all__ = [
    "ConstantFeatureWarning",
    "DuplicateFeatureWarning",
    "FewerFeaturesWarning",
    "duplicate_columns",
    "ValidatedData",
    "constant_columns",
    "detect_task",
    "encode_target",
    "validate_X",
    "resolve_n_features",
]

TASKS = ("classification", "regression")
_MAX_LISTED = 10


class ConstantFeatureWarning(UserWarning):
    """Some feature columns are constant; they will never be selected."""


class FewerFeaturesWarning(UserWarning):
    """A selector found fewer useful features than were requested."""


class DuplicateFeatureWarning(UserWarning):
    """Some feature columns are exact copies of an earlier one; only the first is used."""


#: Largest dense float64 array (bytes) a sparse input is expanded to.
MAX_DENSE_BYTES = 4 * 2**30


def _names_str(names) -> str:
    names = [str(n) for n in names]
    head = ", ".join(repr(n) for n in names[:_MAX_LISTED])
    if len(names) > _MAX_LISTED:
        head += f" and {len(names) - _MAX_LISTED} more"
    return head


def _column_names(X, n_features: int) -> list:
    if hasattr(X, "columns"):
        return list(X.columns)
    return [f"x{i}" for i in range(n_features)]


def to_pandas(obj):
    """Turn any dataframe or series narwhals supports (polars, pyarrow, modin, ...) into pandas.

    The one conversion point for dataframe libraries other than pandas: numpy
    arrays, pandas objects, scipy sparse matrices and plain Python sequences
    are returned unchanged (and narwhals is not imported for them); objects
    narwhals does not recognize are returned unchanged too.

    Parameters
    ----------
    obj : object
        A table, a column, or anything array-like.

    Returns
    -------
    obj : pandas.DataFrame, pandas.Series or the input itself
        Column names and order are kept; values are converted by the
        library's own ``to_pandas``.
    """
    root = type(obj).__module__.partition(".")[0]
    if root in ("numpy", "pandas", "scipy", "builtins"):
        return obj
    try:
        import narwhals as nw
    except ImportError:  # pragma: no cover - narwhals is a dependency
        return obj
    native = nw.from_native(obj, eager_only=True, allow_series=True, pass_through=True)
    if native is obj:
        return obj
    return native.to_pandas()


def validate_X(X, *, allow_nan: bool = False, dtype=np.float64, accept_sparse: bool = False):
    """Check a feature table and return it as a float array.

    Parameters
    ----------
    X : array-like or pandas.DataFrame of shape (n_samples, n_features)
        Feature table. DataFrame columns must be numeric or boolean.
    allow_nan : bool, default=False
        Whether missing values are passed through instead of rejected.
    dtype : numpy dtype or tuple of dtypes, default=np.float64
        Output dtype. A tuple lists the dtypes kept as they are (as
        scikit-learn's ``check_array``): input already in one of them is not
        converted, anything else becomes the first. ``(np.float64,
        np.float32)`` keeps a float32 table float32 (no float64 copy) for
        methods whose models compute in float32.
    accept_sparse : bool, default=False
        Whether a scipy sparse matrix is accepted unchanged. When False a
        sparse matrix is expanded to a dense array if that array takes at most
        ``MAX_DENSE_BYTES`` (4 GiB); a larger one raises before any memory is
        allocated, saying the size.

    Returns
    -------
    X_checked : ndarray of shape (n_samples, n_features)
        A new array whenever a conversion was needed; the input is never
        modified in place.

    Raises
    ------
    ValueError
        Non-numeric (object, string, categorical) columns, NaN or infinite
        values (unless ``allow_nan``), values beyond ``MAX_ABS_VALUE`` (1e38),
        or an empty table. The message names the columns.
    """
    X = to_pandas(X)  # polars and other dataframes (narwhals)
    if isinstance(X, pd.DataFrame):
        bad = [
            c
            for c in X.columns
            if not (pd.api.types.is_numeric_dtype(X[c]) or pd.api.types.is_bool_dtype(X[c]))
        ]
        if bad:
            kinds = sorted({str(X[c].dtype) for c in bad})
            raise ValueError(
                f"Feature columns must be numeric; non-numeric columns found: {_names_str(bad)} "
                f"(dtype {', '.join(kinds)}{_first_text_value(X[bad[0]], bad[0])}). Encode "
                "them (e.g. sklearn OneHotEncoder or OrdinalEncoder) or drop them before "
                f"selection.{_text_hint(X[bad[0]])}"
            )
        values = X.to_numpy(dtype=_frame_dtype(X, dtype), na_value=np.nan, copy=True)
        names = list(X.columns)
    else:
        values = X
        names = None
    if _is_sparse(values) and not accept_sparse:
        n, d = values.shape
        need = n * d * 8
        if need > MAX_DENSE_BYTES:
            raise ValueError(
                f"Sparse input of shape ({n}, {d}) would take {need / 2**30:.1f} GiB as a dense "
                f"float64 array (limit {MAX_DENSE_BYTES / 2**30:.0f} GiB) and this method needs "
                "dense data; select a subset of columns first (e.g. by a filter method)."
            )
        values = values.toarray()
    if not allow_nan and not _is_sparse(values):
        arr = np.asarray(values) if not isinstance(values, np.ndarray) else values
        if arr.dtype.kind in "fc" and arr.ndim == 2 and not _all_finite(arr):
            bad_cols = np.flatnonzero(~np.isfinite(arr).all(axis=0))
            cols = [names[i] for i in bad_cols] if names else [f"x{i}" for i in bad_cols]
            raise ValueError(
                f"Input X contains NaN or infinity in columns {_names_str(cols)}. "
                "Impute or drop them first (e.g. sklearn SimpleImputer), or use a method "
                "that accepts missing values."
            )
    if not _is_sparse(values):
        arr = np.asarray(values) if not isinstance(values, np.ndarray) else values
        if arr.dtype.kind == "f" and arr.ndim == 2:
            huge = [j for b in _column_blocks(arr)
                    for j in np.flatnonzero((np.abs(arr[:, b]) > MAX_ABS_VALUE).any(axis=0))
                    + b.start]
            if huge:
                cols = [names[i] for i in huge] if names else [f"x{i}" for i in huge]
                raise ValueError(
                    f"Columns {_names_str(cols)} have values beyond ±1e38, outside the float32 "
                    "range that tree models compute in. Rescale them (e.g. divide by a power "
                    "of ten, or take a log).")
    return check_array(
        values,
        accept_sparse=["csr", "csc"] if accept_sparse else False,
        dtype=list(dtype) if isinstance(dtype, (tuple, list)) else dtype,
        ensure_all_finite="allow-nan" if allow_nan else True,
        ensure_min_samples=1,
        ensure_min_features=1,
        copy=False,
    )


def _is_sparse(X) -> bool:
    return hasattr(X, "tocsr") and hasattr(X, "nnz")


def _frame_dtype(frame, dtype):
    """The dtype a DataFrame becomes under ``dtype`` (a dtype or a tuple of kept ones)."""
    if not isinstance(dtype, (tuple, list)):
        return dtype
    kinds = set(frame.dtypes)
    for dt in dtype:
        if kinds == {np.dtype(dt)}:
            return dt
    return dtype[0]


#: Largest magnitude a feature value may have (float32's largest is 3.4e38).
MAX_ABS_VALUE = 1e38

#: Bytes of temporary memory the column-block scans below use at a time.
_BLOCK_BYTES = 64 * 2**20


def _column_blocks(X: np.ndarray):
    """Column slices of ``X`` whose float64 copies take about ``_BLOCK_BYTES`` each."""
    n, d = X.shape
    width = max(1, _BLOCK_BYTES // max(1, 8 * n))
    for j0 in range(0, d, width):
        yield slice(j0, min(d, j0 + width))


def _all_finite(X: np.ndarray) -> bool:
    """``np.isfinite(X).all()`` without a full-size boolean temporary."""
    return all(np.isfinite(X[:, b]).all() for b in _column_blocks(X))


def constant_columns(X: np.ndarray) -> np.ndarray:
    """Boolean mask of columns that carry no information.

    A column is constant when all its finite values lie within 16 machine
    epsilons (relative) of each other, so a column whose values differ only in
    the last bit counts as constant; an all-NaN column is constant too.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    mask : ndarray of bool, shape (n_features,)
    """
    if _is_sparse(X):
        X = X.toarray()
    X = np.asarray(X)
    lo = np.empty(X.shape[1])
    hi = np.empty(X.shape[1])
    # column blocks: temporary memory stays bounded for tall tables (and a
    # float32 table is never copied whole to float64)
    for b in _column_blocks(X):
        blk = np.asarray(X[:, b], dtype=np.float64)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            blk = np.where(np.isfinite(blk), blk, np.nan)
            lo[b] = np.nanmin(blk, axis=0)
            hi[b] = np.nanmax(blk, axis=0)
    scale = np.maximum(np.abs(lo), np.abs(hi))
    spread = hi - lo
    const = spread <= 16 * np.finfo(np.float64).eps * scale
    return np.where(np.isnan(spread), True, const)


def duplicate_columns(X: np.ndarray) -> np.ndarray:
    """For each column, the index of the first column it is an exact copy of.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)

    Returns
    -------
    first : ndarray of int, shape (n_features,)
        ``first[j] == j`` for a column that is not a copy of an earlier one;
        otherwise the lowest index of an identical column (NaNs compare equal).
    """
    import hashlib

    X = np.asarray(X)
    d = X.shape[1]
    first = np.arange(d)
    if d < 2:
        return first
    # one column at a time (no full-size copy): a digest of the column's bytes
    # (NaN mapped to inf, as equal) groups candidates; equal digests are
    # confirmed by comparing the columns themselves
    seen: dict[bytes, list[int]] = {}
    for j in range(d):
        col = np.nan_to_num(np.ascontiguousarray(X[:, j]), nan=np.inf)
        key = hashlib.blake2b(col.tobytes(), digest_size=16).digest()
        group = seen.setdefault(key, [])
        for i in group:
            if np.nan_to_num(X[:, i], nan=np.inf).tobytes() == col.tobytes():
                first[j] = i
                break
        else:
            group.append(j)
    return first


def _non_number(v) -> bool:
    if not isinstance(v, str):
        return False
    try:
        float(v)
    except ValueError:
        return True
    return False


def _first_text_value(col: pd.Series, name) -> str:
    """``"; e.g. 'x' holds '?'"``: the first value that is not a number, if any."""
    for v in col.head(100_000):
        if _non_number(v):
            return f"; e.g. {name!r} holds {v!r}"
    return ""


def _text_hint(col: pd.Series) -> str:
    """A hint for two common causes: decimal commas and '?' for missing values."""
    vals = [v for v in col.head(1000) if _non_number(v)]
    if vals and all(v.strip() in ("?", "", "NA", "na", "-") for v in vals):
        return " Missing values written as text (such as '?'): read them as NaN and impute."
    if vals and all(v.replace(",", ".", 1).lstrip("-").replace(".", "", 1).isdigit()
                    for v in vals):
        return " The values look like numbers with decimal commas: write them with points."
    return ""


def _target_name(y, given: str) -> str:
    """The name for messages: a Series' own name unless the caller gave one."""
    name = getattr(y, "name", None)
    return str(name) if given == "y" and isinstance(name, str) and name else given


def detect_task(y, task: str = "auto") -> str:
    """Return ``"classification"`` or ``"regression"`` for a target.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    task : {"auto", "classification", "regression"}, default="auto"
        ``"auto"`` uses scikit-learn's ``type_of_target``: string, boolean,
        categorical and integer-valued targets with few distinct values are
        classes; continuous floats are regression.

    Raises
    ------
    ValueError
        Unknown ``task``, or a multi-output target.
    """
    y_arr = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
    if y_arr.ndim == 1 and pd.isna(y_arr).any():
        n = int(pd.isna(y_arr).sum())
        raise ValueError(f"The target {_target_name(y, 'y')!r} has {n} missing "
                         f"value{'s' if n != 1 else ''}; drop those rows first.")
    if task == "classification":
        if y_arr.dtype.kind == "f" and y_arr.ndim == 1 and len(y_arr) > 2:
            n_unique = len(np.unique(y_arr[np.isfinite(y_arr)]))
            if type_of_target(y_arr[np.isfinite(y_arr)]) == "continuous" and \
                    n_unique > len(y_arr) // 2:
                raise ValueError(
                    f"task='classification' but the target looks continuous ({n_unique} "
                    f"distinct values in {len(y_arr)} rows, not whole numbers): a "
                    "classification score would treat every value as its own class. Use "
                    "task='regression' (or 'auto')."
                )
        return task
    if task == "regression":
        return task
    if task != "auto":
        raise ValueError(f"task must be 'auto', 'classification' or 'regression'; got {task!r}.")
    y_arr = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
    if y_arr.dtype.kind in "OUSb" or isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
        return "classification"
    kind = type_of_target(y_arr)
    if kind in ("binary", "multiclass"):
        n_unique = len(np.unique(y_arr))
        # many distinct integers relative to the sample count look like a count/regression target
        if y_arr.dtype.kind == "f" and n_unique > max(20, 0.1 * len(y_arr)):
            return "regression"
        return "classification"
    if kind in ("continuous",):
        return "regression"
    raise ValueError(
        f"The target must be one column of class labels or numbers; got a target of type {kind!r}."
    )


def encode_target(y, task: str, *, target_name: str = "y"):
    """Encode a target for the given task.

    Returns
    -------
    y_encoded : ndarray of shape (n_samples,)
        Integer codes 0..n_classes-1 for classification, float64 values for
        regression.
    classes : ndarray or None
        The original class labels (sorted) for classification, else None.

    Raises
    ------
    ValueError
        Missing values in the target, a single class, or a non-numeric
        regression target.
    """
    target_name = _target_name(y, target_name)
    y_arr = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
    if y_arr.ndim == 2 and y_arr.shape[1] == 1:
        y_arr = y_arr.ravel()
    if y_arr.ndim != 1:
        raise ValueError(f"The target {target_name!r} must be one column; got shape {y_arr.shape}.")
    missing = pd.isna(y_arr)
    if missing.any():
        raise ValueError(
            f"The target {target_name!r} has {int(missing.sum())} missing values; "
            "drop those rows first."
        )
    if task == "classification":
        enc = LabelEncoder()
        codes = enc.fit_transform(y_arr.astype(str) if y_arr.dtype.kind == "O" else y_arr)
        if len(enc.classes_) < 2:
            raise ValueError(
                f"The target {target_name!r} has only one class "
                f"({getattr(enc.classes_[0], 'item', lambda: enc.classes_[0])()!r}); "
                "classification needs at least 2 classes."
            )
        return codes.astype(np.int64), enc.classes_
    try:
        y_float = y_arr.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"The target {target_name!r} is not numeric, so it cannot be a regression target; "
            "pass task='classification' for labels."
        ) from exc
    if not np.isfinite(y_float).all():
        raise ValueError(f"The target {target_name!r} contains infinite values.")
    return y_float, None


def check_same_columns(expected, got, what, ref, hint):
    """Raise when ``got`` names other columns than ``expected``, or the same in another order.

    Parameters
    ----------
    expected, got : list
        Column labels.
    what, ref : str
        How the message names the checked table and the reference.
    hint : str
        Code that reorders the table, for the message.

    Raises
    ------
    ValueError
    """
    if [str(c) for c in got] == [str(c) for c in expected]:
        return
    missing = [c for c in expected if c not in set(got)]
    extra = [c for c in got if c not in set(expected)]
    if not missing and not extra:
        raise ValueError(
            f"{what} has the columns of {ref} in another order; masks and models read columns "
            f"by position, so reorder it first ({hint}).")
    raise ValueError(
        f"{what} does not have the columns of {ref}: missing {missing[:6]}, unexpected "
        f"{extra[:6]}.")


#: The ``_parameter_constraints`` entry of every ``n_features_to_select``: an int
#: >= 1, a fraction in (0, 1] or None (see :func:`resolve_n_features`). Checked
#: before any fitting, so 0, negatives, NaN, inf and fractions above 1 fail at once.
N_FEATURES_CONSTRAINT = [
    Interval(Integral, 1, None, closed="left"),
    Interval(RealNotInt, 0, 1, closed="right"),
    None,
]


def _regression_hint(classes, task) -> str:
    """A hint for a classification target of many numbers, which may be a quantity."""
    if len(classes) <= 2 or np.asarray(classes).dtype.kind not in "iuf":
        return ""
    return (f" The target was read as {len(classes)} classes; if it is a quantity (a count, "
            "a price), pass task='regression' (CLI: --task regression).")


def resolve_n_features(value, n_features: int, *, name: str = "n_features_to_select", default=None):
    """Apply featsieve's one policy for a requested number of features.

    The policy (README, "Bad input"): ``None`` takes ``default`` (half the
    features when ``default`` is None); an int in ``[1, n_features]`` is used
    as is; a float in ``(0, 1]`` is a fraction of the features (rounded, at
    least 1); an int larger than ``n_features`` is clipped with a warning;
    zero, negative numbers, fractions above 1 and non-numbers raise.

    Returns
    -------
    k : int

    Raises
    ------
    ValueError
        Naming the parameter and the feature count.
    """
    if value is None:
        value = default if default is not None else max(1, n_features // 2)
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be an int or a float in (0, 1]; got {value!r}.")
    if isinstance(value, (float, np.floating)) and not float(value).is_integer():
        if not 0 < value <= 1:
            raise ValueError(
                f"{name}={value} is a fraction outside (0, 1]; give an int between 1 and "
                f"{n_features} or a fraction of the {n_features} features."
            )
        return max(1, int(round(value * n_features)))
    if isinstance(value, (float, np.floating)) and 0 < value <= 1:
        return max(1, int(round(value * n_features)))
    value = int(value)
    if value < 1:
        raise ValueError(
            f"{name}={value} must be at least 1 (the data has {n_features} usable features)."
        )
    if value > n_features:
        warnings.warn(
            f"{name}={value} is larger than the {n_features} usable features; "
            f"selecting all {n_features}.",
            UserWarning,
            stacklevel=3,
        )
        return n_features
    return value


@dataclass
class ValidatedData:
    """Result of :func:`validate_Xy`: arrays plus what was learned about them."""

    X: np.ndarray
    y: np.ndarray
    task: str
    classes: np.ndarray | None
    feature_names: list
    constant: np.ndarray
    duplicate_of: np.ndarray


def validate_Xy(X, y, *, task="auto", allow_nan=False, min_samples=5, min_per_class=2,
                target_name="y", accept_sparse=False, dtype=np.float64) -> ValidatedData:
    """Validate features and target together.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    task : {"auto", "classification", "regression"}, default="auto"
    allow_nan : bool, default=False
    min_samples : int, default=5
        Fewest rows the caller's procedure can work with.
    min_per_class : int, default=2
        Fewest rows of each class (classification only).
    target_name : str, default="y"
        Name used in messages.
    accept_sparse : bool, default=False
    dtype : numpy dtype or tuple of dtypes, default=np.float64
        As :func:`validate_X`.

    Raises
    ------
    ValueError
        Mismatched lengths, too few rows or rows per class (saying how many
        are needed), and everything :func:`validate_X`,
        :func:`detect_task` and :func:`encode_target` raise.
    """
    X, y = to_pandas(X), to_pandas(y)  # polars and other dataframes (narwhals)
    target_name = _target_name(y, target_name)
    Xv = validate_X(X, allow_nan=allow_nan, accept_sparse=accept_sparse, dtype=dtype)
    names = _column_names(X, Xv.shape[1])
    y_in = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
    if y_in.ndim == 2 and y_in.shape[1] == 1:
        y_in = y_in.ravel()
    if y_in.shape[0] != Xv.shape[0]:
        raise ValueError(
            f"X has {Xv.shape[0]} rows but the target {target_name!r} has {y_in.shape[0]}; "
            "they must have the same length. A common cause is a resampler (e.g. SMOTE) placed "
            "inside a transformer-only pipeline: resample with imblearn's Pipeline instead."
        )
    n = Xv.shape[0]
    if n < min_samples:
        raise ValueError(
            f"Too few rows: this method needs at least {min_samples} samples; got {n} "
            f"sample{'s' if n != 1 else ''}."
        )
    missing = pd.isna(y_in) if y_in.ndim == 1 else np.zeros(1, bool)
    if missing.any():
        raise ValueError(
            f"The target {target_name!r} has {int(missing.sum())} missing values; "
            "drop those rows first."
        )
    resolved = detect_task(y_in, task)
    y_enc, classes = encode_target(y_in, resolved, target_name=target_name)
    if resolved == "classification" and min_per_class > 1:
        counts = np.bincount(y_enc)
        small = [str(classes[i]) for i in np.flatnonzero(counts < min_per_class)]
        if small:
            raise ValueError(
                f"Too few rows in class {_names_str(small)} of {target_name!r}: this method needs "
                f"at least {min_per_class} rows per class; got {counts.min()}."
                + _regression_hint(classes, task)
            )
    dense = Xv.toarray() if _is_sparse(Xv) else Xv
    return ValidatedData(
        X=Xv, y=y_enc, task=resolved, classes=classes, feature_names=names,
        constant=constant_columns(dense), duplicate_of=duplicate_columns(dense),
    )
