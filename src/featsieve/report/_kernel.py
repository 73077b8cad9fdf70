"""Figures of the kernel family (HSIC Lasso, NOCCO Lasso): the LARS coefficient path.

The data comes from :func:`lars_path_plot_data` (pure, no matplotlib);
:func:`plot_lars_path` draws it; :func:`figures` is the family's entry point
for reports. matplotlib is imported inside the drawing function only.
"""

from __future__ import annotations

import numpy as np

__all__ = ["lars_path_plot_data", "plot_lars_path", "figures"]


def lars_path_plot_data(selector, *, max_lines: int = 30, support=None) -> dict:
    """The series behind the LARS path plot, from a fitted HSIC/NOCCO Lasso.

    Parameters
    ----------
    selector : fitted HSICLasso or NOCCOLasso
    max_lines : int, default=30
        At most this many features are drawn (those with the largest
        coefficient anywhere on the path; selected ones always).
    support : array-like of bool or None, default=None
        The selection to highlight (e.g. the k ``compare`` tuned, read off the
        same path); None: the selector's own.

    Returns
    -------
    data : dict
        ``knot`` (ndarray of int, 0..n_knots-1), ``lambda`` (regularization at
        each knot), ``coef`` (dict name -> ndarray of coefficients along the
        path), ``selected`` (names, by decreasing final coefficient),
        ``final`` (dict name -> final coefficient).
    """
    path = np.asarray(selector.path_)
    d = path.shape[0]
    names = list(getattr(selector, "feature_names_in_", [f"x{i}" for i in range(d)]))
    sel = [int(j) for j in selector.selected_order_]
    if support is not None:
        chosen = set(np.flatnonzero(support).tolist())
        sel = [j for j in sel if j in chosen] + sorted(chosen - set(sel))
    peak = np.abs(path).max(axis=1)
    others = [int(j) for j in np.argsort(-peak, kind="stable") if peak[j] > 0 and j not in sel]
    show = sel + others[: max(0, max_lines - len(sel))]
    return {
        "knot": np.arange(path.shape[1]),
        "lambda": np.asarray(selector.path_lambdas_, dtype=float),
        "coef": {names[j]: path[j].astype(float) for j in show},
        "selected": [names[j] for j in sel],
        "final": {names[j]: float(selector.coef_[j]) for j in sel},
    }


def plot_lars_path(data: dict, *, title: str | None = None, ax=None):
    """Coefficients against the LARS knots, selected features labelled."""
    import matplotlib.pyplot as plt

    fig, ax = (ax.figure, ax) if ax is not None else plt.subplots(figsize=(6.0, 4.0))
    knots = data["knot"]
    for i, (name, coef) in enumerate(data["coef"].items()):
        chosen = name in data["selected"]
        ax.plot(knots, coef, "-o", ms=2.5, lw=1.6 if chosen else 0.8,
                color=f"C{i % 10}" if chosen else "0.6", zorder=3 if chosen else 2)
        if chosen:
            ax.annotate(name, (knots[-1], coef[-1]), xytext=(4, 0), textcoords="offset points",
                        fontsize=8, va="center", color=f"C{i % 10}")
    ax.set_xlabel("LARS knot (lambda decreases)")
    ax.set_ylabel("coefficient alpha")
    ax.set_title(title or "HSIC Lasso coefficient path")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def figures(method: str, selector, support=None) -> list:
    """Report figures for a fitted kernel-family selector (empty when it has no path).

    ``support``: the selection the comparison reports (its columns are the
    highlighted lines); None: the selector's own.
    """
    if not hasattr(selector, "path_") or not hasattr(selector, "selected_order_"):
        return []
    data = lars_path_plot_data(selector, support=support)
    k = len(data["selected"])
    return [(f"{method}: LARS coefficient path ({k} selected)",
             plot_lars_path(data, title=f"{method}: coefficient path, {k} selected"))]
