"""Figures of the genetic family (seed 001, Figures 8 and 9): Pareto fronts of several
generations overlaid, and the area under the front (AUF) per generation and per model
evaluation, for FASTENER and POSS.

Data first (the pure ``*_plot_data`` functions), drawn second (:func:`figures`,
:func:`convergence_figure`; matplotlib imported inside the functions).
"""

from __future__ import annotations

import numpy as np

__all__ = ["front_plot_data", "auf_plot_data", "convergence_plot_data", "figures",
           "convergence_figure"]


def _pick_generations(n: int, k: int) -> list[int]:
    if n <= k:
        return list(range(n))
    return sorted({int(round(i)) for i in np.linspace(0, n - 1, k)})


def front_plot_data(selector, n_fronts: int = 5, max_size: int | None = None) -> dict:
    """Fronts of ``n_fronts`` evenly spaced generations (first and last included).

    Parameters
    ----------
    selector : fitted FASTENER or POSS
    n_fronts : int, default=5
    max_size : int or None, default=None
        Drop front items larger than this (e.g. 20, the AUF's K).

    Returns
    -------
    data : dict
        ``fronts``: list of dicts ``generation``, ``n_evaluations``, ``sizes``,
        ``scores`` (ndarrays, by increasing size); ``selected_size``,
        ``selection_score``, ``scoring``.
    """
    hist = selector.history_
    out = []
    for g in _pick_generations(len(selector.front_history_), n_fronts):
        pairs = [(s, v) for s, v in selector.front_history_[g]
                 if s > 0 and (max_size is None or s <= max_size)]
        out.append({"generation": int(hist[g]["generation"]),
                    "n_evaluations": int(hist[g]["n_evaluations"]),
                    "sizes": np.array([p[0] for p in pairs], dtype=int),
                    "scores": np.array([p[1] for p in pairs], dtype=float)})
    return {"fronts": out, "selected_size": int(selector.selected_size_),
            "selection_score": float(selector.selection_score_),
            "scoring": str(selector.scoring_)}


def auf_plot_data(selector) -> dict:
    """AUF after every generation and its change (seed 001 Figure 9).

    Returns
    -------
    data : dict
        ``generation``, ``n_evaluations``, ``auf``, ``delta`` (AUF change from
        the previous generation, 0 for the first), ``purged`` (bool, generations
        that ran Algorithm 3; all False for POSS) — equal-length ndarrays —,
        ``scoring`` and ``max_features`` (the AUF's K).
    """
    h = selector.history_
    auf = np.array([r["auf"] for r in h], dtype=float)
    return {"generation": np.array([r["generation"] for r in h], dtype=int),
            "n_evaluations": np.array([r["n_evaluations"] for r in h], dtype=int),
            "auf": auf, "delta": np.diff(auf, prepend=auf[:1]),
            "purged": np.array([bool(r.get("purged", False)) for r in h]),
            "scoring": str(selector.scoring_), "max_features": int(selector.auf_max_features)}


def convergence_plot_data(selectors: dict) -> dict:
    """AUF against model evaluations for several fitted selectors (Figure 9).

    Parameters
    ----------
    selectors : dict of name -> fitted FASTENER/POSS

    Returns
    -------
    data : dict of name -> {"n_evaluations": ndarray, "auf": ndarray, "max_features": int}
    """
    out = {}
    for name, s in selectors.items():
        a = auf_plot_data(s)
        out[name] = {k: a[k] for k in ("n_evaluations", "auf", "max_features")}
    return out


def figures(method, selector, support=None):
    """The genetic family's figures for a fitted FASTENER or POSS.

    ``support`` (the front item ``compare`` chose on model-val) is the item
    circled as selected; None circles the selector's own choice.

    Returns
    -------
    figures : list of (str, matplotlib.figure.Figure)
        ``"<method> Pareto fronts by generation"`` (Figure 8-like) and
        ``"<method> AUF per generation"`` (Figure 9-like, with the change of
        the AUF and the purge generations marked).
    """
    from matplotlib.figure import Figure

    d = front_plot_data(selector)
    if support is not None:  # the item the comparison's row reports
        k = int(np.sum(support))
        front = selector.pareto_front_
        row = front[front["size"] == k]
        d["selected_size"] = k
        d["selection_score"] = float(row["score"].iloc[0]) if len(row) else float("nan")
    fig = Figure(figsize=(6.4, 4.2))
    ax = fig.subplots()
    cmap = __import__("matplotlib").colormaps["viridis"]
    n = len(d["fronts"])
    for i, f in enumerate(d["fronts"]):
        ax.step(f["sizes"], f["scores"], where="post", color=cmap(i / max(n - 1, 1)), lw=1.2,
                marker="o", ms=3,
                label=f"generation {f['generation']} ({f['n_evaluations']} evaluations)")
    if d["selected_size"]:
        ax.scatter([d["selected_size"]], [d["selection_score"]], s=90, facecolors="none",
                   edgecolors="tab:red", zorder=4, label=f"selected: {d['selected_size']} features")
    ax.set_xlabel("number of features")
    ax.set_ylabel(f"{d['scoring']} on selection-val")
    ax.set_title(f"{method}: Pareto front by generation")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()

    a = auf_plot_data(selector)
    fig2 = Figure(figsize=(6.4, 4.8))
    ax1, ax2 = fig2.subplots(2, 1, sharex=True)
    ax1.plot(a["generation"], a["auf"], color="tab:blue", lw=1.2)
    ax1.set_ylabel(f"AUF (K = {a['max_features']})")
    ax1.set_title(f"{method}: area under the front per generation")
    ax2.bar(a["generation"], a["delta"], color=np.where(a["purged"], "tab:red", "0.4"),
            width=0.9)
    ax2.set_ylabel("AUF change")
    ax2.set_xlabel("generation (red: front purged)")
    fig2.tight_layout()
    return [(f"{method} Pareto fronts by generation", fig), (f"{method} AUF per generation", fig2)]


def convergence_figure(selectors: dict, title: str = "AUF against model evaluations"):
    """One panel: AUF against evaluations for each named fitted selector.

    Returns
    -------
    fig : matplotlib.figure.Figure
    """
    from matplotlib.figure import Figure

    data = convergence_plot_data(selectors)
    fig = Figure(figsize=(6.4, 4.0))
    ax = fig.subplots()
    for name, c in data.items():
        ax.step(c["n_evaluations"], c["auf"], where="post", lw=1.3, label=name)
    ax.set_xlabel("model evaluations")
    ks = sorted({c["max_features"] for c in data.values()})
    ax.set_ylabel(f"AUF (K = {', '.join(map(str, ks))}) on selection-val")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig
