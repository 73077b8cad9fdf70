"""The registry mechanism: what a row of the method table holds and how it builds.

The rows themselves are in :mod:`featsieve.method_table` (one table); it is imported
on first use, so ``import featsieve`` stays light. Nothing below the front ends
imports it: families never know they are registered.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

__all__ = ["MethodSpec", "Tuning", "register_method", "methods", "make_selector", "get_method",
           "k_grid", "tuning_candidates", "UnknownMethodError", "MethodUnavailableError"]

_REGISTRY: dict[str, MethodSpec] = {}
_loaded = False


def k_grid(n_features: int) -> list[int]:
    """The seeds' default grid for a number of features to keep.

    Seed 000 §4.2 tunes eta over {M/6, M/5, M/4, M/2}; we use the same
    fractions of the usable feature count (rounded, at least 1, unique).

    Examples
    --------
    >>> k_grid(60)
    [10, 12, 15, 30]
    """
    return sorted({max(1, int(round(n_features * f))) for f in (1 / 6, 1 / 5, 1 / 4, 1 / 2)})


@dataclass(frozen=True)
class Tuning:
    """The cut ``compare`` tunes on model-val, and its grid.

    Attributes
    ----------
    cut : str
        Keyword of the selector's ``support_at`` (``"n_features"``, ``"slack"``,
        ``"max_score_drop"``).
    grid : tuple or callable
        Values of the cut; a callable ``grid(fitted_selector, n_usable)``
        returns them from the fit (an empty grid: the fit's own support).
    label : str
        How a value is shown (``k=10``, ``mu=0.05``, ``size=3``).
    default_label : str
        The label of the fit's own support when the grid is empty.
    """

    cut: str
    grid: tuple | Callable
    label: str
    default_label: str = ""

    def values(self, selector, n_usable: int) -> list:
        return list(self.grid(selector, n_usable) if callable(self.grid) else self.grid)


@dataclass(frozen=True)
class MethodSpec:
    """One row of the method table: how to build, tune and describe a method.

    Attributes
    ----------
    name : str
        Registry name used by ``--methods``/``--method``.
    cls : type or None
        The selector class (None for ``all``, no selection).
    params : dict or callable, default={}
        Constructor arguments the comparison uses; a callable receives
        ``task``, ``n_features_to_select`` and ``random_state`` (keywords) and
        returns them.
    tasks : tuple of str
    source : str
        The paper (authors, year, title, section).
    summary : str
        One line for listings.
    uses_selection_val : bool
        The method reads its own score on a selection-validation split;
        ``compare`` passes ``X_val``/``y_val`` to ``fit`` instead of fitting
        on train plus selection-val.
    uses_model : bool or None
        Whether the method gets the comparison's model as ``estimator``;
        None: when ``cls`` takes an ``estimator`` argument.
    tuning : Tuning or None
        The cut ``compare`` tunes on model-val (None: the fit's own support).
    path_params : dict
        Parameters ``compare`` sets so that one fit yields every candidate.
    in_default : bool
        Whether ``compare`` runs the method when no methods are named.
    figures : str
        ``"module:function"`` drawing the report's figures of a fitted selector.
    requires : tuple of str
        Import names the method needs; when one is missing the method is
        listed as unavailable and building it raises
        :class:`MethodUnavailableError`.
    extra : str
        The pip extra that installs ``requires`` (named in the error).
    """

    name: str
    cls: type | Callable | None
    params: dict | Callable = field(default_factory=dict)
    tasks: tuple = ("classification", "regression")
    source: str = ""
    summary: str = ""
    uses_selection_val: bool = False
    uses_model: bool | None = None
    tuning: Tuning | None = None
    path_params: dict = field(default_factory=dict)
    in_default: bool = True
    figures: str = "featsieve.report._classic:figures"
    requires: tuple = ()
    extra: str = ""

    @property
    def available(self) -> bool:
        """Whether every library in ``requires`` can be imported."""
        return all(importlib.util.find_spec(m) is not None for m in self.requires)

    @property
    def takes_model(self) -> bool:
        if self.uses_model is not None:
            return self.uses_model
        return self.cls is not None and "estimator" in _init_params(self.cls)

    def build(self, *, task, estimator=None, n_features_to_select=None, random_state=None,
              n_jobs=None):
        """An unfitted selector for ``task`` (None for ``all``)."""
        if self.cls is None:
            return None
        if not self.available:
            missing = [m for m in self.requires if importlib.util.find_spec(m) is None]
            how = f"pip install 'featsieve[{self.extra}]'" if self.extra else (
                f"pip install {' '.join(missing)}")
            raise MethodUnavailableError(
                f"Method {self.name!r} needs {', '.join(missing)}, which is not installed; "
                f"install it with: {how}.")
        accepted = _init_params(self.cls)
        given = {"task": task, "n_features_to_select": n_features_to_select,
                 "random_state": random_state, "n_jobs": n_jobs}
        if self.takes_model:
            given["estimator"] = estimator
        kwargs = {k: v for k, v in given.items() if k in accepted}
        params = self.params(task=task, n_features_to_select=n_features_to_select,
                             random_state=random_state) if callable(self.params) else self.params
        kwargs.update(params)
        return self.cls(**kwargs)


def _init_params(cls) -> set:
    try:
        return set(inspect.signature(cls).parameters)
    except (TypeError, ValueError):  # pragma: no cover - builtins
        return set()


def tuning_candidates(spec: MethodSpec, selector, n_usable: int) -> dict[str, np.ndarray]:
    """The supports ``compare`` tunes over, from one fitted selector.

    ``{label: support}`` for every value of the spec's tuning grid
    (``selector.support_at(**{cut: value})``); equal supports are merged into
    one candidate whose label lists the values. Without tuning (or an empty
    grid): the fit's own support.
    """
    values = spec.tuning.values(selector, n_usable) if spec.tuning is not None else []
    if not values:
        label = spec.tuning.default_label if spec.tuning is not None else ""
        return {label: np.asarray(selector.get_support())}
    merged: dict[tuple, list] = {}
    for v in values:
        mask = np.asarray(selector.support_at(**{spec.tuning.cut: v}), dtype=bool)
        key = tuple(np.flatnonzero(mask))
        text = f"{v:g}" if isinstance(v, float) else str(v)
        if key in merged:
            merged[key][0] += f",{text}"
        else:
            merged[key] = [text, mask]
    return {f"{spec.tuning.label}={lab}": m for lab, m in merged.values()}


def register_method(spec: MethodSpec, *, replace: bool = False) -> MethodSpec:
    """Add a row to the method table (names are unique unless ``replace``).

    Parameters
    ----------
    spec : MethodSpec
    replace : bool, default=False
        Replace a row of the same name instead of raising.

    Returns
    -------
    spec : MethodSpec

    Raises
    ------
    ValueError
        The name is taken (and ``replace`` is False).
    """
    _load()
    if spec.name in _REGISTRY and _REGISTRY[spec.name] is not spec and not replace:
        raise ValueError(f"A method named {spec.name!r} is already registered.")
    _REGISTRY[spec.name] = spec
    return spec


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from .method_table import METHODS

    for spec in METHODS:
        _REGISTRY.setdefault(spec.name, spec)


def methods(task: str | None = None) -> list[str]:
    """Names of the registered methods, optionally only those for ``task``.

    Parameters
    ----------
    task : {"classification", "regression"} or None, default=None

    Returns
    -------
    names : list of str
        In table order (``all``, the classic methods, then the families, then
        methods registered with :func:`register_method`).
    """
    _load()
    return [n for n, s in _REGISTRY.items() if task is None or task in s.tasks]


class UnknownMethodError(KeyError, ValueError):
    """A method name that is not registered (a ``KeyError`` and a ``ValueError``)."""

    def __str__(self):  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class MethodUnavailableError(ImportError):
    """A registered method whose library is not installed (the message says how)."""


def get_method(name: str) -> MethodSpec:
    """The :class:`MethodSpec` registered under ``name``.

    Raises
    ------
    UnknownMethodError
        Unknown name (a ``KeyError`` and a ``ValueError``); the message lists
        the known ones.
    """
    _load()
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise UnknownMethodError(
            f"Unknown method {name!r}; known methods: {', '.join(_REGISTRY)}."
        ) from None


def make_selector(name: str, *, task: str, estimator=None, n_features_to_select=None,
                  random_state=None, n_jobs=None):
    """Build a ready, unfitted selector for a registered method.

    Parameters
    ----------
    name : str
        A name from :func:`methods`.
    task : {"classification", "regression"}
    estimator : scikit-learn estimator or None, default=None
        The model for wrapper and embedded methods (LightGBM when None).
    n_features_to_select : int, float or None, default=None
        Passed to methods that take it; None keeps each method's default.
    random_state : int or None, default=None
    n_jobs : int or None, default=None

    Returns
    -------
    selector : estimator or None
        None for ``all`` (no selection).

    Raises
    ------
    UnknownMethodError
        Unknown method name.
    ValueError
        The method does not support ``task``.
    MethodUnavailableError
        The method's library is not installed.
    """
    spec = get_method(name)
    if task not in spec.tasks:
        raise ValueError(f"Method {name!r} does not support {task}; it supports {spec.tasks}.")
    if spec.takes_model and estimator is None:
        from .models import make_model

        estimator = make_model("lightgbm", task, random_state=random_state)
    return spec.build(task=task, estimator=estimator, n_features_to_select=n_features_to_select,
                      random_state=random_state, n_jobs=n_jobs)
