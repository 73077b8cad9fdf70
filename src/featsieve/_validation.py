"""One validation path for every selector and front end.

Every check here raises an error that says what was expected, what was found
and how to fix it, naming the offending columns (STYLE.md habit 9). Nothing in
this module modifies the caller's data: arrays are copied before any change.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field, replace
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.preprocessing import LabelEncoder
from sklearn.utils import check_array
from sklearn.utils._param_validation import Interval, RealNotInt
from sklearn.utils.multiclass import type_of_target

from ._warnings import DataWarning, FeatsieveWarning, ParameterWarning

__all__ = [
    "ColumnDescription",
    "ColumnKindWarning",
    "ColumnValueError",
    "ConstantFeatureWarning",
    "DuplicateFeatureWarning",
    "FewerFeaturesWarning",
    "TargetLeakWarning",
    "check_unique_columns",
    "warn_target_leaks",
    "leak_note",
    "duplicate_columns",
    "target_copies",
    "ValidatedData",
    "constant_columns",
    "describe_columns",
    "detect_task",
    "encode_columns",
    "encode_target",
    "validate_X",
    "resolve_n_features",
]

TASKS = ("classification", "regression")
_MAX_LISTED = 10


class ConstantFeatureWarning(FeatsieveWarning):
    """Some feature columns are constant; they will never be selected."""


class FewerFeaturesWarning(FeatsieveWarning):
    """A selector found fewer useful features than were requested."""


class DuplicateFeatureWarning(FeatsieveWarning):
    """Some feature columns are exact copies of an earlier one; only the first is used."""


#: Largest dense float64 array (bytes) a sparse input is expanded to.
MAX_DENSE_BYTES = 4 * 2**30


def _names_str(names) -> str:
    names = [str(n) for n in names]
    head = ", ".join(repr(n) for n in names[:_MAX_LISTED])
    if len(names) > _MAX_LISTED:
        head += f" and {len(names) - _MAX_LISTED} more"
    return head


def _columns(names, singular: str, plural: str) -> str:
    """``Column 'a' is`` or ``Columns 'a', 'b' are``: the subject of a message and its verb."""
    if len(names) == 1:
        return f"Column {_names_str(names)} {singular}"
    return f"Columns {_names_str(names)} {plural}"


def _column_names(X, n_features: int) -> list:
    if hasattr(X, "columns"):
        return list(X.columns)
    return [f"x{i}" for i in range(n_features)]


def check_unique_columns(X) -> None:
    """Raise one ``ValueError`` naming the repeated column names of a table (pandas, or any
    dataframe with a ``columns`` list), without converting it.

    Examples
    --------
    >>> import pandas as pd
    >>> check_unique_columns(pd.DataFrame([[1, 2, 3]], columns=["a", "a", "b"]))
    Traceback (most recent call last):
    ...
    ValueError: X has duplicate column names: 'a'; rename them so every column is unique (for example a, a.1).
    """
    cols = getattr(X, "columns", None)
    if cols is None or isinstance(cols, str):
        return
    try:
        names = list(cols)  # pandas' Index, polars' and pyarrow's lists of names
    except TypeError:
        return
    if len(set(map(repr, names))) < len(names):
        seen, dupes = set(), []
        for c in names:
            if repr(c) in seen and c not in dupes:
                dupes.append(c)
            seen.add(repr(c))
        raise ValueError(
            f"X has duplicate column names: {', '.join(map(repr, dupes))}; rename them so "
            f"every column is unique (for example {dupes[0]}, {dupes[0]}.1).")


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


# ------------------------------------------------------------------ column kinds
#: The kinds a feature column can have (read once by :func:`describe_columns`).
KINDS = ("numeric", "boolean", "categorical", "datetime")

#: Text values read as missing in a column of numbers stored as text (compared lower-cased).
MISSING_TOKENS = frozenset({"", "?", "na", "n/a", "nan", "null", "none", "-", ".", "missing"})

#: Fewest rows for a column to be called ID-like (unique per row).
MIN_ROWS_ID = 20

#: Least share of rows with a distinct value for a column to be ID-like with repeats.
ID_SHARE = 0.98

_ID_NAMES = ("id", "index", "rownames", "row names", "row", "row num", "row.names", "unnamed: 0",
             "key", "no", "")


class ColumnKindWarning(FeatsieveWarning):
    """How a column was read deserves a look: numbers stored as text, an ID-like column."""


@dataclass
class ColumnDescription:
    """What the validation layer learned about the columns of a table.

    It travels with the data to every method (``fit(X, y, columns=...)``) and is
    stored on every fitted selector as ``columns_``.

    Attributes
    ----------
    names : list
        The original column labels.
    kinds : ndarray of str, shape (n_columns,)
        ``"numeric"`` (also pandas nullable ``Int64``/``Float64`` and numbers
        stored as text), ``"boolean"``, ``"categorical"`` (pandas ``category``,
        object, ``str`` and ``string[pyarrow]`` text) or ``"datetime"`` (naive or
        tz-aware).
    categories : dict
        Column index -> the categories seen (``pandas.Index``) for categorical
        columns, in code order.
    n_missing : ndarray of int, shape (n_columns,)
        Rows whose value is missing (NaN, None, ``pd.NA``, ``NaT``, or a
        missing-value token in numbers stored as text).
    left_out : ndarray of bool, shape (n_columns,)
        ID-like columns (unique per row) left out of the selection.
    notes : dict
        Column index -> why it was read as it was (numbers stored as text,
        ID-like, a user override).
    text_numbers : dict
        Column index -> decimal mark (``"."`` or ``","``) of a column of numbers
        stored as text.
    """

    names: list
    kinds: np.ndarray
    categories: dict = field(default_factory=dict)
    n_missing: np.ndarray | None = None
    left_out: np.ndarray | None = None
    notes: dict = field(default_factory=dict)
    text_numbers: dict = field(default_factory=dict)

    def __post_init__(self):
        d = len(self.names)
        self.kinds = np.asarray(self.kinds, dtype=object)
        if self.n_missing is None:
            self.n_missing = np.zeros(d, dtype=np.int64)
        if self.left_out is None:
            self.left_out = np.zeros(d, dtype=bool)

    @property
    def categorical(self) -> np.ndarray:
        """Bool mask of the categorical columns."""
        return self.kinds == "categorical"

    @property
    def discrete(self) -> np.ndarray:
        """Bool mask of the columns whose values are labels (categorical or boolean)."""
        return (self.kinds == "categorical") | (self.kinds == "boolean")

    def to_frame(self) -> pd.DataFrame:
        """One row per column: ``column``, ``kind``, ``n_categories``, ``n_missing``,
        ``left_out``, ``note``."""
        d = len(self.names)
        return pd.DataFrame({
            "column": [str(n) for n in self.names],
            "kind": list(self.kinds),
            "n_categories": [len(self.categories[j]) if j in self.categories else None
                             for j in range(d)],
            "n_missing": self.n_missing,
            "left_out": self.left_out,
            "note": [self.notes.get(j, "") for j in range(d)],
        })


def _check_override(names, given, what):
    if given is None:
        return []
    given = [given] if isinstance(given, (str, int)) or not hasattr(given, "__iter__") else list(
        given)
    known = {str(n): n for n in names}
    unknown = [g for g in given if g not in set(names) and str(g) not in known]
    if unknown:
        raise ValueError(
            f"{what} names columns that are not in X: {_names_str(unknown)}; the columns are "
            f"{_names_str(names)}.")
    return [g if g in set(names) else known[str(g)] for g in given]


#: Largest share of a column's non-missing rows whose text is no number (a stray word such as
#: ``"rotary"`` among horsepowers) for the column to be read as numbers; those cells are read as
#: missing, named in a :class:`ColumnKindWarning`. Above it the column is categorical.
STRAY_SHARE = 0.05
#: Share of a categorical column's rows that are numbers from which a warning says so (the
#: column may be numbers with too many words among them: ``numeric=[...]`` reads it as such).
MOSTLY_NUMBERS = 0.8

#: A number grouped in thousands: ``1,234`` or ``1,234.5`` (decimal point), ``1.234,5`` (comma).
_GROUPED = {".": r"^[+-]?\d{1,3}(,\d{3})+(\.\d*)?$", ",": r"^[+-]?\d{1,3}(\.\d{3})+(,\d*)?$"}
_CURRENCY = r"^([+-]?)\s*[$€£¥]\s*"


def _number_text(text: pd.Series, mark: str) -> pd.Series:
    """Stripped text values as floats under decimal mark ``mark`` (NaN: not a number).

    The stated rule: a leading currency sign (``$ € £ ¥``) and a trailing ``%``
    are dropped (``"12%"`` is 12, the number written); thousands separators
    are removed where a value is grouped in thousands (``1,234.5`` with a
    decimal point, ``1.234,5`` with a decimal comma); with a decimal comma,
    the comma is the decimal mark.
    """
    t = text.str.replace(_CURRENCY, r"\1", regex=True).str.replace(r"\s*%$", "", regex=True)
    grouped = t.str.match(_GROUPED[mark])
    sep = "," if mark == "." else "."
    t = t.where(~grouped, t.str.replace(sep, "", regex=False))
    if mark == ",":
        t = t.str.replace(",", ".", regex=False)
    return pd.to_numeric(t, errors="coerce")


def _text_number_mode(counts: pd.Series):
    """How a text column holds numbers, from its value counts (stripped text -> rows).

    Returns ``(mark, missing_tokens, stray, how)`` when every value but the
    missing-value tokens and at most ``STRAY_SHARE`` of the rows is a number
    (:func:`_number_text`), else None: ``mark`` the decimal mark, ``stray``
    ``{text: rows}`` of the values read as missing, ``how`` the rules used.
    """
    text = pd.Series(counts.index.astype(str), index=counts.index)
    missing = text.str.lower().isin(MISSING_TOKENS).to_numpy()
    rest, n = text[~missing], counts[~missing]
    if rest.empty or n.sum() == 0:
        return None
    best = None
    for mark in (".", ","):
        if mark == "," and not rest.str.contains(",", regex=False).any():
            continue
        ok = _number_text(rest, mark).notna().to_numpy()
        bad = n[~ok].sum() / n.sum()
        if ok.any() and bad <= STRAY_SHARE and (best is None or bad < best[0]):
            best = (bad, mark, ok)
    if best is None:
        return None
    _, mark, ok = best
    num = rest[ok]
    bare = num.str.replace(_CURRENCY, r"\1", regex=True).str.replace(r"\s*%$", "", regex=True)
    how = [w for w, hit in (
        ("decimal commas", mark == "," and num.str.contains(",", regex=False).any()),
        ("currency signs dropped", (bare != num).any() and num.str.match(
            r"^[+-]?\s*[$€£¥]").any()),
        ("thousands separators removed", bare.str.match(_GROUPED[mark]).any()),
        ("percentages read as the number written (12% is 12)",
         num.str.contains(r"%\s*$", regex=True).any())) if hit]
    stray = {str(v): int(c) for v, c in zip(rest[~ok], n[~ok], strict=True)}
    return mark, sorted(set(text[missing])), stray, how


def _parse_text_numbers(s: pd.Series, mark: str) -> np.ndarray:
    """A column of numbers stored as text as float64 (rule of :func:`_number_text`)."""
    codes, uniques = pd.factorize(s, use_na_sentinel=True)  # parse each distinct text once
    if len(uniques) == 0:
        return np.full(len(s), np.nan)
    vals = _number_text(pd.Series(pd.Index(uniques).astype(str)).str.strip(), mark).to_numpy(
        dtype=np.float64, na_value=np.nan)
    return np.where(codes < 0, np.nan, vals[np.maximum(codes, 0)])


def _text_counts(s: pd.Series) -> pd.Series:
    """Rows per stripped text value of a column (missing cells left out)."""
    vc = s.dropna().value_counts(sort=False)
    return vc.groupby(pd.Index(vc.index.astype(str)).str.strip(), sort=False).sum()


def _refuse(name, dtype, hint=""):
    raise ValueError(
        f"Column {name!r} has dtype {dtype}, which featsieve cannot read as a feature (it "
        f"reads numbers, booleans, categories/text and dates){hint}. Convert or drop it "
        "before selection.")


class ColumnValueError(TypeError, ValueError):
    """A column holds values that are not single cells (lists, arrays, tuples, dicts, sets).

    A ``TypeError`` (the value's type is wrong) that is also a ``ValueError``, so a
    front end that reports bad input by catching ``ValueError`` reports this one too.
    """


_CONTAINERS = (list, tuple, dict, set, frozenset, np.ndarray, pd.Series)


def _refuse_containers(name, values) -> None:
    """Raise :class:`ColumnValueError` naming ``name`` if a value is a container."""
    bad = next((v for v in values
                if isinstance(v, _CONTAINERS) or not pd.api.types.is_hashable(v)), None)
    if bad is None:
        return
    raise ColumnValueError(
        f"Column {name!r} holds {type(bad).__name__} values (first: {_short(bad)}), which "
        "featsieve cannot read: each argument must be a string or a number, one value a cell "
        "(a number, a category or a date). "
        "Expand the column into one column per element, or drop it, before selection.")


def _short(value, width: int = 40) -> str:
    """``repr`` of a value cut to ``width`` characters."""
    text = repr(value).replace("\n", " ")
    return text if len(text) <= width else text[:width - 3] + "..."


def _column_kind(name, s: pd.Series):
    """``(kind, text_number_mark or None, note)`` of one column, or raise for other dtypes."""
    dt = s.dtype
    if pd.api.types.is_bool_dtype(dt):
        return "boolean", None, ""
    if isinstance(dt, pd.CategoricalDtype):
        return "categorical", None, ""
    if pd.api.types.is_datetime64_any_dtype(dt):
        return "datetime", None, ""
    if pd.api.types.is_timedelta64_dtype(dt):
        _refuse(name, dt, " (a duration: use .dt.total_seconds() for a number)")
    if pd.api.types.is_complex_dtype(dt):
        _refuse(name, dt)
    if pd.api.types.is_numeric_dtype(dt):
        return "numeric", None, ""
    if not (pd.api.types.is_object_dtype(dt) or pd.api.types.is_string_dtype(dt)):
        _refuse(name, dt)
    try:
        uniq = pd.Series(s.dropna().unique())
    except TypeError:  # unhashable values: dicts, lists, sets, NumPy arrays (Parquet lists)
        _refuse_containers(name, s.dropna())
        raise  # pragma: no cover - every unhashable value is refused above
    if uniq.empty:
        return "numeric", None, ""
    inferred = pd.api.types.infer_dtype(uniq, skipna=True)
    if inferred in ("mixed", "mixed-integer"):  # hashable containers: tuples, frozensets
        _refuse_containers(name, uniq)
    if inferred == "boolean":
        return "boolean", None, ""
    if inferred in ("integer", "floating", "mixed-integer-float", "decimal"):
        return "numeric", None, ""
    if inferred in ("datetime", "datetime64", "date"):
        return "datetime", None, ""
    if inferred in ("string", "mixed", "mixed-integer", "bytes", "empty"):
        mode = _text_number_mode(_text_counts(s)) if inferred != "bytes" else None
        if mode is not None:
            mark, tokens, stray, how = mode
            how = f" ({', '.join(how)})" if how else ""
            miss = (f"; {', '.join('blank cells' if t == '' else repr(t) for t in tokens)} "
                    "read as missing" if tokens else "")
            if stray:
                words = ", ".join(f"{v!r} ({c} row{'s' if c != 1 else ''})"
                                  for v, c in list(stray.items())[:5])
                more = f" and {len(stray) - 5} more" if len(stray) > 5 else ""
                miss += f"; not numbers, read as missing: {words}{more}"
            return "numeric", mark, f"numbers stored as text{how}{miss}"
        if inferred == "string" and _dates_as_text(uniq):
            return "datetime", None, "dates stored as text"
        return "categorical", None, _mostly_numbers_note(_text_counts(s))
    _refuse(name, f"object holding {inferred} values")


def _mostly_numbers_note(counts: pd.Series) -> str:
    """For a column read as categories: a note when most of its rows (``MOSTLY_NUMBERS``;
    missing-value tokens aside) are numbers, naming the words that made it categorical;
    else ``""``."""
    text = pd.Series(counts.index.astype(str), index=counts.index)
    keep = ~text.str.lower().isin(MISSING_TOKENS).to_numpy()
    text, n = text[keep], counts[keep]
    if n.sum() == 0:
        return ""
    ok = _number_text(text, ".").notna().to_numpy()
    share = n[ok].sum() / n.sum()
    if share < MOSTLY_NUMBERS:
        return ""
    words = n[~ok].sort_values(ascending=False, kind="stable")
    listed = ", ".join(f"{v!r} ({c} row{'s' if c != 1 else ''})"
                       for v, c in list(words.items())[:5])
    more = f" and {len(words) - 5} more" if len(words) > 5 else ""
    return (f"mostly numbers ({share:.0%} of its rows), read as categories for the words on "
            f"{1 - share:.0%}: {listed}{more}")



_DATE_TEXT = r"^\s*(\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}/\d{2,4})([ T]\d{1,2}:\d{2}.*)?\s*$"


def _dates_as_text(uniq: pd.Series) -> bool:
    """Whether every text value is a date (ISO ``2021-03-04``, ``3/4/2021``, with a time)."""
    text = uniq.astype(str)
    if not text.str.match(_DATE_TEXT).all():
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "could not infer format"
        return bool(pd.to_datetime(text, errors="coerce", utc=True).notna().all())


def _id_name(name) -> bool:
    """Whether a column label looks like an identifier's (case-insensitive).

    ``id``, ``index``, ``rownames``/``row.names``, ``row``, ``row num``,
    ``unnamed: 0``, ``key``, ``no``, or ending in ``id`` after a separator
    (``customer_id``, ``customer id``, ``customer.id``, ``customer-id``) or in
    camel case (``PassengerId``, ``UserID``).
    """
    raw = str(name).strip()
    low = re.sub(r"[_.\-]+", " ", raw.lower())
    return low in _ID_NAMES or raw.lower() in _ID_NAMES or low.endswith(" id") or \
        raw.endswith("Id") or raw.endswith("ID")


def _id_like(name, s: pd.Series, kind: str, n: int) -> bool:
    """An ID: a distinct value on (nearly) every row, text or whole numbers.

    A column is ID-like when it has at least ``MIN_ROWS_ID`` rows, no missing
    value, and either

    * a distinct value on every row, and its name is an ID's (:func:`_id_name`),
      or it is text, or it holds whole numbers spanning at most twice the row
      count (a row index in any order, R's ``rownames``, a saved pandas index); or
    * distinct values on at least ``ID_SHARE`` (98%) of the rows (an ID with a
      few repeated rows), and it is text, or it holds whole numbers and either its
      name is an ID's or its values form a near-complete integer range
      (``max - min + 1 <= 1.05 n``).

    A pandas ``category`` column is ID-like only by its name; numbers with
    fractions are never ID-like by the second rule.
    """
    if n < MIN_ROWS_ID or kind in ("boolean", "datetime") or s.isna().any():
        return False
    distinct = s.nunique()
    if distinct < ID_SHARE * n:
        return False
    exact = distinct == n
    named = _id_name(name)
    if exact and named:
        return True
    if kind == "categorical":
        return not isinstance(s.dtype, pd.CategoricalDtype) or named
    vals = pd.to_numeric(s, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    if np.isnan(vals).any() or not np.all(vals == np.round(vals)):
        return False
    span = vals.max() - vals.min() + 1
    return span <= 2 * n if exact else named or span <= 1.05 * n


def describe_columns(X, *, categorical=None, numeric=None, detect_ids: bool = True,
                     warn: bool = True) -> ColumnDescription:
    """Read the kind of every column of a table, once.

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
        pandas, polars (through narwhals) or a NumPy array (numeric arrays are
        all ``"numeric"``; an object array is read column by column).
    categorical : list of column labels or None, default=None
        Columns to read as categories whatever their dtype (codes, zip codes).
    numeric : list of column labels or None, default=None
        Columns to read as numbers whatever their dtype (text is parsed; a value
        that is not a number becomes missing).
    detect_ids : bool, default=True
        Leave out ID-like columns (unique per row, see :func:`_id_like`) with a
        :class:`ColumnKindWarning` naming them. A column named in
        ``categorical``/``numeric`` is never left out.
    warn : bool, default=True
        Emit the :class:`ColumnKindWarning` (numbers stored as text, ID-like columns).

    Returns
    -------
    description : ColumnDescription
        ``n_missing`` is filled by :func:`validate_Xy` from the encoded values.

    Raises
    ------
    ValueError
        A column of another dtype (durations, complex numbers, periods,
        intervals, lists); an override naming an unknown column or a column named in
        both ``categorical`` and ``numeric``.
    """
    X = to_pandas(X)
    if not isinstance(X, pd.DataFrame):
        if _is_sparse(X) or np.asarray(X).dtype.kind in "biufc":  # complex: check_array says
            d = X.shape[1] if X.ndim == 2 else 1
            names = [f"x{i}" for i in range(d)]
            if categorical is None and numeric is None:
                return ColumnDescription(names, np.full(d, "numeric", dtype=object))
        X = pd.DataFrame(np.asarray(X) if not _is_sparse(X) else X.toarray())
        X.columns = [f"x{i}" for i in range(X.shape[1])]
    names = list(X.columns)
    cats = _check_override(names, categorical, "categorical")
    nums = _check_override(names, numeric, "numeric")
    both = [c for c in cats if c in set(nums)]
    if both:
        raise ValueError(f"{_columns(both, 'is', 'are')} named in both categorical and "
                         "numeric; name each in one.")
    d = len(names)
    kinds = np.empty(d, dtype=object)
    notes, text_numbers, categories = {}, {}, {}
    left_out = np.zeros(d, dtype=bool)
    n = X.shape[0]
    for j, name in enumerate(names):
        s = X.iloc[:, j]
        if name in cats:
            kind, mark, note = "categorical", None, "categorical (as asked)"
        elif name in nums:
            kind, note = "numeric", "numeric (as asked)"
            mark = None
            if not (pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(
                    s.dtype)):
                mode = _text_number_mode(_text_counts(s))
                mark = "." if mode is None else mode[0]
        else:
            kind, mark, note = _column_kind(name, s)
        kinds[j] = kind
        if kind == "datetime":  # the stated encoding (encode_columns): no derived parts
            note = (note + "; " if note else "") + "one number: days since 1970-01-01 (UTC)"
        if mark is not None:
            text_numbers[j] = mark
        if note:
            notes[j] = note
        if kind == "categorical":
            if isinstance(s.dtype, pd.CategoricalDtype):
                categories[j] = s.cat.categories
            else:
                categories[j] = pd.Index(pd.unique(_category_values(s).dropna())).sort_values()
        if detect_ids and name not in cats and name not in nums and _id_like(
                name, _category_values(s) if kind == "categorical" else s, kind, n):
            left_out[j] = True
            notes[j] = ("ID-like: a distinct value on every row" if s.nunique() == n else
                        f"ID-like: distinct values on at least {ID_SHARE:.0%} of the rows")
    if warn:
        parsed = [j for j in text_numbers if j not in set(np.flatnonzero(left_out))
                  and names[j] not in nums]
        if parsed:
            warnings.warn(
                "Numbers stored as text, read as numbers: "
                + "; ".join(f"{names[j]!r}: {notes[j]}" for j in parsed[:_MAX_LISTED])
                + (f"; and {len(parsed) - _MAX_LISTED} more" if len(parsed) > _MAX_LISTED
                   else "")
                + f". A column whose text is not a number on more than {STRAY_SHARE:.0%} of "
                "its rows is read as categories. Pass categorical=[...] (CLI: --categorical "
                "COL) to read one as categories.",
                ColumnKindWarning, stacklevel=3)
        mostly = [j for j in range(d) if kinds[j] == "categorical" and not left_out[j]
                  and str(notes.get(j, "")).startswith("mostly numbers")]
        if mostly:
            warnings.warn(
                "; ".join(f"{names[j]!r} is {notes[j]}" for j in mostly[:_MAX_LISTED])
                + (f"; and {len(mostly) - _MAX_LISTED} more" if len(mostly) > _MAX_LISTED
                   else "")
                + ". Pass numeric=[...] (CLI: --numeric COL) to read such a column as numbers "
                "(the words become missing values).", ColumnKindWarning, stacklevel=3)
        if left_out.any():
            ids = [names[j] for j in np.flatnonzero(left_out)]
            one = len(ids) == 1
            warnings.warn(
                f"{_columns(ids, 'is', 'are')} ID-like (distinct on at least 98% of the rows: "
                f"an ID or a saved row index) and {'is' if one else 'are'} left out of the "
                "selection. "
                f"{'Name it' if one else 'Name one'} in numeric=[...] or categorical=[...] "
                "(CLI: --numeric/--categorical COL) to keep it, or --drop it to leave it out "
                "of the written table too.",
                ColumnKindWarning, stacklevel=3)
    return ColumnDescription(names, kinds, categories=categories, left_out=left_out,
                             notes=notes, text_numbers=text_numbers)


#: Text read as missing in a column of categories (after stripping spaces): UCI's ``?``, blanks.
CATEGORY_MISSING_TOKENS = frozenset({"", "?"})


def _category_values(s: pd.Series) -> pd.Series:
    """The values of a categorical column as categories: text as ``str`` (mixed types too).

    Text is stripped of leading and trailing spaces (``" Private"`` is
    ``"Private"``), and ``CATEGORY_MISSING_TOKENS`` (``"?"``, ``" ?"``, blank
    text) are missing.
    """
    if isinstance(s.dtype, pd.CategoricalDtype) or pd.api.types.is_numeric_dtype(s.dtype) or \
            pd.api.types.is_bool_dtype(s.dtype):
        return s
    text = s.astype(str).str.strip()
    missing = s.isna() | text.isin(CATEGORY_MISSING_TOKENS)
    return text.astype(object).where(~missing, np.nan)


def _plain_numeric(X: pd.DataFrame, description: ColumnDescription) -> bool:
    """Whether every column is a NumPy number or bool (the fast path: one ``to_numpy``)."""
    return not description.text_numbers and all(
        k in ("numeric", "boolean") for k in description.kinds) and all(
        isinstance(dt, np.dtype) and dt.kind in "biuf" for dt in X.dtypes)


def encode_columns(X: pd.DataFrame, description: ColumnDescription) -> np.ndarray:
    """The table as a float64 matrix, one column per original column, NaN where missing.

    Numbers as they are (text parsed); booleans 0/1; categories as codes
    ``0..k-1`` in the order of ``description.categories`` (a category not seen
    there is missing); datetimes as days since 1970-01-01 (tz-aware ones in
    UTC), a float, so the time order is kept and one date column stays one
    column. This is a choice: a date is not expanded into parts (year, month,
    weekday, hour), since every method selects among original columns, one
    encoded column each; when such parts matter, add them as columns and make
    them one unit with ``column_groups=`` (CLI ``--column-group``), so they are
    kept or dropped together.

    Parameters
    ----------
    X : DataFrame of shape (n_samples, n_features)
    description : ColumnDescription

    Returns
    -------
    values : ndarray of float64, shape (n_samples, n_features)
        A new array; ``X`` is not modified.
    """
    n, d = X.shape
    out = np.empty((n, d), dtype=np.float64)
    for j in range(d):
        s = X.iloc[:, j]
        kind = description.kinds[j]
        if kind == "categorical":
            codes = pd.Categorical(_category_values(s),
                                   categories=description.categories[j]).codes
            out[:, j] = np.where(codes < 0, np.nan, codes)
        elif kind == "datetime":
            if pd.api.types.is_datetime64_any_dtype(s.dtype):
                t = s
            else:  # dates stored as text (naive ones read as UTC) or Python datetimes
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    t = pd.to_datetime(s, errors="coerce", utc=True)
            if getattr(t.dt, "tz", None) is not None:
                t = t.dt.tz_convert("UTC").dt.tz_localize(None)
            out[:, j] = ((t - pd.Timestamp("1970-01-01")) / pd.Timedelta(days=1)).to_numpy(
                dtype=np.float64, na_value=np.nan)
        elif j in description.text_numbers:
            out[:, j] = _parse_text_numbers(s, description.text_numbers[j])
        elif kind == "boolean" and not pd.api.types.is_bool_dtype(s.dtype):
            out[:, j] = s.map({True: 1.0, False: 0.0}).to_numpy(dtype=np.float64,
                                                                 na_value=np.nan)
        else:
            out[:, j] = pd.to_numeric(s, errors="coerce").to_numpy(dtype=np.float64,
                                                                    na_value=np.nan) \
                if s.dtype == object else s.to_numpy(dtype=np.float64, na_value=np.nan)
    return out


def validate_X(X, *, allow_nan: bool = True, dtype=np.float64, accept_sparse: bool = False,
               columns: ColumnDescription | None = None):
    """Check a feature table and return it as a float array, one column per original column.

    Parameters
    ----------
    X : array-like or pandas.DataFrame of shape (n_samples, n_features)
        Feature table: numbers, booleans, categories/text and dates
        (:func:`describe_columns`), encoded by :func:`encode_columns`.
    allow_nan : bool, default=True
        Whether missing values are passed through (as NaN) instead of rejected.
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
    columns : ColumnDescription or None, default=None
        The columns' kinds and categories (those of the training data for
        validation rows); None reads them from ``X``.

    Returns
    -------
    X_checked : ndarray of shape (n_samples, n_features)
        A new array whenever a conversion was needed; the input is never
        modified in place.

    Raises
    ------
    ValueError
        Columns of a kind featsieve cannot read (named), NaN (unless
        ``allow_nan``) or infinite values, values beyond ``MAX_ABS_VALUE``
        (1e38), duplicate column names, or an empty table. The message names
        the columns.
    """
    X = to_pandas(X)  # polars and other dataframes (narwhals)
    check_unique_columns(X)
    if not isinstance(X, pd.DataFrame) and not _is_sparse(X) and \
            np.asarray(X).dtype.kind in "OUSM":
        X = pd.DataFrame(np.asarray(X) if np.ndim(X) == 2 else np.asarray(X).reshape(-1, 1))
        X.columns = [f"x{i}" for i in range(X.shape[1])]
    if isinstance(X, pd.DataFrame):
        desc = columns if columns is not None else describe_columns(
            X, detect_ids=False, warn=False)
        if len(desc.names) != X.shape[1]:
            raise ValueError(f"X has {X.shape[1]} columns; {len(desc.names)} were expected.")
        if _plain_numeric(X, desc):
            values = X.to_numpy(dtype=_frame_dtype(X, dtype), na_value=np.nan, copy=True)
        else:
            values = encode_columns(X, desc)
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
            inf = [j for j in huge if np.isinf(arr[:, j]).any()]
            bad = inf or huge
            if bad:
                cols = [names[i] for i in bad] if names else [f"x{i}" for i in bad]
                raise ValueError(
                    _columns(cols, "holds", "hold") + " infinite values (inf or -inf). Replace "
                    "them with NaN, which featsieve reads as missing (e.g. "
                    "X.replace([np.inf, -np.inf], np.nan)), or with a finite number." if inf else
                    _columns(cols, "has", "have") + " values beyond ±1e38, outside the float32 "
                    "range that tree models compute in. Rescale them (e.g. divide by a power of "
                    "ten, or take a log).")
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


def duplicate_columns(X: np.ndarray, kinds=None) -> np.ndarray:
    """For each column, the index of the first column it is an exact copy of.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    kinds : array-like of shape (n_features,) or None, default=None
        A label per column (its kind): only columns with the same label are
        compared, so a text column's codes ``0..k-1`` are no copy of a numeric
        column holding ``0..k-1``. None: every column is compared.

    Returns
    -------
    first : ndarray of int, shape (n_features,)
        ``first[j] == j`` for a column that is not a copy of an earlier one;
        otherwise the lowest index of an identical column (NaNs compare equal).
    """
    X = np.asarray(X)
    d = X.shape[1]
    first = np.arange(d)
    if d < 2:
        return first
    # a 64-bit fingerprint of each column's bytes (NaN mapped to inf, as equal), computed
    # on blocks of columns (no full-size copy); equal fingerprints (and kinds) group the
    # candidates, which are confirmed by comparing the columns themselves
    keys = _column_fingerprints(X)
    if kinds is not None:
        _, kind_codes = np.unique(np.asarray([str(k) for k in kinds]), return_inverse=True)
        keys = np.stack([keys, kind_codes.astype(np.uint64)], axis=1)
    else:
        keys = keys[:, None]
    _, group_of, counts = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    group_of = group_of.ravel()
    shared = np.flatnonzero(counts[group_of] > 1)
    seen: dict[int, list[int]] = {}
    for j in shared:  # ascending: the first equal column of a group is its lowest index
        col = np.nan_to_num(np.ascontiguousarray(X[:, j]), nan=np.inf).tobytes()
        group = seen.setdefault(int(group_of[j]), [])
        for i in group:
            if np.nan_to_num(X[:, i], nan=np.inf).tobytes() == col:
                first[j] = i
                break
        else:
            group.append(j)
    return first


def _column_fingerprints(X: np.ndarray, block_bytes: int = 1 << 18) -> np.ndarray:
    """A 64-bit fingerprint per column of ``X``: its bit patterns (NaN as inf) times fixed
    odd row weights, summed modulo 2**64 (equal columns give equal fingerprints). Blocks of
    columns of about ``block_bytes`` of 64-bit words at a time: the working memory stays
    under a megabyte beside the table."""
    n, d = X.shape
    size = X.dtype.itemsize
    if X.dtype.kind not in "biuf" or size not in (1, 2, 4, 8):  # bytes of anything else
        import hashlib

        return np.array([int.from_bytes(hashlib.blake2b(
            np.ascontiguousarray(X[:, j]).tobytes(), digest_size=8).digest(), "little")
            for j in range(d)], dtype=np.uint64)
    weights = np.random.default_rng(0x5EED).integers(0, 2**63, size=n, dtype=np.uint64) * \
        np.uint64(2) + np.uint64(1)
    out = np.empty(d, dtype=np.uint64)
    step = max(1, block_bytes // max(1, 8 * n))
    for a in range(0, d, step):
        block = np.array(X[:, a:a + step], order="F")  # a copy: NaN mapped in place
        if block.dtype.kind == "f":
            np.nan_to_num(block, copy=False, nan=np.inf)
        bits = block.view(f"u{size}").astype(np.uint64)
        del block
        with np.errstate(over="ignore"):
            bits *= weights[:, None]
            out[a:a + step] = bits.sum(axis=0, dtype=np.uint64)
    return out


def _duplicate_kinds(columns: ColumnDescription) -> np.ndarray:
    """Labels for :func:`duplicate_columns`: categories or numbers, unique for left-out columns.

    Copies are told only among categorical columns or among the others (numbers,
    booleans, dates), never with a left-out (ID-like) column: a text ID's codes
    and a row number both encode to ``0..n-1``.
    """
    labels = np.where(columns.categorical, "categorical", "number").astype(object)
    for j in np.flatnonzero(columns.left_out):
        labels[j] = f"left out {j}"
    return labels


def _target_name(y, given: str) -> str:
    """The name for messages: a Series' own name unless the caller gave one."""
    name = getattr(y, "name", None)
    return str(name) if given == "y" and isinstance(name, str) and name else given


def _target_numbers(y_arr) -> tuple[np.ndarray, list] | None:
    """A text target of numbers as written (``$215,000``, ``1.234,5``, ``12%``, or plain
    numbers among blank or ``?`` cells, as in Telco's TotalCharges) as ``(float64 values,
    NaN where a cell is a missing-value token; what was done)``; None for anything else.

    The rules are :func:`_number_text`'s. Text with no such mark and no missing-value
    token (``"3"``, ``"yes"``) and text with any value that is no number stays text:
    labels.
    """
    if y_arr.ndim != 1 or y_arr.dtype.kind not in "OU" or len(y_arr) == 0:
        return None
    s = pd.Series(y_arr)
    if not s.map(lambda v: isinstance(v, str) or v is None or v is pd.NA or (
            isinstance(v, float) and v != v)).all():
        return None
    text = s.where(s.notna(), "").astype(str).str.strip()
    mode = _text_number_mode(text.value_counts())
    if mode is None or mode[2] or not (mode[1] or mode[3]):
        return None
    how = list(mode[3])
    if mode[1]:
        how.append(", ".join("blank cells" if t == "" else repr(t) for t in mode[1])
                   + " read as missing")
    return _parse_text_numbers(text, mode[0]), how


def detect_task(y, task: str = "auto") -> str:
    """Return ``"classification"`` or ``"regression"`` for a target.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    task : {"auto", "classification", "regression"}, default="auto"
        ``"auto"``: text, boolean and categorical targets are classes; numbers
        are classes when they are whole numbers with at most ``max(20, n/10)``
        distinct values (scikit-learn's ``type_of_target`` says binary or
        multiclass), otherwise regression (continuous floats, and whole numbers
        with many distinct values: a count, a balance). Pass
        ``task="classification"`` (CLI ``--task classification``) to read such a
        target as classes.

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
    parsed = _target_numbers(y_arr)
    if parsed is not None:  # "$215,000": numbers written as text are numbers
        y_arr = parsed[0][~np.isnan(parsed[0])]
    elif y_arr.dtype.kind in "OUSb" or isinstance(getattr(y, "dtype", None), pd.CategoricalDtype):
        return "classification"
    kind = type_of_target(y_arr)
    if kind in ("binary", "multiclass"):
        n_unique = len(np.unique(y_arr))
        # many distinct whole numbers relative to the sample count are a quantity (a count, a
        # balance), not classes: the rule of ``regression_rule``
        if y_arr.dtype.kind in "iuf" and n_unique > max(20, 0.1 * len(y_arr)):
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
    parsed = _target_numbers(y_arr)
    if parsed is not None:
        if np.isnan(parsed[0]).any():
            n = int(np.isnan(parsed[0]).sum())
            raise ValueError(f"The target {target_name!r} has {n} missing values; drop those "
                             "rows first.")
        warnings.warn(f"The target {target_name!r} holds numbers written as text; read as numbers "
                      f"({'; '.join(parsed[1])}).", DataWarning, stacklevel=3)
        y_arr = parsed[0]
    try:
        y_float = y_arr.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"The target {target_name!r} is not numeric, so it cannot be a regression target; "
            "pass task='classification' for labels (CLI: --task classification)."
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
            ParameterWarning,
            stacklevel=3,
        )
        return n_features
    return value


class MissingTargetWarning(FeatsieveWarning):
    """Rows whose target is missing were left out."""


class TargetLeakWarning(FeatsieveWarning):
    """A feature column determines the target exactly (a copy or a consequence of it)."""


def warn_target_leaks(data, names, *, stacklevel: int = 3) -> list[str]:
    """One :class:`TargetLeakWarning` naming the columns that give the target exactly.

    Parameters
    ----------
    data : ValidatedData
        :func:`validate_Xy`'s answer (constant and ID-like columns are not tested).
    names : sequence of str
        Column names, in ``data.X``'s order.
    stacklevel : int, default=3

    Returns
    -------
    list of str
        The names of those columns (empty: none).
    """
    import shlex

    skip = np.asarray(data.constant, dtype=bool).copy()
    if data.columns is not None:
        skip |= data.columns.left_out
    leaks = [str(names[j]) for j in target_copies(data.X, np.asarray(data.y), data.task, skip)]
    if leaks:
        cols = ", ".join(repr(c) for c in leaks)
        warnings.warn(
            f"Column{'s' if len(leaks) > 1 else ''} {cols} give{'' if len(leaks) > 1 else 's'} "
            "the target exactly on every row: a copy or a consequence of the target? Every "
            "method will keep it; if it is not known when you predict, leave it out "
            f"(--drop {shlex.quote(leaks[0])} in the CLI, or drop the column).", TargetLeakWarning,
            stacklevel=stacklevel)
    return leaks


def leak_note(leaks) -> str:
    """The sentence reports, JSON and verdicts carry for :func:`warn_target_leaks`' columns."""
    cols = ", ".join(repr(c) for c in leaks)
    return (f"target leak? {cols} give{'' if len(leaks) > 1 else 's'} the target exactly on "
            "every row; every number here can read it (drop it if it is not known when you "
            "predict)")


def target_copies(X: np.ndarray, y: np.ndarray, task: str, skip=None) -> list[int]:
    """Columns that give the target exactly: likely leaks (a copy or a consequence of it).

    A classification column qualifies when every one of its values (missing rows
    aside, at least 90% of the rows present) occurs with one class only and it
    has at most max(2, n/10) distinct values, so a nearly unique number cannot
    qualify by chance (Titanic's ``alive`` beside ``survived``). A regression
    column qualifies when its Pearson correlation with the target is at least
    0.9999 in absolute value on the complete rows.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The encoded table (:func:`encode_columns`; NaN where missing).
    y : ndarray of shape (n_samples,)
        The encoded target.
    task : {"classification", "regression"}
    skip : array of bool of shape (n_features,) or None
        Columns not to test (ID-like, constant).

    Returns
    -------
    list of int
        Positions of the columns that determine the target.
    """
    n, d = X.shape
    out = []
    for j in _copy_candidates(X, y, task, skip):
        x = X[:, j]
        ok = ~np.isnan(x)
        if ok.sum() < max(10, 0.9 * n):
            continue
        if task == "classification":
            pairs = np.unique(np.column_stack([x[ok], y[ok]]), axis=0)
            values = np.unique(pairs[:, 0])
            if 1 < len(values) <= max(2, n // 10) and len(pairs) == len(values):
                out.append(j)
        elif np.std(x[ok]) > 0 and np.std(y[ok]) > 0:
            if abs(np.corrcoef(x[ok], y[ok].astype(float))[0, 1]) >= 0.9999:
                out.append(j)
    return out


def _copy_candidates(X, y, task, skip, chunk_bytes: int = 2**18) -> np.ndarray:
    """The columns :func:`target_copies` must look at one by one (a vectorized
    pre-filter, in column chunks of about ``chunk_bytes``, at least one column: every
    selector's fit runs it, so its working memory stays a few columns): for classes, those with
    2 to max(2, n/10) distinct values; for a regression target, complete columns
    whose |correlation| with it reaches 0.9999 and every column with a missing value."""
    n, d = X.shape
    cand = np.ones(d, bool) if skip is None else ~np.asarray(skip, bool)
    step = max(1, chunk_bytes // max(1, 8 * n))
    keep = np.zeros(d, bool)
    yc = y.astype(float) - np.mean(y) if task != "classification" else None
    for a in range(0, d, step):
        cols = np.flatnonzero(cand[a:a + step]) + a
        if cols.size == 0:
            continue
        block = np.asarray(X[:, cols], dtype=np.float64)
        if task == "classification":
            S = np.sort(block, axis=0)  # NaN last
            distinct = (~np.isnan(S[0])).astype(int) + (
                (S[1:] != S[:-1]) & ~np.isnan(S[1:])).sum(axis=0)
            keep[cols] = (distinct > 1) & (distinct <= max(2, n // 10))
        else:
            missing = np.isnan(block).any(axis=0)
            Z = block - block.mean(axis=0)
            norm = np.sqrt((Z * Z).sum(axis=0)) * np.sqrt((yc * yc).sum())
            with np.errstate(divide="ignore", invalid="ignore"):
                r = np.abs(yc @ Z) / norm
            keep[cols] = missing | (r >= 0.9999 - 1e-9)
    return np.flatnonzero(keep)


@dataclass
class ValidatedData:
    """Result of :func:`validate_Xy`: arrays plus what was learned about them.

    ``X`` is the encoded table (:func:`encode_columns`, NaN where missing),
    ``table`` the input itself (pandas or an array) without the rows whose
    target is missing, ``rows`` the positions of the kept rows in the input,
    ``columns`` the :class:`ColumnDescription`.
    """

    X: np.ndarray
    y: np.ndarray
    task: str
    classes: np.ndarray | None
    feature_names: list
    constant: np.ndarray
    duplicate_of: np.ndarray
    columns: ColumnDescription | None = None
    table: object = None
    rows: np.ndarray | None = None


def take_rows(X, rows):
    """Rows of a table by position (pandas ``iloc``, NumPy/scipy indexing)."""
    return X.iloc[rows] if hasattr(X, "iloc") else X[rows]


def validate_Xy(X, y, *, task="auto", allow_nan=True, min_samples=5, min_per_class=2,
                target_name="y", accept_sparse=False, dtype=np.float64, columns=None,
                categorical=None, numeric=None) -> ValidatedData:
    """Validate features and target together.

    Rows whose target is missing (NaN, None, ``pd.NA``) are left out with one
    :class:`MissingTargetWarning` that gives their count.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    task : {"auto", "classification", "regression"}, default="auto"
        See :func:`detect_task` for the rule of ``"auto"``.
    allow_nan : bool, default=True
        Missing feature values pass through as NaN (False: they raise).
    min_samples : int, default=5
        Fewest rows the caller's procedure can work with.
    min_per_class : int, default=2
        Fewest rows of each class (classification only).
    target_name : str, default="y"
        Name used in messages.
    accept_sparse : bool, default=False
    dtype : numpy dtype or tuple of dtypes, default=np.float64
        As :func:`validate_X`.
    columns : ColumnDescription or None, default=None
        The columns' kinds read before (e.g. once for a whole table by
        ``compare``); None reads them here with :func:`describe_columns`.
    categorical, numeric : list of column labels or None, default=None
        Kind overrides (:func:`describe_columns`); ignored when ``columns`` is given.

    Raises
    ------
    ValueError
        Mismatched lengths, too few rows or rows per class (saying how many
        are needed), and everything :func:`validate_X`, :func:`describe_columns`,
        :func:`detect_task` and :func:`encode_target` raise.
    """
    X, y = to_pandas(X), to_pandas(y)  # polars and other dataframes (narwhals)
    target_name = _target_name(y, target_name)
    ydt = getattr(y, "dtype", None)
    if ydt is not None and not isinstance(ydt, np.dtype) and not pd.api.types.is_bool_dtype(
            ydt) and pd.api.types.is_numeric_dtype(ydt):
        y = y.astype(np.float64)  # pandas nullable Int64/Float64: pd.NA -> NaN
    y_in = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
    if y_in.ndim == 2 and y_in.shape[1] == 1:
        y_in = y_in.ravel()
    parsed = _target_numbers(y_in) if task != "classification" else None
    if parsed is not None:  # numbers written as text; blank or "?" cells become missing
        warnings.warn(f"The target {target_name!r} holds numbers written as text; read as numbers "
                      f"({'; '.join(parsed[1])}).", DataWarning, stacklevel=2)
        y_in = parsed[0]
    if not isinstance(X, pd.DataFrame) and not _is_sparse(X):
        X = np.asarray(X)  # lists, array-likes with __array__
    n_rows = X.shape[0] if X.ndim else 0
    if y_in.shape[0] != n_rows:
        raise ValueError(
            f"X has {n_rows} rows but the target {target_name!r} has {y_in.shape[0]}; "
            "they must have the same length. A common cause is a resampler (e.g. SMOTE) placed "
            "inside a transformer-only pipeline: resample with imblearn's Pipeline instead."
        )
    rows = None
    missing = pd.isna(y_in) if y_in.ndim == 1 else np.zeros(1, bool)
    if missing.all() and len(missing):
        raise ValueError(f"The target {target_name!r} is missing on every row ({len(missing)}); "
                         "name another target column.")
    if missing.any():
        rows = np.flatnonzero(~missing)
        warnings.warn(
            f"The target {target_name!r} is missing on {int(missing.sum())} of {len(y_in)} "
            "rows; those rows are left out.", MissingTargetWarning, stacklevel=3)
        X = take_rows(X, rows)
        y_in = y_in[rows]
    if columns is None:
        columns = describe_columns(X, categorical=categorical, numeric=numeric)
    Xv = validate_X(X, allow_nan=allow_nan, accept_sparse=accept_sparse, dtype=dtype,
                    columns=columns)
    names = _column_names(X, Xv.shape[1])
    n = Xv.shape[0]
    if n < min_samples:
        raise ValueError(
            f"Too few rows: this method needs at least {min_samples} samples; got {n} "
            f"sample{'s' if n != 1 else ''}."
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
    n_missing = np.zeros(Xv.shape[1], dtype=np.int64)
    if not _is_sparse(Xv) and dense.dtype.kind == "f":
        n_missing = np.concatenate([np.isnan(dense[:, b]).sum(axis=0)
                                    for b in _column_blocks(dense)]).astype(np.int64)
    if len(columns.names) != len(names):
        columns = describe_columns(X, detect_ids=False, warn=False)
    columns = replace(columns, n_missing=n_missing)
    return ValidatedData(
        X=Xv, y=y_enc, task=resolved, classes=classes, feature_names=names,
        constant=constant_columns(dense),
        duplicate_of=duplicate_columns(dense, _duplicate_kinds(columns)),
        columns=columns, table=X, rows=rows,
    )
