"""The method registry: one table every front end, test and user shares.

Each method family registers its methods with :func:`register` when its module
is imported. ``methods()`` and ``make_selector()`` import the family modules
listed in ``_FAMILY_MODULES`` on first use, so ``import featsieve`` stays light.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

__all__ = ["MethodSpec", "register", "methods", "make_selector", "get_method",
           "UnknownMethodError"]

# Modules that register methods when imported, in display order.
_FAMILY_MODULES = (
    "featsieve.classic",
    "featsieve.mask",
    "featsieve.kernel",
    "featsieve.genetic",
    "featsieve.pca",
)

_REGISTRY: dict[str, MethodSpec] = {}
_loaded = False


def _default_candidates(selector, n_features: int) -> dict[str, np.ndarray]:
    return {"": np.asarray(selector.get_support())}


def k_grid(n_features: int) -> list[int]:
    """The seeds' default grid for a number of features to keep.

    Seed 000 §4.2 tunes eta over {M/6, M/5, M/4, M/2}; we use the same
    fractions of the usable feature count (rounded, at least 1, unique).
    """
    return sorted({max(1, int(round(n_features * f))) for f in (1 / 6, 1 / 5, 1 / 4, 1 / 2)})


def ranking_candidates(selector, n_features: int) -> dict[str, np.ndarray]:
    """Top-k supports from a fitted selector's ``ranking_`` or ``scores_``.

    One fit serves every k of :func:`k_grid`: the candidates differ only in
    where the ranked list is cut. Ties are broken by the lower column index.
    """
    if getattr(selector, "ranking_", None) is not None:
        order = np.lexsort((np.arange(len(selector.ranking_)), selector.ranking_))
    else:
        scores = np.asarray(selector.scores_, dtype=float)
        order = np.lexsort((np.arange(len(scores)), -scores))
    usable = ~getattr(selector, "constant_features_", np.zeros(len(order), bool))
    order = [i for i in order if usable[i]]
    out = {}
    for k in k_grid(len(order)):
        mask = np.zeros(len(usable), dtype=bool)
        mask[order[:k]] = True
        out[f"k={k}"] = mask
    return out


@dataclass(frozen=True)
class MethodSpec:
    """How to build, tune and describe one registered method.

    Attributes
    ----------
    name : str
        Registry name used by ``--methods``/``--method``.
    build : callable
        ``build(task=, estimator=, n_features_to_select=, random_state=,
        n_jobs=)`` returning an unfitted selector (or None for ``all``).
    tasks : tuple of str
        Tasks the method supports.
    source : str
        The seed (file, section) the method comes from.
    summary : str
        One line for listings.
    uses_selection_val : bool
        Whether the method reads its own score on a selection-validation
        split; ``compare`` then passes ``X_val``/``y_val`` to ``fit`` instead
        of fitting on train plus selection-val.
    candidates : callable
        ``candidates(fitted_selector, n_features) -> {label: support}``: the
        supports ``compare`` tunes over on the model-validation split.
    fits : callable or None
        ``fits(fitted_selector) -> int``: model fits the selection spent,
        when the selector does not expose ``n_model_fits_``.
    needs_estimator : bool
        Whether the method uses the comparison's model.
    in_default : bool
        Whether ``compare`` runs the method when no methods are named (False
        for methods too slow for the default three-minute run).
    path_params : dict
        Parameters ``compare`` sets so that one fit yields every candidate
        (e.g. RFE run down to one feature gives the whole elimination order).
    """

    name: str
    build: Callable
    tasks: tuple = ("classification", "regression")
    source: str = ""
    summary: str = ""
    uses_selection_val: bool = False
    candidates: Callable = _default_candidates
    fits: Callable | None = None
    needs_estimator: bool = False
    in_default: bool = True
    path_params: dict = field(default_factory=dict)


def register(spec: MethodSpec) -> MethodSpec:
    """Add a method to the registry (names are unique)."""
    if spec.name in _REGISTRY and _REGISTRY[spec.name] is not spec:
        raise ValueError(f"A method named {spec.name!r} is already registered.")
    _REGISTRY[spec.name] = spec
    return spec


def _load() -> None:
    global _loaded
    if _loaded:
        return
    for mod in _FAMILY_MODULES:
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as exc:  # a family not written yet
            if exc.name != mod:
                raise
    _loaded = True


def methods(task: str | None = None) -> list[str]:
    """Names of the registered methods, optionally only those for ``task``.

    Parameters
    ----------
    task : {"classification", "regression"} or None, default=None

    Returns
    -------
    names : list of str
        In registration order (``all``, the classic methods, then the families).
    """
    _load()
    return [n for n, s in _REGISTRY.items() if task is None or task in s.tasks]


class UnknownMethodError(KeyError, ValueError):
    """A method name that is not registered (a ``KeyError`` and a ``ValueError``)."""

    def __str__(self):  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


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
    KeyError
        Unknown method name.
    ValueError
        The method does not support ``task``.
    """
    spec = get_method(name)
    if task not in spec.tasks:
        raise ValueError(f"Method {name!r} does not support {task}; it supports {spec.tasks}.")
    if spec.needs_estimator and estimator is None:
        from .models import make_model

        estimator = make_model("lightgbm", task, random_state=random_state)
    return spec.build(
        task=task,
        estimator=estimator,
        n_features_to_select=n_features_to_select,
        random_state=random_state,
        n_jobs=n_jobs,
    )
