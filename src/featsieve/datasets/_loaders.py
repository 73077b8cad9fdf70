"""Loaders for the real datasets bundled with featsieve (and the large ones on disk).

The small tables of ``../shared/datasets`` ship inside the package as gzip
CSV; nothing is downloaded at run time. Loaders follow scikit-learn's
convention: a :class:`~sklearn.utils.Bunch` with ``data`` (DataFrame),
``target`` (Series), ``frame``, ``feature_names``, ``target_names`` and
``DESCR``, or ``(X, y)`` with ``return_X_y=True``. Labels keep their original
values (``"M"``/``"R"`` for Sonar).
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

__all__ = [
    "BUNDLED",
    "load_dataset",
    "load_sonar",
    "load_spectf",
    "load_ionosphere",
    "load_german_numeric",
    "load_musk1",
    "load_residential_building",
    "load_subscribers",
    "load_scikit_feature",
    "data_home",
]

_UCI = (
    "UCI Machine Learning Repository (Kelly, Longjohn & Nottingham, "
    "https://archive.ics.uci.edu); copied byte-for-byte from public mirrors, see "
    "shared/datasets/README.md for the commit of each file."
)

# name -> (file, target column(s), description)
BUNDLED = {
    "sonar": ("sonar.csv.gz", "target",
              "Connectionist Bench (Sonar, Mines vs. Rocks), UCI id 151: 208 sonar returns x 60 "
              "band energies in [0, 1]; classes M (mine, 111) and R (rock, 97). Gorman & "
              "Sejnowski (1988). Used by seeds 000 (Table 7-8) and 003 (Table 3). " + _UCI),
    "spectf": ("spectf.csv.gz", "target",
               "SPECTF Heart, UCI id 96: 267 patients x 44 integer SPECT features (F1R..F22S); "
               "diagnosis 1 (abnormal, 212) / 0 (normal, 55). Kurgan et al. (2001). Seed 003 "
               "Table 1. " + _UCI),
    "ionosphere": ("ionosphere.csv.gz", "target",
                   "Ionosphere, UCI id 52: 351 radar returns x 34 features (f1 is constant 0, as "
                   "in the original); classes g (225) / b (126). Sigillito et al. (1989). Seed "
                   "003 Table 3. " + _UCI),
    "german_numeric": ("german_numeric.csv.gz", "target",
                       "Statlog German Credit, numeric coding (german.data-numeric), UCI id 144: "
                       "1000 applicants x 24 integer features; 1 (good, 700) / 2 (bad, 300). "
                       "Hofmann (1994). Seed 003 Table 3. " + _UCI),
    "musk1": ("musk1.csv.gz", "target",
              "Musk (Version 1), UCI id 74, clean1.data: 476 conformations x 166 features "
              "(f1..f166); 1 (musk, 207) / 0 (non-musk, 269). Dietterich et al. (1997). Seed "
              "003 Table 3. " + _UCI),
    "residential_building": ("residential_building.csv.gz", ("construction_cost", "sale_price"),
                             "Residential Building Data Set, UCI id 437: 372 projects x 103 "
                             "physical, financial and lagged economic variables (V-*); targets "
                             "construction_cost (V-10) and sale_price (V-9). Rafiei & Adeli "
                             "(2016, 2018). Seed 000 Tables 5-6. " + _UCI),
    "subscribers": ("subscribers.csv.gz", "suspicious",
                    "The fictional subscriber table of seed 002 (002_2595f2849cd4c4da.txt), made "
                    "by its deterministic generator (seed 20260218): 1260 rows, 25 candidate "
                    "columns, 1200 noise columns with a known-zero contribution, binary target "
                    "'suspicious', and the lesson's split column (train 756 / val 252 / test 252)."),
}

_SUBSCRIBER_CANDIDATES = 25


def _read(file: str) -> pd.DataFrame:
    path = resources.files("featsieve.datasets").joinpath("data", file)
    with resources.as_file(path) as p:
        return pd.read_csv(p)


def _bunch(frame: pd.DataFrame, target: str, descr: str, return_X_y: bool, **extra):
    X = frame.drop(columns=[target])
    y = frame[target]
    if return_X_y:
        return X, y
    return Bunch(data=X, target=y, frame=frame, feature_names=list(X.columns),
                 target_names=[target], DESCR=descr, **extra)


def _simple(name: str, return_X_y: bool):
    file, target, descr = BUNDLED[name]
    return _bunch(_read(file), target, descr, return_X_y)


def load_sonar(*, return_X_y: bool = False):
    """Load the Sonar (Connectionist Bench) data: 208 x 60, classes M/R.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(X, y)`` (DataFrame, Series) instead of a Bunch.

    Returns
    -------
    data : Bunch or tuple
        See the module docstring.

    Examples
    --------
    >>> from featsieve.datasets import load_sonar
    >>> X, y = load_sonar(return_X_y=True)
    >>> X.shape
    (208, 60)
    """
    return _simple("sonar", return_X_y)


def load_spectf(*, return_X_y: bool = False):
    """Load SPECTF Heart: 267 x 44, classes 1 (212) / 0 (55). See :func:`load_sonar`."""
    return _simple("spectf", return_X_y)


def load_ionosphere(*, return_X_y: bool = False):
    """Load Ionosphere: 351 x 34 (column f1 is constant), classes g/b. See :func:`load_sonar`."""
    return _simple("ionosphere", return_X_y)


def load_german_numeric(*, return_X_y: bool = False):
    """Load German Credit (numeric): 1000 x 24, classes 1/2. See :func:`load_sonar`."""
    return _simple("german_numeric", return_X_y)


def load_musk1(*, return_X_y: bool = False):
    """Load Musk version 1: 476 x 166, classes 1/0. See :func:`load_sonar`."""
    return _simple("musk1", return_X_y)


def load_residential_building(*, target: str = "construction_cost", return_X_y: bool = False):
    """Load Residential Building: 372 x 103, a regression target in original units.

    Parameters
    ----------
    target : {"construction_cost", "sale_price"}, default="construction_cost"
        Which of the two targets to return; the other is dropped from ``data``.
    return_X_y : bool, default=False

    Raises
    ------
    ValueError
        Unknown target.
    """
    file, targets, descr = BUNDLED["residential_building"]
    if target not in targets:
        raise ValueError(f"target must be one of {targets}; got {target!r}.")
    frame = _read(file)
    other = [t for t in targets if t != target]
    return _bunch(frame.drop(columns=other), target, descr, return_X_y)


def load_subscribers(*, include_noise: bool = False, return_X_y: bool = False):
    """Load seed 002's subscriber table with its train/val/test split.

    Parameters
    ----------
    include_noise : bool, default=False
        Also return the 1,200 noise columns ``noise_0..noise_1199`` (known-zero
        contribution, seed 002 FS21).
    return_X_y : bool, default=False

    Returns
    -------
    data : Bunch or tuple
        ``data`` holds the 25 candidate columns (plus noise when asked);
        ``split`` is a Series with values ``train``/``val``/``test``;
        ``frame`` also keeps ``id`` and ``split``.
    """
    file, target, descr = BUNDLED["subscribers"]
    frame = _read(file)
    split = frame["split"]
    cand = [c for c in frame.columns if c not in ("id", "split", target)]
    feats = cand if include_noise else [c for c in cand if not c.startswith("noise_")]
    assert len([c for c in cand if not c.startswith("noise_")]) == _SUBSCRIBER_CANDIDATES
    X = frame[feats]
    y = frame[target]
    if return_X_y:
        return X, y
    return Bunch(data=X, target=y, frame=frame[["id", *feats, target, "split"]],
                 feature_names=feats, target_names=[target], split=split, DESCR=descr)


_LOADERS = {
    "sonar": load_sonar,
    "spectf": load_spectf,
    "ionosphere": load_ionosphere,
    "german_numeric": load_german_numeric,
    "musk1": load_musk1,
    "residential_building": load_residential_building,
    "subscribers": load_subscribers,
}


def load_dataset(name: str, *, target: str | None = None):
    """Load a bundled dataset by name as ``(X, y)``.

    Parameters
    ----------
    name : str
        One of ``BUNDLED``.
    target : str or None
        For ``residential_building``: which target (default construction_cost).
        For other datasets it must be None or the dataset's own target name.

    Raises
    ------
    KeyError
        Unknown dataset name (the message lists the bundled ones).
    ValueError
        A target the dataset does not have.
    """
    if name not in _LOADERS:
        raise KeyError(f"Unknown dataset {name!r}; bundled: {', '.join(_LOADERS)}.")
    if name == "residential_building":
        return load_residential_building(target=target or "construction_cost", return_X_y=True)
    own = BUNDLED[name][1]
    if target is not None and target != own:
        raise ValueError(
            f"Dataset {name!r} has target column {own!r}, not {target!r}."
        )
    return _LOADERS[name](return_X_y=True)


def data_home() -> Path:
    """Directory of the large scikit-feature ``.npz`` files.

    ``$FEATSIEVE_DATA`` when set, else ``../shared/datasets`` relative to the
    working directory (the project's layout).
    """
    return Path(os.environ.get("FEATSIEVE_DATA", "../shared/datasets"))


def load_scikit_feature(name: str, *, data_dir: str | os.PathLike | None = None,
                        return_X_y: bool = False):
    """Load a scikit-feature benchmark set (``<name>/<name>.npz``) from disk.

    Parameters
    ----------
    name : str
        E.g. ``"colon"``, ``"ALLAML"``, ``"Isolet"``, ``"madelon"``.
    data_dir : path or None, default=None
        Directory holding ``<name>/<name>.npz``; :func:`data_home` when None.
    return_X_y : bool, default=False

    Returns
    -------
    data : Bunch or tuple
        ``X`` as a float64 DataFrame with columns ``f0..f(d-1)``, ``y`` with the
        original labels.

    Raises
    ------
    FileNotFoundError
        The file is absent; the message says where it looked and how to point
        featsieve elsewhere.
    """
    root = Path(data_dir) if data_dir is not None else data_home()
    path = root / name / f"{name}.npz"
    if not path.exists():
        raise FileNotFoundError(
            f"scikit-feature dataset {name!r} not found at {path}. Set FEATSIEVE_DATA (or "
            "data_dir=) to the directory that holds <name>/<name>.npz."
        )
    with np.load(path, allow_pickle=False) as z:
        X = np.asarray(z["X"], dtype=np.float64)
        y = np.asarray(z["y"]).ravel()
    Xf = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    ys = pd.Series(y, name="target")
    if return_X_y:
        return Xf, ys
    return Bunch(data=Xf, target=ys, frame=Xf.assign(target=ys), feature_names=list(Xf.columns),
                 target_names=["target"],
                 DESCR=f"scikit-feature benchmark set {name} (Li et al. 2018, ACM CSUR 50(6)).")
