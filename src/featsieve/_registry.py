"""The registry mechanism: what a row of the method table holds and how it builds.

The rows themselves are in :mod:`featsieve.method_table` (one table); it is imported
on first use, so ``import featsieve`` stays light. Nothing below the front ends
imports it: families never know they are registered.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import warnings
from collections import Counter
from collections.abc import Callable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace

import numpy as np

from ._utils import MethodUnavailableError
from ._warnings import FeatsieveWarning, ParameterWarning

__all__ = ["MethodSpec", "Tuning", "register_method", "methods", "make_selector", "get_method",
           "build_selector", "resolve_method", "resolve_methods", "k_grid", "use_k_grid",
           "tuning_candidates", "method_cost", "default_methods",
           "UnknownMethodError", "MethodUnavailableError"]

_REGISTRY: dict[str, MethodSpec] = {}
_loaded = False


_K_GRID: ContextVar = ContextVar("featsieve_k_grid", default=None)


def k_grid(n_features: int) -> list[int]:
    """The grid of numbers of features to keep that ``compare`` tunes over.

    Log-spaced counts from 1 up to M/2 (about 1.6 times apart: 1, 2, 4, 6,
    10, 16, ... rounded) so that small selections are reachable, plus seed
    000's {M/6, M/5, M/4, M/2} (§4.2,
    where eta is tuned over them), M being the usable feature count (rounded,
    at least 1, unique, sorted). On a narrow table (M <= ``NARROW_TABLE``, 20
    columns) the log-spaced counts go up to M and the grid also holds M - 1
    and M, so a filter can keep every column, or drop only one. On a wide table
    (M/2 above ``WIDE_K_CAP``, 1,000 columns) the grid stops at 1,000: every
    count of the grid is a model refit on that many columns, and on such
    tables counts in the tens of thousands cost most of the run while a
    selection that large is no selection (a choice of ours; ``--k-grid``, or
    :func:`use_k_grid`, sets any grid). Inside :func:`use_k_grid` the grid
    given there is used instead.

    Examples
    --------
    >>> k_grid(60)
    [1, 2, 4, 5, 8, 10, 12, 13, 15, 20, 30]
    >>> k_grid(9)
    [1, 2, 4, 6, 8, 9]
    >>> k_grid(100_000)[-3:]
    [398, 631, 1000]
    >>> with use_k_grid([3, 0.5]):
    ...     k_grid(60)
    [3, 30]
    """
    n = int(n_features)
    override = _K_GRID.get()
    if override is not None:
        vals = {int(round(v * n)) if isinstance(v, float) and v < 1 else int(v)
                for v in override}
        return sorted({min(max(1, v), n) for v in vals})
    narrow = n <= NARROW_TABLE
    top = max(1, n if narrow else min(int(round(n / 2)), WIDE_K_CAP))
    steps = 1 + int(np.ceil(1.5 * np.log2(top)))  # about 1.6 times apart
    logs = {int(v) for v in np.round(np.geomspace(1, top, steps))}
    seed = {v for v in (max(1, int(round(n * f))) for f in (1 / 6, 1 / 5, 1 / 4, 1 / 2))
            if v <= top}
    ends = {max(1, n - 1), max(1, n)} if narrow else set()
    return sorted(logs | seed | ends)


#: Usable columns up to which :func:`k_grid` reaches every column (M - 1 and M).
NARROW_TABLE = 20
#: The largest count of :func:`k_grid`'s default grid (wide tables).
WIDE_K_CAP = 1000


@contextmanager
def use_k_grid(values):
    """Make :func:`k_grid` return ``values`` inside the ``with`` block (None: the default).

    Parameters
    ----------
    values : sequence of int or float, or None
        Counts (whole numbers) or fractions of the usable columns (floats in
        (0, 1)); clipped to [1, M].
    """
    token = _K_GRID.set(None if values is None else tuple(values))
    try:
        yield
    finally:
        _K_GRID.reset(token)


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
    path_cap : int or None
        On wide tables a fractional ``n_features_to_select`` of
        ``path_params`` stops at this many columns (larger k then read the
        method's ranking beyond the path); see :meth:`path_params_for`.
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
    group : str
        A name that stands for every method of the group in ``--methods``
        (``"comparators"``); empty for none.
    cost : callable or None
        ``cost(selector, n_samples, n_features) -> featsieve._resources.Cost``,
        the cost model of a class that has no ``estimate_cost`` method (None:
        the selector's own ``estimate_cost``).
    prefit_full_model : bool, default=False
        The method's fit is one fit of ``compare``'s model on every column of
        the rows it is given (train + selection-val), and its class takes
        ``prefit=True``: ``compare`` then hands it the ``all`` row's refit
        model -- the same model on the same rows -- instead of fitting it
        again (on a numeric table with no missing value and no constant
        column, where the two fits are the same computation).
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
    path_cap: int | None = None
    in_default: bool = True
    figures: str = "featsieve.report._classic:figures"
    requires: tuple = ()
    extra: str = ""
    group: str = ""
    cost: Callable | None = None
    prefit_full_model: bool = False

    def path_params_for(self, n_samples: int, n_features: int) -> dict:
        """The path parameters for a table of this shape (``path_cap`` applied)."""
        params = dict(self.path_params)
        k = params.get("n_features_to_select")
        if (self.path_cap is not None and isinstance(k, float) and 0 < k <= 1
                and round(k * n_features) > self.path_cap):
            params["n_features_to_select"] = int(self.path_cap)
        return params

    @property
    def available(self) -> bool:
        """Whether every library in ``requires`` can be imported."""
        return all(importlib.util.find_spec(m) is not None for m in self.requires)

    def check_available(self) -> None:
        """Raise :class:`MethodUnavailableError`, naming the install command, when a
        library of ``requires`` is not installed."""
        missing = [m for m in self.requires if importlib.util.find_spec(m) is None]
        if missing:
            how = f"pip install 'featsieve[{self.extra}]'" if self.extra else (
                f"pip install {' '.join(missing)}")
            raise MethodUnavailableError(
                f"Method {self.name!r} needs {', '.join(missing)}, which is not installed; "
                f"install it with: {how}.")

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
        self.check_available()
        accepted = _init_params(self.cls)
        given = {"task": task, "n_features_to_select": n_features_to_select,
                 "random_state": random_state, "n_jobs": n_jobs}
        if self.takes_model:
            given["estimator"] = estimator
        kwargs = {k: v for k, v in given.items() if k in accepted}
        params = self.params(task=task, n_features_to_select=n_features_to_select,
                             random_state=random_state) if callable(self.params) else self.params
        kwargs.update(params)
        if n_features_to_select is not None and "n_features_to_select" not in accepted and not (
                self.tuning is not None and self.tuning.cut == "n_features"):
            import warnings

            warnings.warn(
                f"{self.name} decides how many columns to keep itself; "
                f"n_features_to_select={n_features_to_select!r} was not used (its count is "
                "n_features_selected_ after fit).", ParameterWarning, stacklevel=3)
        return self.cls(**kwargs)


def _init_params(cls) -> set:
    try:
        return set(inspect.signature(cls).parameters)
    except (TypeError, ValueError):  # pragma: no cover - builtins
        return set()


def tuning_candidates(spec: MethodSpec, selector, n_usable: int, *,
                      with_values: bool = False) -> dict:
    """The supports ``compare`` tunes over, from one fitted selector.

    ``{label: support}`` for every value of the spec's tuning grid
    (``selector.support_at(**{cut: value})``); equal supports are merged into
    one candidate whose label gives the first value and the others. Without tuning (or an empty
    grid): the fit's own support. A label reads ``k=9`` or, for merged values,
    ``k=9 (same as 13,14)``. With ``with_values``: ``{label: (cut, support)}``
    where ``cut`` is ``{cut_name: first value}`` (None for the fit's own
    support), so that a figure can redraw the candidate a table reports.
    """
    values = spec.tuning.values(selector, n_usable) if spec.tuning is not None else []
    if not values:
        label = spec.tuning.default_label if spec.tuning is not None else ""
        mask = np.asarray(selector.get_support())
        return {label: (None, mask) if with_values else mask}
    merged: dict[tuple, list] = {}
    for v in values:
        mask = np.asarray(selector.support_at(**{spec.tuning.cut: v}), dtype=bool)
        key = tuple(np.flatnonzero(mask))
        text = f"{v:g}" if isinstance(v, float) else str(v)
        if key in merged:
            merged[key][0].append(text)
        else:
            merged[key] = [[text], mask, {spec.tuning.cut: v}]
    return {f"{spec.tuning.label}={labs[0]}"
            + (f" (same as {','.join(labs[1:])})" if len(labs) > 1 else ""):
            (cut, m) if with_values else m for labs, m, cut in merged.values()}


#: share of the rows a method sees in ``compare`` (train + selection-val, seed 000 §4.2)
_SELECTION_SHARE = 0.75
#: a method is left out of the default set when its estimate is this many times the median ...
FAR_BEYOND = 8.0
#: ... and above this many estimated seconds
MIN_LEFT_OUT_SECONDS = 20.0
#: the default set's estimated single-core seconds in all: the costliest go beyond it
TOTAL_SECONDS = 100.0
#: a method estimated at most this share of that budget is never left out for the total:
#: it is not what makes the set slow
SMALL_SHARE = 0.1
#: Estimates within this share of the costliest one count as equal when ``default_methods``
#: leaves a method out: the one latest in the method table goes first.
NEAR_TIE = 0.1


def method_cost(name: str, task: str, n_samples: int, n_features: int, *, estimator=None,
                n_classes: int = 2):
    """Estimated cost of one registered method in ``compare`` on an ``n_samples x n_features`` table.

    The selector is built as ``compare`` builds it (the row's parameters and
    path parameters for the shape) and its cost model is asked for the rows
    the method sees (train + selection-val, 75%): the selector's
    ``estimate_cost(n_samples, n_features)`` or the row's ``cost``. The
    tuning refits (one per candidate of the grid, on 75% of the rows) are
    added. No data is touched.

    Parameters
    ----------
    name : str
    task : {"classification", "regression"}
    n_samples, n_features : int
    estimator : str, estimator or None, default=None
        The comparison's model: a name for :func:`featsieve.models.make_model`
        or an estimator (LightGBM when None).
    n_classes : int, default=2
        Classes of the target. LightGBM, logistic regression and the MLP fit
        one model per class beyond two (LightGBM: 100 trees per class), so their
        fits and predictions are counted ``n_classes`` times (the cost models
        of the selectors see the shape only).

    Returns
    -------
    cost : featsieve._resources.Cost or None
        None for ``all`` or a method without a cost model.
    """
    from ._resources import Cost, fit_seconds, model_kind

    spec = get_method(name)
    if spec.cls is None:
        return None
    if estimator is None or isinstance(estimator, str):
        from .models import make_model

        estimator = make_model(estimator or "lightgbm", task, random_state=0)
    sel = spec.build(task=task, estimator=estimator, random_state=0)
    sel.set_params(**spec.path_params_for(n_samples, n_features))
    rows = max(1, int(n_samples * _SELECTION_SHARE))
    if spec.cost is not None:
        cost = spec.cost(sel, rows, n_features)
    elif hasattr(sel, "estimate_cost"):
        cost = sel.estimate_cost(rows, n_features)
    else:
        return None
    kind = model_kind(estimator)  # compare's model refits every candidate
    grid = k_grid(n_features) if spec.tuning is not None else [max(1, n_features // 4)]
    n_cands = len(grid)  # one refit on k columns per count of the grid
    tune = sum(fit_seconds(kind, rows, k) for k in grid)
    cost = cost + Cost(fits=n_cands, fit_seconds=tune, model=cost.model)
    per_class = n_classes if n_classes > 2 and cost.model in ("lightgbm", "logistic", "mlp") \
        else 1
    return replace(cost, fit_seconds=cost.fit_seconds * per_class,
                   predictions=cost.predictions * per_class)


def _work(c) -> str:
    work = (f"{c.kernel_entries:.2g} kernel entries, " if c.kernel_entries else
            f"{c.fits:,} model fits, " if c.fits > 5 else "")
    from ._resources import format_bytes

    return f"~{c.seconds:,.0f} s ({work}{format_bytes(c.memory_bytes)})"


def _family(name: str) -> str:
    """A method's family: the package of its class (``classic``, ``mask``, ``genetic``,
    ``kernel``, ``pca``); a seed's baselines (a ``_baselines`` module, e.g. mRMR) count
    as ``classic``."""
    module = getattr(_REGISTRY[name].cls, "__module__", "") or ""
    parts = module.split(".")
    if len(parts) < 2:
        return name
    return "classic" if parts[-1] == "_baselines" else parts[1]


def default_methods(task: str, n_samples: int, n_features: int, *, estimator=None,
                    n_classes: int = 2, n_repeats: int = 1):
    """``compare``'s default method set for a table of this shape, and what it left out.

    Every row of the table with ``in_default`` that suits ``task`` is asked
    for its cost (:func:`method_cost`). A method is left out when its memory
    estimate is over the budget (:func:`featsieve._resources.memory_budget`),
    or when its estimated seconds are more than ``FAR_BEYOND`` (8) times the
    median of the default methods and above ``MIN_LEFT_OUT_SECONDS`` (20 s):
    a cost far beyond the rest. Then, while the kept methods' estimates add
    up to more than ``TOTAL_SECONDS`` (100 single-core seconds: about 3
    minutes of ``compare`` with its refits on 2 cores, with a margin for a
    slower machine; shared among parallel repeats, see ``n_repeats``), the
    costliest is left out, sparing

    - the last kept member of a family (the package of its class:
      ``classic``, ``mask``, ``genetic``, ``kernel``, ``pca``; a seed's
      baselines such as mRMR count as ``classic``) whose estimate is at most
      half that budget: each family keeps a method where one fits;
    - a method whose estimate is at most ``SMALL_SHARE`` (a tenth) of that
      budget: it is not what makes the set slow, and leaving it out to make
      room for a spared costlier method would drop the cheapest methods first.

    Estimates within ``NEAR_TIE`` (10%) of the costliest are rough numbers that
    do not tell methods apart (on 10 classes every filter costs its 10
    LightGBM refits): among them the method latest in the method table goes
    first, so the table's order (the classic filters first) decides. When
    every kept method is spared the dropping stops, so the set's estimate may
    stay above the budget by what the spared methods cost.

    Parameters
    ----------
    task : {"classification", "regression"}
    n_samples, n_features : int
        Shape of the whole table.
    estimator : str, estimator or None, default=None
        The comparison's model (see :func:`method_cost`).
    n_classes : int, default=2
        Classes of the target (see :func:`method_cost`).
    n_repeats : int, default=1
        Repeats of the comparison; they run in parallel on the machine's cores,
        so the set's budget per repeat is ``TOTAL_SECONDS * min(n_repeats,
        cores) / n_repeats``.

    Returns
    -------
    names : list of str
        The methods to run, in table order.
    left_out : list of str
        One line per left-out method: why (its estimate) and how to run it
        anyway (name it in ``--methods`` / ``methods=``).
    """
    from ._resources import format_bytes, memory_budget

    names = [m for m in methods(task) if _REGISTRY[m].in_default]
    costs = {}
    for m in names:
        try:
            c = method_cost(m, task, n_samples, n_features, estimator=estimator,
                            n_classes=n_classes)
        except Exception:  # pragma: no cover - a cost model must never block a run
            c = None
        if c is not None:
            costs[m] = c
    if not costs:
        return names, []
    median = float(np.median([c.seconds for c in costs.values()]))
    limit = max(MIN_LEFT_OUT_SECONDS, FAR_BEYOND * median)
    budget = memory_budget()
    keep, left = [], []
    for m in names:
        c = costs.get(m)
        if c is not None and c.memory_bytes > budget:
            why = f"needs about {format_bytes(c.memory_bytes)} (budget {format_bytes(budget)})"
        elif c is not None and c.seconds > limit:
            why = f"estimated {_work(c)}, far beyond the others' median of ~{median:.0f} s"
        else:
            keep.append(m)
            continue
        left.append(f"left out {m}: {why}; name it in --methods (methods=) to run it anyway.")
    # then the costliest until the set's estimate fits the budget of one repeat, sparing
    # the last member of a family (package) that costs at most half the budget and any
    # method that costs at most a tenth of it; none left but spared ones: stop
    import os

    reps = max(1, int(n_repeats))
    allowed = TOTAL_SECONDS * min(reps, os.cpu_count() or 1) / reps
    total = sum(costs[m].seconds for m in keep if m in costs)
    while total > allowed:
        ranked = sorted((m for m in keep if m in costs), key=lambda m: -costs[m].seconds)
        kin = Counter(_family(m) for m in keep if m in costs)
        eligible = [m for m in ranked if costs[m].seconds > SMALL_SHARE * allowed and (
            kin[_family(m)] > 1 or costs[m].seconds > allowed / 2)]
        if not eligible:
            break
        # among estimates within NEAR_TIE of the costliest (rough numbers that do not tell
        # such methods apart), the one latest in the method table goes first
        top = costs[eligible[0]].seconds
        m = max((m for m in eligible if costs[m].seconds >= (1 - NEAR_TIE) * top),
                key=names.index)
        total -= costs[m].seconds
        keep.remove(m)
        per = f" per repeat ({reps} repeats)" if reps > 1 else ""
        left.append(f"left out {m}: estimated {_work(costs[m])}, the costliest of a default "
                    f"set estimated above ~{allowed:.0f} s{per}; name it in --methods "
                    f"(methods=) to run it anyway.")
    return keep, left


def register_method(spec, selector=None, *, replace: bool = False, **fields) -> MethodSpec:
    """Add a method to the table: a :class:`MethodSpec` row, or any selector under a name.

    Parameters
    ----------
    spec : MethodSpec or str
        A row, or the name for a ``selector`` (used by ``--methods``/``--method`` and
        ``compare(methods=[...])``; no ``:``, ``,`` or spaces).
    selector : selector, selector class, factory function or str, optional
        With a name: anything :func:`resolve_method` accepts besides a name (an
        instance, a class, a function returning a selector, or ``"module:attr"``).
    replace : bool, default=False
        Replace a row of the same name instead of raising.
    **fields
        With a name: :class:`MethodSpec` fields (``tasks``, ``summary``,
        ``source``, ``uses_selection_val``, ``tuning``, ``in_default``, ...).
        User methods default to ``in_default=False`` and ``source="user"``.

    Returns
    -------
    spec : MethodSpec

    Raises
    ------
    ValueError
        The name is taken (and ``replace`` is False), a bad name, or an object
        that is not a selector.

    Examples
    --------
    >>> from sklearn.feature_selection import SelectKBest, f_classif
    >>> import featsieve
    >>> spec = featsieve.register_method("anova5", SelectKBest(f_classif, k=5),
    ...                                  tasks=("classification",), replace=True)
    >>> "anova5" in featsieve.methods("classification")
    True
    """
    _load()
    if not isinstance(spec, MethodSpec):
        name = spec
        if not isinstance(name, str) or not name or any(c in name for c in ":, "):
            raise ValueError(f"Method name {name!r} must be a non-empty string without ':', "
                             "',' or spaces.")
        if selector is None:
            raise ValueError(f"register_method({name!r}, selector): give the selector (an "
                             "instance, a class, a factory or 'module:attr').")
        if isinstance(selector, str):
            selector = _import_path(selector)
        try:
            spec = _spec_for(selector, name, **fields)
        except TypeError as exc:
            raise ValueError(str(exc)) from None
    elif selector is not None or fields:
        raise ValueError("register_method(spec) takes a MethodSpec alone; give a name to "
                         "register a selector with fields.")
    if spec.name in _REGISTRY and _REGISTRY[spec.name] is not spec and not replace:
        raise ValueError(f"A method named {spec.name!r} is already registered; pass "
                         "replace=True to replace it.")
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


def make_selector(method, *, task: str, estimator=None, n_features_to_select=None,
                  random_state=None, n_jobs=None):
    """Build a ready, unfitted selector for a method.

    Parameters
    ----------
    method : str, selector or MethodSpec
        Anything :func:`resolve_method` accepts: a name from :func:`methods`,
        an import path ``"module:attr"``, or a selector instance.
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
        The method does not support ``task``, or the entry cannot be resolved.
    MethodUnavailableError
        The method's library is not installed (also a ``ValueError``).
    """
    return build_selector(resolve_method(method), task=task, estimator=estimator,
                          n_features_to_select=n_features_to_select,
                          random_state=random_state, n_jobs=n_jobs)


def build_selector(spec: MethodSpec, *, task: str, estimator=None, n_features_to_select=None,
                   random_state=None, n_jobs=None):
    """Build the selector of a resolved :class:`MethodSpec` (see :func:`make_selector`)."""
    if task not in ("classification", "regression"):
        raise ValueError(f"task={task!r}: a selector is built for task='classification' or "
                         "'regression' (its parameters depend on it); compare and the CLI's "
                         "--task auto read the task from the target.")
    if task not in spec.tasks:
        raise ValueError(f"Method {spec.name!r} does not support {task}; it supports "
                         f"{' and '.join(spec.tasks)}.")
    if spec.takes_model and estimator is None:
        from .models import make_model

        estimator = make_model("lightgbm", task, random_state=random_state)
    return spec.build(task=task, estimator=estimator, n_features_to_select=n_features_to_select,
                      random_state=random_state, n_jobs=n_jobs)


# ------------------------------------------------------ any selector as a method
_BUILD_ARGS = ("task", "estimator", "n_features_to_select", "random_state", "n_jobs")


def _is_selector(obj) -> bool:
    """scikit-learn's selector interface: ``fit`` and ``get_support`` (SelectorMixin has both)."""
    return callable(getattr(obj, "fit", None)) and callable(getattr(obj, "get_support", None))


def _accepted(func) -> tuple[set, bool]:
    """Build-argument names ``func`` takes, and whether it takes ``**kwargs``."""
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return set(), False
    names = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return names & set(_BUILD_ARGS), any(p.kind == p.VAR_KEYWORD for p in params)


class _UserBuilder:
    """Builds a user's selector for a :class:`MethodSpec` row.

    A class or factory gets the build arguments it takes by name (all of them
    with ``**kwargs``); None values are left to its own defaults. An instance
    is cloned. A ``random_state`` left at None takes the run's seed, so runs
    repeat exactly.
    """

    def __init__(self, obj, name: str):
        self.obj = obj
        self.name = name

    def __call__(self, task=None, estimator=None, n_features_to_select=None, random_state=None,
                 n_jobs=None):
        from sklearn.base import clone

        given = {"task": task, "estimator": estimator,
                 "n_features_to_select": n_features_to_select, "random_state": random_state,
                 "n_jobs": n_jobs}
        if _is_selector(self.obj) and not inspect.isclass(self.obj):
            sel = clone(self.obj)
        else:
            names, var_kw = _accepted(self.obj)
            keep = set(_BUILD_ARGS) if var_kw else names
            sel = self.obj(**{k: v for k, v in given.items() if k in keep and v is not None})
            if not _is_selector(sel):
                raise TypeError(
                    f"{self.name} gave {type(sel).__name__}, which is not a feature selector; "
                    "a selector needs fit(X, y) and get_support() (e.g. a scikit-learn "
                    "SelectorMixin).")
        if random_state is not None and hasattr(sel, "get_params"):
            params = sel.get_params(deep=False)
            if "random_state" in params and params["random_state"] is None:
                sel.set_params(random_state=random_state)
        return sel


def _spec_for(obj, name: str, **fields) -> MethodSpec:
    """A :class:`MethodSpec` row for a selector class, factory function or instance."""
    if inspect.isclass(obj):
        if not _is_selector(obj):
            raise TypeError(
                f"{name}: class {obj.__name__} is not a feature selector; it needs fit(X, y) and "
                "get_support() (subclass sklearn.feature_selection.SelectorMixin or "
                "featsieve.BaseSelector).")
        takes_model = "estimator" in _accepted(obj)[0]
        summary = f"user selector {obj.__module__}.{obj.__qualname__}"
    elif _is_selector(obj):  # an instance: each run fits a fresh clone
        takes_model = False
        summary = f"user selector {obj!r}"
    elif callable(obj):  # a factory function
        names, var_kw = _accepted(obj)
        takes_model = "estimator" in names or var_kw
        summary = f"user selector factory {getattr(obj, '__qualname__', obj)!r}"
    else:
        raise TypeError(
            f"{name}: {type(obj).__name__} is neither a selector (fit + get_support), a selector "
            "class, nor a function returning a selector.")
    fields.setdefault("uses_model", takes_model)
    fields.setdefault("summary", summary)
    fields.setdefault("source", "user")
    fields.setdefault("in_default", False)
    fields["tasks"] = tuple(fields.get("tasks", ("classification", "regression")))
    return MethodSpec(name, _UserBuilder(obj, name), **fields)


def _import_path(path: str):
    """The object named by ``"module:attr"`` (``attr`` may be dotted)."""
    mod_name, _, attr = path.partition(":")
    if not mod_name or not attr:
        raise ValueError(f"Import path {path!r} must look like 'module:attribute', e.g. "
                         "'mymodule:MySelector'.")
    try:
        obj = importlib.import_module(mod_name)
    except ImportError as exc:
        raise ValueError(
            f"Cannot import module {mod_name!r} for method {path!r} ({exc}); put the folder "
            "that holds it on PYTHONPATH, or install its package.") from exc
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"Module {mod_name!r} has no attribute {attr!r} (method "
                             f"{path!r}).") from None
    return obj


def resolve_method(entry) -> MethodSpec:
    """The :class:`MethodSpec` of one method entry: the one place entries are read.

    ``compare``, ``select``, ``audit`` and the CLI call this and nothing else.

    Parameters
    ----------
    entry : str, MethodSpec, selector instance, selector class or factory
        - a registered name (``"gbmo"``);
        - an import path ``"module:attr"`` naming a selector class or a
          factory function; the row is named by the path. The class or
          function is called with those of ``task``, ``estimator``,
          ``n_features_to_select``, ``random_state``, ``n_jobs`` it takes (a
          class with an ``estimator`` parameter gets the comparison's model);
        - a selector instance (``fit`` + ``get_support``, e.g. any scikit-learn
          ``SelectorMixin``): every run fits a clone; named by its class;
        - a :class:`MethodSpec` (returned as is).

        A user selector whose ``random_state`` is None gets the run's seed.

    Returns
    -------
    spec : MethodSpec

    Raises
    ------
    UnknownMethodError
        A plain name that is not registered (a ``KeyError`` and a ``ValueError``).
    ValueError
        An import path that cannot be imported, or an object that is not a selector.
    """
    if isinstance(entry, MethodSpec):
        return entry
    if isinstance(entry, str):
        if ":" not in entry:
            return get_method(entry)
        obj, name = _import_path(entry), entry
    else:
        obj = entry
        name = entry.__name__ if inspect.isclass(entry) else (
            type(entry).__name__ if _is_selector(entry) else getattr(entry, "__name__", ""))
        if not name:
            raise ValueError(
                f"Cannot use {entry!r} as a method: give a registered name (see `featsieve "
                "methods`), an import path 'module:Class', or a selector instance.")
    try:
        return _spec_for(obj, name)
    except TypeError as exc:
        raise ValueError(str(exc)) from None


class MethodSkippedWarning(FeatsieveWarning):
    """A method of a named group was left out: its library is not installed."""


def _available_members(group: str, task: str | None) -> list[MethodSpec]:
    """The group's methods (for ``task``) whose libraries are installed; one warning per
    method left out, naming the library and the install command. None installed: the first
    one's :class:`MethodUnavailableError`."""
    members = [s for s in _REGISTRY.values()
               if s.group == group and (task is None or task in s.tasks)]
    ready = [s for s in members if s.available]
    if members and not ready:
        members[0].check_available()
    for s in members:
        if not s.available:
            missing = [m for m in s.requires if importlib.util.find_spec(m) is None] or list(
                s.requires)
            how = f"pip install 'featsieve[{s.extra}]'" if s.extra else (
                f"pip install {' '.join(missing)}")
            warnings.warn(f"{s.name} left out of {group!r}: {', '.join(missing)} is not "
                          f"installed ({how}).", MethodSkippedWarning, stacklevel=4)
    return ready


def resolve_methods(entries, task: str | None = None) -> list[MethodSpec]:
    """Resolve a list of method entries, expanding group names; one spec per name.

    Parameters
    ----------
    entries : str or list
        Entries as for :func:`resolve_method`; a group name (``"comparators"``)
        stands for every registered method of the group (those that suit
        ``task`` when it is given) whose library is installed: one left out
        gets a :class:`MethodSkippedWarning` naming the library and its
        install command (none installed: ``MethodUnavailableError``). A single
        string is one entry.
    task : {"classification", "regression"} or None, default=None
        When given, a named method that does not support it is an error.

    Returns
    -------
    specs : list of MethodSpec
        In the given order, without repeats; user selectors of the same class
        are told apart as ``Name``, ``Name-2``, ...

    Raises
    ------
    UnknownMethodError, ValueError
        As :func:`resolve_method`; a method that does not support ``task``.
    MethodUnavailableError
        A method named by itself whose library is not installed (before any work
        is done).
    """
    import dataclasses

    _load()
    entries = [entries] if isinstance(entries, str) else list(entries)
    groups = {s.group for s in _REGISTRY.values() if s.group}
    out: dict[str, MethodSpec] = {}
    for entry in entries:
        if isinstance(entry, str) and entry in groups and entry not in _REGISTRY:
            members = _available_members(entry, task)
        else:
            spec = resolve_method(entry)
            if task is not None and task not in spec.tasks:
                raise ValueError(f"Method {spec.name!r} does not support {task}; it supports "
                                 f"{' and '.join(spec.tasks)}.")
            if spec.name in out and not isinstance(entry, str):
                n = 2
                while f"{spec.name}-{n}" in out:
                    n += 1
                spec = dataclasses.replace(spec, name=f"{spec.name}-{n}")
            members = [spec]
        for spec in members:
            out.setdefault(spec.name, spec)
    for spec in out.values():
        spec.check_available()
    return list(out.values())
