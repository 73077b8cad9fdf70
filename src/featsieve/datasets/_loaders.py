"""Loaders for the real datasets bundled with featsieve.

Every set the seeds' tables use ships inside the package, so nothing is
downloaded at run time: the UCI tables of ``shared/datasets`` as gzip CSV, the
18 scikit-feature sets as their compressed ``.npz`` (about 19 MB together).
``datasets/data/manifest.json`` records each file's sha256, shape, classes,
source and licence (``featsieve datasets`` prints it); ``$FEATSIEVE_DATA``
overrides the location of the scikit-feature sets. Loaders follow scikit-learn's
convention: a :class:`~sklearn.utils.Bunch` with ``data`` (DataFrame),
``target`` (Series), ``frame``, ``feature_names``, ``target_names`` and
``DESCR``, or ``(X, y)`` with ``return_X_y=True``. Labels keep their original
values (``"M"``/``"R"`` for Sonar).
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

__all__ = [
    "BUNDLED",
    "SCIKIT_FEATURE",
    "load_dataset",
    "load_sonar",
    "load_spectf",
    "load_ionosphere",
    "load_german_numeric",
    "load_musk1",
    "load_residential_building",
    "load_subscribers",
    "load_scikit_feature",
    "list_datasets",
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


def _classes_text(classes: dict) -> str:
    if len(classes) > 4:
        lo, hi = min(classes.values()), max(classes.values())
        return f"{len(classes)} classes x {lo}" if lo == hi else (
            f"{len(classes)} classes, {lo}-{hi} rows each")
    return ", ".join(f"{k}: {v}" for k, v in classes.items())


def _describe(entry: dict) -> str:
    classes = _classes_text(entry["classes"]) if entry["classes"] else "regression"
    return (f"{entry['name']}: {entry['rows']} rows x {entry['features']} features ({classes}). "
            f"Used by {entry['used_by']}. Source: {entry['source']}. Licence: {entry['licence']}.")


def _read_manifest() -> dict:
    text = resources.files("featsieve.datasets").joinpath("data", "manifest.json").read_text()
    return {e["name"]: e for e in json.loads(text)}


_MANIFEST = _read_manifest()
#: The scikit-feature sets bundled as ``.npz`` (seed 001 Tables 3-4, seed 004's real data).
SCIKIT_FEATURE = tuple(n for n, e in _MANIFEST.items() if e["file"].endswith(".npz"))
BUNDLED.update({n: (_MANIFEST[n]["file"], "target", _describe(_MANIFEST[n]))
                for n in SCIKIT_FEATURE})


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
        One of ``BUNDLED`` (the UCI tables, the subscriber table and the
        scikit-feature sets; ``featsieve datasets`` lists them).
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
    if name in SCIKIT_FEATURE:
        if target not in (None, "target"):
            raise ValueError(f"Dataset {name!r} has target column 'target', not {target!r}.")
        return load_scikit_feature(name, return_X_y=True)
    if name not in _LOADERS:
        raise KeyError(f"Unknown dataset {name!r}; bundled: {', '.join(BUNDLED)}.")
    if name == "residential_building":
        return load_residential_building(target=target or "construction_cost", return_X_y=True)
    own = BUNDLED[name][1]
    if target is not None and target != own:
        raise ValueError(
            f"Dataset {name!r} has target column {own!r}, not {target!r}."
        )
    return _LOADERS[name](return_X_y=True)


def data_home() -> Path | None:
    """Directory that overrides the bundled scikit-feature sets, or None.

    ``$FEATSIEVE_DATA`` when set (holding ``<name>/<name>.npz`` or
    ``<name>.npz``, e.g. the project's ``shared/datasets``); None otherwise, and
    the sets bundled inside the package are used.
    """
    env = os.environ.get("FEATSIEVE_DATA")
    return Path(env) if env else None


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _bundled_npz(name: str) -> Path:
    """The package's copy of a scikit-feature set, checked against the manifest's sha256."""
    entry = _MANIFEST.get(name)
    if entry is None or not entry["file"].endswith(".npz"):
        known = ", ".join(n for n, e in _MANIFEST.items() if e["file"].endswith(".npz"))
        raise FileNotFoundError(
            f"scikit-feature dataset {name!r} is not bundled (bundled: {known}). Set "
            "FEATSIEVE_DATA (or data_dir=) to a directory holding <name>/<name>.npz."
        )
    path = Path(str(resources.files("featsieve.datasets").joinpath("data", entry["file"])))
    if _sha256(path) != entry["sha256"]:
        raise OSError(f"Bundled file {path} does not match its sha256 in manifest.json; "
                      "reinstall featsieve.")
    return path


def _npz_path(name: str, root: Path) -> Path:
    for path in (root / name / f"{name}.npz", root / f"{name}.npz"):
        if path.exists():
            return path
    raise FileNotFoundError(
        f"scikit-feature dataset {name!r} not found at {root / name / (name + '.npz')}. Set "
        "FEATSIEVE_DATA (or data_dir=) to the directory that holds <name>/<name>.npz, or unset "
        "it to use the copies bundled with featsieve."
    )


def load_scikit_feature(name: str, *, data_dir: str | os.PathLike | None = None,
                        return_X_y: bool = False):
    """Load a scikit-feature benchmark set (seed 001 Tables 3-4, seed 004's real data).

    The 18 sets listed by ``featsieve datasets`` (ALLAML, arcene, BASEHOCK,
    COIL20, colon, GLIOMA, Isolet, leukemia, lung_discrete, lymphoma, madelon,
    orlraws10P, PCMAC, Prostate_GE, RELATHE, TOX_171, warpPIE10P, Yale) ship
    inside the package as the ``.npz`` files of ``shared/datasets`` (same ``X``
    and ``y`` as the scikit-feature ``.mat`` files), each checked against the
    sha256 in ``datasets/data/manifest.json`` when loaded.

    Parameters
    ----------
    name : str
        E.g. ``"colon"``, ``"ALLAML"``, ``"Isolet"``, ``"madelon"``.
    data_dir : path or None, default=None
        Directory holding ``<name>/<name>.npz`` (or ``<name>.npz``); when None,
        ``$FEATSIEVE_DATA`` if set, else the bundled copy.
    return_X_y : bool, default=False

    Returns
    -------
    data : Bunch or tuple
        ``X`` as a float64 DataFrame with columns ``f0..f(d-1)``, ``y`` with the
        original labels; the Bunch's ``DESCR`` gives shape, classes, source and
        licence.

    Raises
    ------
    FileNotFoundError
        The set is neither in ``data_dir``/``$FEATSIEVE_DATA`` nor bundled; the
        message says where it looked and how to point featsieve elsewhere.
    OSError
        A bundled file does not match its checksum.

    Examples
    --------
    >>> from featsieve.datasets import load_scikit_feature
    >>> X, y = load_scikit_feature("colon", return_X_y=True)
    >>> X.shape, y.value_counts().to_dict()
    ((62, 2000), {-1: 40, 1: 22})
    """
    root = Path(data_dir) if data_dir is not None else data_home()
    path = _npz_path(name, root) if root is not None else _bundled_npz(name)
    with np.load(path, allow_pickle=False) as z:
        X = np.asarray(z["X"], dtype=np.float64)
        y = np.asarray(z["y"]).ravel()
    Xf = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    ys = pd.Series(y, name="target")
    if return_X_y:
        return Xf, ys
    descr = _describe(_MANIFEST[name]) if name in _MANIFEST and root is None else (
        f"scikit-feature benchmark set {name} read from {path} (Li et al. 2018, ACM CSUR 50(6)).")
    return Bunch(data=Xf, target=ys, frame=Xf.assign(target=ys), feature_names=list(Xf.columns),
                 target_names=["target"], DESCR=descr)


def list_datasets() -> pd.DataFrame:
    """Every dataset shipped with featsieve: shape, classes, source and licence.

    Returns
    -------
    table : DataFrame
        One row per set with columns ``name``, ``rows``, ``features``,
        ``task``, ``classes`` (``"label: count"`` pairs, empty for regression),
        ``target``, ``used_by``, ``source``, ``licence``, ``file``, ``sha256``.

    Examples
    --------
    >>> from featsieve.datasets import list_datasets
    >>> "colon" in set(list_datasets().name)
    True
    """
    rows = []
    for e in _MANIFEST.values():
        classes = e["classes"] or {}
        rows.append({"name": e["name"], "rows": e["rows"], "features": e["features"],
                     "task": e["task"], "classes": _classes_text(classes), "target": e["target"],
                     "used_by": e["used_by"], "source": e["source"], "licence": e["licence"],
                     "file": e["file"], "sha256": e["sha256"]})
    return pd.DataFrame(rows)
