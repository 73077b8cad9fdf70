"""Reading user tables and bundled datasets; writing results atomically."""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import shlex
import zipfile
import zlib
from pathlib import Path

import numpy as np
import pandas as pd

from ._utils import atomic_write
from .datasets import BUNDLED, MESSY, load_dataset, load_messy

__all__ = ["read_table", "read_text_columns", "load_data", "write_table_atomic", "check_output_paths",
           "check_table_path", "data_fingerprint"]


def read_table(path: str | os.PathLike) -> pd.DataFrame:
    """Read a CSV (plain, gzip or zip), Parquet, Arrow/Feather or JSON file into a DataFrame.

    The format is recognized from the file's first bytes (Parquet's ``PAR1``,
    gzip's and zip's magic numbers, ``[``/``{`` for JSON records or lines), not
    its name; the CSV delimiter is sniffed. Images, PDFs, Excel workbooks and
    SQLite databases get a message saying what the file is and how to make a
    CSV of it.

    Raises
    ------
    FileNotFoundError
        No such file.
    ValueError
        A directory, an unknown extension, an empty or unreadable file, or
        duplicate column names; the message says which.
    """
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"No such file: {p}")
    if p.is_dir():
        raise ValueError(f"{p} is a directory; give a CSV or Parquet file.")
    try:
        kind = _file_kind(p)
        if kind == "parquet":  # the format by its content, whatever the file is called
            df = pd.read_parquet(p)
        elif kind == "arrow":
            df = pd.read_feather(p)
        elif kind == "json" and (df := _read_json(p)) is not None:
            pass
        elif kind in _NOT_TABLES:
            raise ValueError(f"{p} is {_NOT_TABLES[kind]}; featsieve reads CSV, Parquet, "
                             "Arrow/Feather and JSON tables.")
        else:
            compression = {"gzip": "gzip", "zip": "zip"}.get(kind)  # csv, or json that is not
            sep, header = _sniff_csv(p, compression)
            dupes = sorted({c for c in header if header.count(c) > 1})
            if dupes:
                raise ValueError(
                    f"{p} has duplicate column names: {', '.join(map(repr, dupes))}; "
                    "rename them so every column is unique."
                )
            df = pd.read_csv(p, sep=sep, compression=compression)
    except pd.errors.EmptyDataError:
        raise ValueError(f"{p} is empty: no header and no rows.") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{p} is not UTF-8 text ({exc.reason} at byte {exc.start}); save it "
                         "as UTF-8 (e.g. iconv -f latin1 -t utf-8 in.csv > out.csv, or "
                         "pandas' to_csv) and try again.") from None
    except (EOFError, zlib.error, gzip.BadGzipFile):
        raise ValueError(f"{p} is a truncated or corrupt gzip file.") from None
    except zipfile.BadZipFile:
        raise ValueError(f"{p} is a truncated or corrupt zip file.") from None
    except (pd.errors.ParserError, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"Cannot read {p}: {first}") from None
    if df.shape[1] == 0:
        raise ValueError(f"{p} has no columns.")
    return df


#: File kinds recognized by their first bytes that hold no table featsieve reads.
_NOT_TABLES = {
    "png": "a PNG image, not a table", "jpeg": "a JPEG image, not a table",
    "gif": "a GIF image, not a table", "pdf": "a PDF document, not a table",
    "xlsx": "an Excel workbook: save the sheet as CSV (File > Save As > CSV UTF-8)",
    "xls": "an Excel 97-2003 workbook: save the sheet as CSV (File > Save As > CSV UTF-8)",
    "sqlite": "an SQLite database: export the table (sqlite3 -csv -header DB "
              "'select * from TABLE' > table.csv)",
    "zip-many": "a zip archive of several files: unzip it and give the table's file",
    "html": "an HTML page, not a table (save the table it shows as CSV, e.g. pandas.read_html)",
    "xml": "an XML document, not a table (convert it to CSV, e.g. pandas.read_xml)",
}


def _file_kind(p: Path) -> str:
    """What a file holds, from its first bytes: parquet, arrow, gzip, zip, json, csv, or one
    of :data:`_NOT_TABLES`."""
    with open(p, "rb") as fh:
        head = fh.read(64)
    for magic, kind in ((b"PAR1", "parquet"), (b"ARROW1", "arrow"), (b"\x1f\x8b", "gzip"),
                        (b"\x89PNG", "png"), (b"\xff\xd8\xff", "jpeg"), (b"GIF8", "gif"),
                        (b"%PDF", "pdf"), (b"\xd0\xcf\x11\xe0", "xls"),
                        (b"SQLite format 3", "sqlite")):
        if head.startswith(magic):
            return kind
    if head.startswith(b"PK\x03\x04"):
        with zipfile.ZipFile(p) as z:
            names = [n for n in z.namelist() if not n.endswith("/")]
        if any(n.startswith("xl/") for n in names):
            return "xlsx"
        return "zip" if len(names) == 1 else "zip-many"
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if start[:1] in (b"{", b"["):
        return "json"
    if start[:14].lower() == b"<!doctype html" or start[:5].lower() == b"<html":
        return "html"
    if start[:5] == b"<?xml":
        return "xml"
    return "csv"


def _read_json(p: Path) -> pd.DataFrame | None:
    """A JSON table: a list of records, JSON lines, or pandas' column/split layouts; None
    when the file is no JSON at all (a CSV whose header starts with a bracket)."""
    import json

    text = p.read_text(encoding="utf-8")
    try:
        json.loads(text)
    except ValueError:
        try:
            json.loads(text.lstrip("\ufeff \t\r\n").splitlines()[0])
        except (ValueError, IndexError):
            return None
    for kw in ({}, {"lines": True}, {"orient": "split"}):
        try:
            df = pd.read_json(io.StringIO(text), **kw)
        except ValueError:
            continue
        if isinstance(df, pd.DataFrame) and df.shape[1] > 0 and len(df) > 0:
            return df
    raise ValueError(f"{p} is JSON but not a table: give a list of records "
                     '([{"col": value, ...}, ...]), JSON lines, or a CSV or Parquet file.')


def _csv_format(path) -> tuple[str | None, str] | None:
    """``(compression, separator)`` of a CSV file (plain, gzip or zip), or None for any
    other path (Parquet, JSON, a bundled dataset name, an unreadable file)."""
    p = Path(path)
    if not p.is_file():
        return None
    kind = _file_kind(p)
    if kind not in ("csv", "gzip", "zip"):
        return None
    compression = None if kind == "csv" else kind
    try:
        return compression, _sniff_csv(p, compression)[0]
    except (ValueError, OSError, UnicodeDecodeError, pd.errors.EmptyDataError):
        return None


def csv_separator(path: str | os.PathLike) -> str | None:
    """The separator of a CSV file (``,`` ``;`` tab or ``|``), or None for other files."""
    fmt = _csv_format(path)
    return None if fmt is None else fmt[1]


def read_text_columns(path: str | os.PathLike, columns) -> pd.DataFrame | None:
    """The ``columns`` of a CSV file as the text its cells hold, or None for other sources.

    :func:`read_table` parses a CSV: ``"0526301100"`` becomes the number
    526301100, ``"7"`` in a column with a missing cell becomes 7.0. A table
    written back from that parse (``select -o``) would change the cells; this
    reads them again as strings (no missing-value parsing: an empty cell stays
    empty), so they are written back as they were. Parquet files keep their
    own types and need no such step.

    Parameters
    ----------
    path : str or os.PathLike
        The file :func:`read_table` read.
    columns : list of str
        Column names as :func:`read_table` gave them.

    Returns
    -------
    text : DataFrame of str, with ``columns`` in that order, or None
        None when ``path`` is not a CSV file (Parquet, a bundled dataset name)
        or its rows do not line up with the parse.
    """
    fmt = _csv_format(path)
    if fmt is None:
        return None
    compression, sep = fmt
    columns = list(columns)
    try:
        text = pd.read_csv(path, sep=sep, compression=compression, usecols=columns,
                           dtype=str, keep_default_na=False, na_filter=False)
    except (ValueError, pd.errors.ParserError, OSError):
        return None
    return text[columns]


def _sniff_csv(p: Path, compression: str | None):
    """The delimiter (one of , ; tab |) and the header fields of a CSV file (as written:
    ``"a"`` and ``"a "`` are two names, as pandas reads them)."""
    import csv

    if compression == "zip":
        with zipfile.ZipFile(p) as z:
            name = next(n for n in z.namelist() if not n.endswith("/"))
            with z.open(name) as raw, io.TextIOWrapper(raw, encoding="utf-8", newline="") as fh:
                sample = fh.read(65536)
    else:
        opener = gzip.open if compression == "gzip" else open
        with opener(p, "rt", encoding="utf-8", newline="") as fh:
            sample = fh.read(65536)
    if not sample.strip():
        raise pd.errors.EmptyDataError("empty")
    first = sample.splitlines()[0]
    try:
        sep = csv.Sniffer().sniff(first, delimiters=",;\t|").delimiter
    except csv.Error:
        sep = ","
    header = next(csv.reader([first], delimiter=sep))
    return sep, header


def load_data(source: str | None, target: str | None, drop=(), *, return_dropped=False,
              categorical=(), numeric=()):
    """Resolve the CLI's DATA argument into ``(X, y, name)``.

    Parameters
    ----------
    source : str or None
        A bundled dataset name, a CSV/Parquet path, or None for bundled Sonar.
    target : str or None
        Target column; optional for bundled datasets.
    drop : sequence of str, default=()
        Columns left out of ``X`` (an identifier, a saved index, a leaky
        column).
    return_dropped : bool, default=False
        Also return the dropped columns as a DataFrame (for ``select -o``,
        which writes them back beside the kept ones).
    categorical, numeric : sequence of str, default=()
        Columns read as categories (pandas ``category``) / numbers (text parsed;
        a value that is not a number becomes missing), whatever the file says
        (CLI ``--categorical``/``--numeric``).

    Returns
    -------
    X : DataFrame
    y : Series
    name : str
    dropped : DataFrame
        Only when ``return_dropped``.

    Raises
    ------
    ValueError
        The target is missing from a file (the message names it and lists the
        columns), no target was given for a file, or a ``drop`` column is
        missing or is the target.
    """
    if source is None:
        source = "sonar"
    if (source in BUNDLED or source in MESSY) and not Path(source).exists():
        X, y = load_dataset(source, target=target) if source in BUNDLED else load_messy(
            source, target=target, return_X_y=True)
        X, dropped = _drop_columns(X, drop, target if target is not None else y.name, source)
        X = _set_kinds(X, categorical, numeric, source)
        return (X, y, source, dropped) if return_dropped else (X, y, source)
    df = read_table(source)
    if target is None:
        raise ValueError(f"--target is required for {source}: name the target column.")
    if target not in df.columns:
        names = [str(c) for c in df.columns]
        near = [c for c in names if c.strip().lower() == str(target).strip().lower()]
        if near:  # e.g. a header with spaces around its names (UCI Adult's ' Y')
            raise ValueError(f"Target column {target!r} not found in {source}; did you mean "
                             f"{near[0]!r}? (--target {shlex.quote(near[0])})")
        cols = ", ".join(repr(c) if c != c.strip() else c for c in names[:12])
        more = "" if df.shape[1] <= 12 else f", ... ({df.shape[1]} columns)"
        sep = next((c for c in ":;|\t," if df.shape[1] == 1 and str(target) in
                    str(df.columns[0]).split(c)), None)
        hint = (f" The header reads as one column: is {sep!r} the separator? Save the file "
                "with commas, tabs, semicolons or pipes." if sep else "")
        raise ValueError(f"Target column {target!r} not found in {source}; columns: "
                         f"{cols}{more}.{hint}")
    if list(df.columns).count(target) > 1:
        raise ValueError(f"Target column {target!r} appears more than once in {source}.")
    if len(df) == 0:
        raise ValueError(f"{source} has a header but no rows.")
    if df.shape[1] == 1:
        raise ValueError(f"{source} has no feature columns besides the target {target!r}.")
    X, dropped = _drop_columns(df.drop(columns=[target]), drop, target, source)
    X = _set_kinds(X, categorical, numeric, source)
    name = Path(source).name
    return (X, df[target], name, dropped) if return_dropped else (X, df[target], name)


def _set_kinds(X: pd.DataFrame, categorical, numeric, source):
    """``X`` with the named columns as pandas ``category`` / numbers (a new frame)."""
    categorical, numeric = list(categorical or ()), list(numeric or ())
    for opt, cols in (("--categorical", categorical), ("--numeric", numeric)):
        for c in cols:
            if c not in X.columns:
                raise ValueError(f"{opt}: column {c!r} is not a feature column of {source}; "
                                 f"columns: {', '.join(map(str, list(X.columns)[:12]))}.")
    both = sorted(set(categorical) & set(numeric))
    if both:
        raise ValueError(f"{both[0]!r} is named in both --categorical and --numeric.")
    if not categorical and not numeric:
        return X
    X = X.copy()
    for c in categorical:
        X[c] = X[c].astype("category")
    for c in numeric:
        if not pd.api.types.is_numeric_dtype(X[c]):
            X[c] = pd.to_numeric(X[c].astype(str).str.strip().str.replace(",", ".", regex=False),
                                 errors="coerce").where(X[c].notna())
    return X


def _drop_columns(X: pd.DataFrame, drop, target, source):
    """``(X without the drop columns, those columns)``."""
    drop = list(dict.fromkeys(drop or ()))
    for c in drop:
        if c == target:
            raise ValueError(f"--drop {c!r} is the target column; it cannot be dropped.")
        if c not in X.columns:
            cols = ", ".join(map(str, list(X.columns)[:12]))
            more = "" if X.shape[1] <= 12 else f", ... ({X.shape[1]} columns)"
            raise ValueError(f"--drop: column {c!r} not found in {source}; columns: "
                             f"{cols}{more}.")
    dropped = X[drop]
    if drop:
        if len(drop) == X.shape[1]:
            raise ValueError(f"--drop leaves no feature columns in {source}.")
        X = X.drop(columns=drop)
    return X, dropped


_CSV_SUFFIXES = {"": ",", ".csv": ",", ".txt": ",", ".tsv": "\t"}


def check_output_paths(outputs, *, protect=()):
    """Refuse output paths that would overwrite an input file or each other.

    Parameters
    ----------
    outputs : dict of {str: path or None}
        Option name (for the message) to output path; None entries are ignored.
    protect : iterable of paths
        Input files that must not be overwritten.

    Raises
    ------
    ValueError
        An output is one of ``protect`` (also through another relative path or
        a symlink), two outputs are the same file, an output is a directory, a
        device, a FIFO or a socket, an output is a symbolic link (refused, so
        that the link and its target are never replaced), the path is empty,
        the directory it goes to is not writable, or a file stands where a
        parent directory should be. Missing parent directories are not an
        error: the writers create them. ``-`` (standard output) is accepted for
        ``-o``/``--output`` only.
    """
    seen = {}
    for opt, path in outputs.items():
        if path is None:
            continue
        if str(path) == "-":
            if opt in ("-o", "--output"):
                continue
            raise ValueError(f"{opt} cannot be standard output (-); give a file name.")
        if not str(path).strip():
            raise ValueError(f"{opt} is empty; give a file name.")
        if Path(path).is_symlink():
            raise ValueError(f"{opt} {path} is a symbolic link; give the path of a regular "
                             "file (featsieve does not write through links).")
        out = Path(path).resolve()
        for q in protect:
            if q is not None and Path(q).exists() and out == Path(q).resolve():
                raise ValueError(f"Refusing to overwrite the input file {q}; choose another "
                                 f"{opt} path.")
        if out in seen:
            raise ValueError(f"{seen[out]} and {opt} name the same file {path}; give each its "
                             "own path.")
        seen[out] = opt
        if out.is_dir():
            raise ValueError(f"{opt} {path} is a directory; give a file name.")
        if out.exists() and not out.is_file():
            raise ValueError(f"{opt} {path} is not a regular file (a device, FIFO or socket); "
                             "give a file name.")
        parent = next(p for p in out.parents if p.exists())
        if not parent.is_dir():
            raise ValueError(f"{opt} {path}: {parent} is a file, not a directory.")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise ValueError(f"{opt} {path}: cannot write in {parent} (no permission); choose "
                             "another directory.")


def check_table_path(path, *, protect=()):
    """Check an output table path before any work: ``(parquet, gzip, suffix)``.

    Raises
    ------
    ValueError
        As :func:`check_output_paths`, or an extension :func:`write_table_atomic`
        cannot write.
    """
    if str(path) == "-":  # standard output: CSV
        return False, False, ".csv"
    out = Path(path)
    check_output_paths({"-o": out}, protect=protect)
    name = out.name.lower()
    gz = name.endswith(".gz")
    stem_suffix = Path(name[:-3] if gz else name).suffix
    parquet = stem_suffix in (".parquet", ".pq") and not gz
    if not parquet and stem_suffix not in _CSV_SUFFIXES:
        raise ValueError(f"Cannot write {out.name}: use a .csv, .tsv, .csv.gz or .parquet "
                         "file name.")
    return parquet, gz, stem_suffix


def write_table_atomic(df: pd.DataFrame, path: str | os.PathLike, *, protect=(),
                       sep: str | None = None) -> Path:
    """Write ``df`` through a temporary file and a rename, in the format its name says.

    ``.csv`` (or no extension), ``.txt``: comma-separated; ``.tsv``: tab-separated;
    any of them followed by ``.gz``: gzip-compressed; ``.parquet`` / ``.pq``:
    Parquet. Missing parent directories are created. The file gets the usual
    permissions (those of the file it replaces, else ``0666`` less the umask).

    Parameters
    ----------
    df : DataFrame
    path : path
    protect : iterable of paths
        Files that must not be overwritten (e.g. the input table).
    sep : str or None, default=None
        The separator of a comma-separated name (``.csv``, ``.txt``, none), e.g.
        the input's ``;`` so that a table written back keeps its format; None: ``,``.

    Raises
    ------
    ValueError
        ``path`` is one of ``protect`` or a directory, or its extension is not
        one of the above.
    """
    out = Path(path)
    parquet, gz, stem_suffix = check_table_path(out, protect=protect)
    with atomic_write(out) as tmp:
        if parquet:
            df.to_parquet(tmp, index=False)
        else:
            by_name = _CSV_SUFFIXES[stem_suffix]
            df.to_csv(tmp, index=False, sep=sep if sep and by_name == "," else by_name,
                      compression="gzip" if gz else None)
    return out


def data_fingerprint(X, y=None, *, feature_names=None) -> dict:
    """Rows, columns and a SHA-256 digest that identify a table's content.

    The digest covers the column names, the feature values as little-endian
    float64 (row-major) and the target (as float64 when numeric, else as
    text), so the same data read from CSV, Parquet, pandas or polars gets the
    same fingerprint, and a changed value, column name or row order gets a
    different one.

    ``compare``, ``audit`` and their reports fingerprint the table as given
    (after ``--drop``), so one table gets one fingerprint in all of them.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Numeric features, or a table with text, category, boolean or date
        columns: those are digested column by column as text (missing cells as
        ``\\x00``), the numeric ones (nullable integers too) as float64.
    y : array-like of shape (n_samples,) or None, default=None
    feature_names : list of str or None, default=None
        Column names; taken from ``X.columns`` when ``X`` has them.

    Returns
    -------
    fingerprint : dict
        ``{"rows": int, "columns": int, "sha256": str}`` (64 hex digits).
    """
    if feature_names is None and hasattr(X, "columns"):
        feature_names = list(X.columns)
    h = hashlib.sha256()
    if feature_names is not None:
        h.update("\x1f".join(map(str, feature_names)).encode("utf-8"))
    h.update(b"\x1e")
    if hasattr(X, "iloc") and not all(isinstance(dt, np.dtype) and dt.kind in "biuf"
                                      for dt in X.dtypes):
        shape = X.shape  # text, categories, dates, nullable columns: one column at a time
        h.update(str(shape).encode())
        for j in range(shape[1]):
            s = X.iloc[:, j]
            if pd.api.types.is_numeric_dtype(s.dtype):  # numpy or nullable (Int64, Float64)
                h.update(np.ascontiguousarray(s.to_numpy(dtype="<f8", na_value=np.nan))
                         .tobytes())
            else:
                h.update("\x1f".join("\x00" if pd.isna(v) else str(v)
                                      for v in s.tolist()).encode("utf-8"))
    else:
        arr = np.ascontiguousarray(np.asarray(X, dtype="<f8"))
        shape = arr.shape
        h.update(str(arr.shape).encode())
        h.update(arr.tobytes())
    if y is not None:
        y_arr = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
        h.update(b"\x1e")
        if y_arr.dtype.kind in "biuf":
            h.update(np.ascontiguousarray(y_arr, dtype="<f8").tobytes())
        else:
            h.update("\x1f".join(map(str, y_arr.tolist())).encode("utf-8"))
    return {"rows": int(shape[0]), "columns": int(shape[1]) if len(shape) == 2 else 1,
            "sha256": h.hexdigest()}
