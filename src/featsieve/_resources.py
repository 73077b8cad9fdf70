"""Resources before work: what a fit will cost, estimated from the table's shape.

Every selector can say, before it allocates anything, how much memory and how
many model fits and predictions a fit on ``n_samples x n_features`` will take
(``estimate_cost(n_samples, n_features) -> Cost``). A method uses the estimate
to pick its form by shape (block HSIC above a size, RFE's step as a fraction
for wide tables) or to refuse up front with :class:`ResourceError`, whose
message states the gigabytes (or fits) needed and names the alternatives.
``compare``'s default method set (``featsieve._registry.default_methods``)
reads the same estimates to leave out a method whose cost is far beyond the
rest.

The memory budget of one method's working memory (beyond the input table) is
2 GiB, or ``FEATSIEVE_MEMORY_GB`` gigabytes when that environment variable is
set (e.g. ``FEATSIEVE_MEMORY_GB=16`` on a large machine).

The conversion of counts into seconds (:meth:`Cost.seconds`) uses rough
per-model constants measured on one core of the development machine (LightGBM
with 100 trees, a decision tree, logistic regression); they order methods by
cost and flag outliers, they do not promise a wall time.
"""

from __future__ import annotations

import math
import os
import warnings
from dataclasses import dataclass

from ._warnings import FeatsieveWarning

__all__ = ["Cost", "ResourceError", "ScalableFormWarning", "LeftOutWarning", "model_kind", "GIB", "memory_budget",
           "check_memory", "format_bytes", "fit_seconds", "row_cap", "capped_rows",
           "ROWS_SCORES", "ROWS_MASKED", "ROWS_ELIMINATION", "ROWS_SEARCH"]

GIB = 2**30

#: Default working-memory budget of one method (bytes).
DEFAULT_MEMORY_BUDGET = 2 * GIB


class ResourceError(ValueError):
    """A fit would need more memory (or model fits) than the budget; raised before any work.

    The message states the estimate and names the alternatives (a scalable
    parameter, another method, or ``FEATSIEVE_MEMORY_GB``).
    """


class ScalableFormWarning(FeatsieveWarning):
    """A method switched to its stated scalable form because of the table's shape."""


class LeftOutWarning(FeatsieveWarning):
    """``compare``'s default set left a method out: its estimated cost is far beyond the rest."""


def memory_budget() -> int:
    """Working-memory budget of one method in bytes (``FEATSIEVE_MEMORY_GB`` or 2 GiB).

    Raises
    ------
    ValueError
        ``FEATSIEVE_MEMORY_GB`` is set but not a positive number.
    """
    text = os.environ.get("FEATSIEVE_MEMORY_GB")
    if not text:
        return DEFAULT_MEMORY_BUDGET
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise ValueError(f"FEATSIEVE_MEMORY_GB must be a positive number of gigabytes; got "
                         f"{text!r}.")
    return int(value * GIB)


def format_bytes(n: float) -> str:
    """``1.5 GB`` / ``320 MB`` (binary units, as numpy allocates).

    Examples
    --------
    >>> format_bytes(3 * 2**30)
    '3.0 GB'
    >>> format_bytes(5 * 2**20)
    '5 MB'
    """
    if n >= GIB / 10:
        return f"{n / GIB:.1f} GB"
    return f"{max(n, 0) / 2**20:.0f} MB"


# seconds on one idle core: (per fit, per fitted cell = row x column, per predicted row)
_MODEL_SECONDS = {
    "lightgbm": (0.03, 2e-6, 3e-6),
    "tree": (0.001, 1e-7, 1e-7),  # times log2(rows) per cell
    # featsieve._cart's presorted kernel (FASTENER, POSS, DT-forward): 5-14x below the tree
    "tree-presorted": (1e-4, 2e-8, 1e-7),  # times log2(rows) per cell
    "logistic": (0.01, 2e-7, 1e-7),
    "mlp": (0.05, 5e-6, 1e-6),
    "elm": (0.005, 2e-7, 1e-7),
}
_KERNEL_ENTRY_SECONDS = 3e-9
_FLOP_SECONDS = 1e-9


# LightGBM's cost per column whatever the rows (binning each column, then every tree's
# histogram scan): about half a millisecond a column for its 100 trees, which is most of
# a fit on a wide table (e.g. 90 x 100,000: some 50 s)
_LIGHTGBM_COLUMN_SECONDS = 5e-4


def fit_seconds(model: str, n_rows: float, n_cols: float) -> float:
    """Rough seconds of one fit of ``model`` on ``n_rows x n_cols`` (see module notes)."""
    per_fit, per_cell, _ = _MODEL_SECONDS.get(model, _MODEL_SECONDS["lightgbm"])
    cells = n_rows * n_cols * (math.log2(max(n_rows, 2)) if model.startswith("tree") else 1.0)
    per_col = _LIGHTGBM_COLUMN_SECONDS if model == "lightgbm" else 0.0
    return per_fit + per_cell * cells + per_col * n_cols


@dataclass(frozen=True)
class Cost:
    """Estimated work and memory of one fit (from the table's shape).

    Attributes
    ----------
    memory_bytes : int
        Peak working memory beyond the input table.
    fits : int
        Model fits.
    fit_seconds : float
        Estimated seconds of those fits (:func:`fit_seconds` summed).
    predictions : float
        Rows predicted by fitted models (a masked copy of ``m`` rows counts ``m``).
    kernel_entries : float
        Kernel (Gram) entries computed.
    flops : float
        Other dense arithmetic (solves, products).
    model : str
        The model the fits and predictions use (for the per-row constants).
    strategy : str
        The form chosen by shape (e.g. ``"block HSIC (B=20, M=3)"``); empty for
        the method's plain form.
    """

    memory_bytes: float = 0
    fits: int = 0
    fit_seconds: float = 0.0
    predictions: float = 0.0
    kernel_entries: float = 0.0
    flops: float = 0.0
    model: str = "lightgbm"
    strategy: str = ""

    @property
    def seconds(self) -> float:
        """Rough single-core seconds (orders methods; not a promise)."""
        per_row = _MODEL_SECONDS.get(self.model, _MODEL_SECONDS["lightgbm"])[2]
        return (self.fit_seconds + self.predictions * per_row
                + self.kernel_entries * _KERNEL_ENTRY_SECONDS + self.flops * _FLOP_SECONDS)

    def describe(self) -> str:
        """One line: fits, predictions, kernel entries, memory, strategy."""
        parts = []
        if self.fits:
            parts.append(f"{self.fits:,} model fits")
        if self.predictions:
            parts.append(f"{self.predictions:.3g} predicted rows")
        if self.kernel_entries:
            parts.append(f"{self.kernel_entries:.3g} kernel entries")
        parts.append(f"{format_bytes(self.memory_bytes)} memory")
        parts.append(f"~{_fmt_seconds(self.seconds)}")
        text = ", ".join(parts)
        return f"{text} ({self.strategy})" if self.strategy else text

    def __add__(self, other: Cost) -> Cost:
        return Cost(memory_bytes=max(self.memory_bytes, other.memory_bytes),
                    fits=self.fits + other.fits,
                    fit_seconds=self.fit_seconds + other.fit_seconds,
                    predictions=self.predictions + other.predictions,
                    kernel_entries=self.kernel_entries + other.kernel_entries,
                    flops=self.flops + other.flops, model=self.model,
                    strategy="; ".join(s for s in (self.strategy, other.strategy) if s))


def _fmt_seconds(s: float) -> str:
    if s < 60:
        return f"{s:.0f} s" if s >= 1 else "<1 s"
    if s < 3600:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:.1f} h"


def model_kind(estimator) -> str:
    """Which constants of :func:`fit_seconds` an estimator's fits follow (by class name)."""
    if estimator is None:
        return "tree"
    from .models import inner_model

    name = type(inner_model(estimator)).__name__.lower()
    for key, kind in (("lgbm", "lightgbm"), ("lightgbm", "lightgbm"), ("tree", "tree"),
                      ("logistic", "logistic"), ("linear", "logistic"), ("ridge", "logistic"),
                      ("mlp", "mlp"), ("elm", "elm")):
        if key in name:
            return kind
    return "lightgbm"


def search_model_kind(estimator, tree_kernel: bool = True) -> str:
    """:func:`model_kind` of a search's evaluations: ``"tree-presorted"`` when its trees are
    grown by the presorted CART kernel (``tree_kernel=True`` and the default tree or a
    plain Gini ``DecisionTreeClassifier``)."""
    if tree_kernel:
        if estimator is None:
            return "tree-presorted"
        from ._cart import supports

        if supports(estimator):
            return "tree-presorted"
    return model_kind(estimator)


def check_memory(owner: str, need: float, *, what: str, alternatives: str,
                 budget: int | None = None) -> None:
    """Raise :class:`ResourceError` when ``need`` bytes exceed the budget.

    Parameters
    ----------
    owner : str
        The method (class name) in the message.
    need : float
        Estimated bytes.
    what : str
        What needs them (``"the 20000 x 20000 Gram matrix"``).
    alternatives : str
        What to do instead (one sentence).
    budget : int or None, default=None
        Bytes; None reads :func:`memory_budget`.

    Raises
    ------
    ResourceError
    """
    budget = memory_budget() if budget is None else budget
    if need > budget:
        raise ResourceError(
            f"{owner} would need about {format_bytes(need)} for {what}, above the memory "
            f"budget of {format_bytes(budget)}; {alternatives} (or raise the budget with "
            f"FEATSIEVE_MEMORY_GB).")


# ---------------------------------------------------------------- row caps (tall tables)
#: ``max_samples="auto"`` of the scores that read every row with a superlinear or
#: per-step cost (k-NN mutual information, mRMR's discretized MI, HSIC kernels)
ROWS_SCORES = 100_000
#: ``max_samples="auto"`` of GBMO / FLBMO: selection-val rows the masked copies are predicted on
ROWS_MASKED = 50_000
#: ``max_samples="auto"`` of RFE / RFECV: rows each elimination fit reads
ROWS_ELIMINATION = 100_000
#: ``max_samples="auto"`` of FASTENER / POSS / FS-SDS: rows of each part an evaluation reads
ROWS_SEARCH = 20_000


def row_cap(max_samples, auto: int) -> int | None:
    """The row cap a ``max_samples`` parameter stands for (``"auto"``: ``auto``; None: none)."""
    if isinstance(max_samples, str):
        return auto
    return None if max_samples is None else int(max_samples)


def capped_rows(owner: str, y, max_samples, *, auto: int, stratify: bool, random_state=None,
                what: str = "scores") -> tuple:
    """Rows a statistic reads on a tall table: all, or a seeded (stratified) subsample.

    Parameters
    ----------
    owner : str
        The selector (class name) in the warning.
    y : ndarray of shape (n_samples,)
        Target (class codes are stratified on when ``stratify``).
    max_samples : int, "auto" or None
        The cap; ``"auto"`` means ``auto``, None no cap.
    auto : int
        The cap of ``"auto"``.
    stratify : bool
        Keep the class shares (classification).
    random_state : int, RandomState or None
        Seeds the draw (an int gives the same rows every call).
    what : str
        What the rows are for, in the strategy line.

    Returns
    -------
    rows : ndarray of int or None
        Sorted row indices, or None when every row is read (``n <= cap``).
    strategy : str
        ``"<what> on a stratified subsample of 100,000 of 750,000 rows"`` (empty
        with no subsample); stated in a :class:`ScalableFormWarning` too.
    """
    n = len(y)
    cap = row_cap(max_samples, auto)
    if cap is None or n <= cap:
        return None, ""
    from .protocol import holdout_split

    seed = random_state if isinstance(random_state, (int, type(None))) else \
        random_state.randint(0, 2**31 - 1)
    keep, _ = holdout_split(n, y, int(n - cap), stratify=stratify,
                            random_state=0 if seed is None else seed)
    kind = "stratified " if stratify else ""
    text = f"{what} on a seeded {kind}subsample of {cap:,} of {n:,} rows"
    warnings.warn(f"{owner}: {text}.", ScalableFormWarning, stacklevel=3)
    return keep, text
