"""Bundled real tables as users have them: text columns, categories and missing values.

Two small public tables, shipped as gzip CSV copies of their sources (nothing is
downloaded at run time) and read with pandas' defaults, so text stays text and
``NA`` cells are missing: Palmer penguins (classification) and Auto MPG
(regression). They are what ``featsieve compare penguins --target species`` and
``featsieve compare auto_mpg`` run on. Loaders follow scikit-learn's convention
(a :class:`~sklearn.utils.Bunch`, or ``(X, y)`` with ``return_X_y=True``).
"""

from __future__ import annotations

from importlib import resources

import pandas as pd
from sklearn.utils import Bunch

__all__ = ["MESSY", "load_penguins", "load_auto_mpg", "load_messy"]

# name -> (file, default target, description)
MESSY = {
    "penguins": (
        "penguins.csv.gz", "species",
        "Palmer penguins (Horst, Hill & Gorman 2020, R package palmerpenguins; data by K. "
        "Gorman and Palmer Station LTER): 344 penguins x 7 columns: island (text, 3 values), "
        "bill_length_mm, bill_depth_mm, flipper_length_mm, body_mass_g (2 missing each), sex "
        "(text, 11 missing), year; target species (Adelie 152, Chinstrap 68, Gentoo 124). "
        "Licence CC0 1.0. Copied byte-for-byte from github.com/allisonhorst/palmerpenguins, "
        "inst/extdata/penguins.csv at commit 8957207b78d6ccd1b4654a9dd9c9041b657478ab."),
    "auto_mpg": (
        "auto_mpg.csv.gz", "mpg",
        "Auto MPG, UCI Machine Learning Repository id 9 (Quinlan 1993): 398 cars x 8 columns: "
        "cylinders, displacement, horsepower (6 missing), weight, acceleration, model_year, "
        "origin (text: usa, europe, japan) and name (text, 305 values); regression target mpg "
        "(miles per gallon). Licence CC BY 4.0 (UCI). Copied byte-for-byte from "
        "github.com/mwaskom/seaborn-data, mpg.csv at commit "
        "71e2436a092d714350de0fc409ca8a8714e7e78f, where the original '?' is written as an "
        "empty cell and origin codes 1/2/3 as usa/europe/japan (its process/mpg.py)."),
}


def _read(file: str) -> pd.DataFrame:
    path = resources.files("featsieve.datasets").joinpath("data", file)
    with resources.as_file(path) as p:
        return pd.read_csv(p)


def load_messy(name: str, *, target: str | None = None, return_X_y: bool = False):
    """Load a bundled messy table by name (``"penguins"``, ``"auto_mpg"``).

    Parameters
    ----------
    name : str
        A key of :data:`MESSY`.
    target : str or None, default=None
        Target column; None takes the table's own (``species``, ``mpg``). Any
        other column may be the target (e.g. ``sex`` of the penguins).
    return_X_y : bool, default=False
        Return ``(X, y)`` (DataFrame, Series) instead of a Bunch.

    Returns
    -------
    data : Bunch or tuple
        ``data`` (DataFrame: the features with their own dtypes and missing
        cells), ``target`` (Series), ``frame``, ``feature_names``,
        ``target_names``, ``DESCR`` (source and licence).

    Raises
    ------
    ValueError
        Unknown name or target column.
    """
    if name not in MESSY:
        raise ValueError(f"Unknown table {name!r}; bundled: {', '.join(MESSY)}.")
    file, default, descr = MESSY[name]
    frame = _read(file)
    target = default if target is None else target
    if target not in frame.columns:
        raise ValueError(f"Target column {target!r} not found in {name}; columns: "
                         f"{', '.join(frame.columns)}.")
    X, y = frame.drop(columns=[target]), frame[target]
    if return_X_y:
        return X, y
    return Bunch(data=X, target=y, frame=frame, feature_names=list(X.columns),
                 target_names=[target], DESCR=descr)


def load_penguins(*, target: str = "species", return_X_y: bool = False):
    """Load Palmer penguins: 344 x 7 with text columns and missing values, classes species.

    Parameters
    ----------
    target : str, default="species"
    return_X_y : bool, default=False

    Returns
    -------
    data : Bunch or tuple
        See :func:`load_messy`.

    Examples
    --------
    >>> from featsieve.datasets import load_penguins
    >>> X, y = load_penguins(return_X_y=True)
    >>> X.shape, int(X["sex"].isna().sum())
    ((344, 7), 11)
    """
    return load_messy("penguins", target=target, return_X_y=return_X_y)


def load_auto_mpg(*, target: str = "mpg", return_X_y: bool = False):
    """Load Auto MPG: 398 x 8 with text columns and missing horsepower, regression target mpg.

    Parameters
    ----------
    target : str, default="mpg"
    return_X_y : bool, default=False

    Returns
    -------
    data : Bunch or tuple
        See :func:`load_messy`.

    Examples
    --------
    >>> from featsieve.datasets import load_auto_mpg
    >>> X, y = load_auto_mpg(return_X_y=True)
    >>> X.shape, int(X["horsepower"].isna().sum())
    ((398, 8), 6)
    """
    return load_messy("auto_mpg", target=target, return_X_y=return_X_y)
