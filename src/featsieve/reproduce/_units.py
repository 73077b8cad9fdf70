"""Resumable reproductions: independent units, each cached as one small JSON file.

A reproduction is cut into *units* (e.g. data set x split x method), each a
JSON-able dict of everything that determines its result. :func:`run_units`
computes the units that are not yet cached, in parallel through joblib, and
writes each result as soon as it arrives, to
``results_dir/<experiment>/<slug>-<hash>.json`` (atomic rename), so a stopped
run resumes where it stopped: rerun the same command and the finished units
are read back. The hash covers the unit's whole dict, so changing a parameter
(splits, generations, grids) never reuses a stale result.

Results always go through a JSON round trip, so a cached run and a fresh one
give identical tables.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

__all__ = ["UnitCache", "run_units", "DEFAULT_RESULTS_DIR"]

#: Default ``--results`` directory of ``featsieve reproduce NAME --full``.
DEFAULT_RESULTS_DIR = "featsieve-results"


def _jsonable(obj):
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, tuple | set | frozenset):
        return list(obj)
    raise TypeError(f"Object of type {type(obj).__name__} cannot be stored in a unit result.")


def _dumps(obj) -> str:
    return json.dumps(obj, default=_jsonable, sort_keys=True)


def unit_key(unit: dict) -> str:
    """File stem of a unit: its readable fields, then a hash of the whole dict."""
    digest = hashlib.sha256(_dumps(unit).encode()).hexdigest()[:12]
    readable = "-".join(str(v) for v in unit.values() if isinstance(v, str | int))
    slug = "".join(c if c.isalnum() or c in "._=" else "_" for c in readable)[:80]
    return f"{slug}-{digest}" if slug else digest


class UnitCache:
    """One JSON file per finished unit under ``root/experiment``.

    Parameters
    ----------
    root : path
        The results directory (created when the first unit is stored).
    experiment : str
        Sub-directory name (``"fastener"``, ``"gbmo"``, ...).
    """

    def __init__(self, root, experiment: str):
        self.dir = Path(root) / experiment

    def path(self, unit: dict) -> Path:
        return self.dir / f"{unit_key(unit)}.json"

    def get(self, unit: dict):
        """The stored result of ``unit``, or None (found by the hash, whatever the slug)."""
        digest = unit_key(unit).rsplit("-", 1)[-1]
        want = json.loads(_dumps(unit))
        for p in self.dir.glob(f"*{digest}.json"):
            stored = json.loads(p.read_text())
            if stored.get("unit") == want:
                return stored["result"]
        return None

    def put(self, unit: dict, result) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        p = self.path(unit)
        tmp = p.with_suffix(".tmp")
        tmp.write_text(_dumps({"unit": unit, "result": result}))
        os.replace(tmp, p)


def run_units(experiment: str, units: Sequence[dict], compute: Callable[[dict], object], *,
              results_dir=None, n_jobs: int | None = None, progress: bool = False,
              desc: str | None = None, only_cached: bool = False) -> list:
    """Results of ``compute(unit)`` for every unit, computing only the uncached ones.

    Parameters
    ----------
    experiment : str
        Name of the sub-directory of ``results_dir``.
    units : sequence of dict
        JSON-able descriptions; each must determine its result on its own.
    compute : callable
        A module-level function ``unit -> JSON-able result`` (picklable, so
        joblib can send it to workers).
    results_dir : path or None, default=None
        Where finished units are stored and read back; None keeps nothing.
    n_jobs : int or None, default=None
        joblib workers over units (None: 1).
    progress : bool, default=False
        A tqdm bar over units with an ETA (terminal only).
    desc : str or None
    only_cached : bool, default=False
        Compute nothing: return what ``results_dir`` holds (None for the rest),
        e.g. to write the tables of a run that was stopped.

    Returns
    -------
    results : list
        One result per unit, in the order of ``units``, after a JSON round trip
        (None for an uncached unit when ``only_cached``).
    """
    from joblib import Parallel, delayed

    from ..progress import bar

    cache = UnitCache(results_dir, experiment) if results_dir is not None else None
    results = [cache.get(u) if cache is not None else None for u in units]
    todo = [] if only_cached else [i for i, r in enumerate(results) if r is None]
    with bar(len(units), desc=desc or experiment, unit="unit", enabled=progress,
             leave=True) as b:
        b.update(len(units) - len(todo))
        if cache is not None and len(todo) < len(units):
            b.set_postfix_str(f"{len(units) - len(todo)} cached")
        outs = Parallel(n_jobs=n_jobs, return_as="generator")(
            delayed(compute)(units[i]) for i in todo)
        for i, out in zip(todo, outs, strict=True):
            results[i] = json.loads(_dumps(out))
            if cache is not None:
                cache.put(units[i], results[i])
            b.update(1)
    return results
