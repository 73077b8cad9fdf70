"""Figures for the classic family: the forward wrapper's rounds, the embedded
model's importances and the filter's scores.

Data first (``*_plot_data``: pure functions of a fitted selector returning
plain lists), drawn second (matplotlib, imported inside the functions).
"""

from __future__ import annotations

import numpy as np

from .._utils import rank_from_scores

__all__ = ["figures", "forward_plot_data", "scores_plot_data"]


def _names(selector) -> list[str]:
    names = getattr(selector, "feature_names_in_", None)
    if names is None:
        names = getattr(selector, "_all_feature_names", None)
    if names is None:
        names = [f"x{i}" for i in range(selector.n_features_in_)]
    return [str(n) for n in names]


def forward_plot_data(selector) -> dict:
    """Per-round validation scores of a fitted :class:`~featsieve.ForwardSelector`.

    Parameters
    ----------
    selector : ForwardSelector
        Fitted (reads ``history_`` and ``selection_score_``).

    Returns
    -------
    data : dict
        ``round`` (list of int, 1..R), ``score`` (best candidate's validation
        score in that round, higher is better), ``added`` (the column the round
        proposed), ``accepted`` (whether it was kept; the last round of a run
        that stopped early is the rejected one), ``n_candidates`` and
        ``selection_score`` (the final set's validation score).
    """
    hist = list(selector.history_)
    return {
        "round": [int(h["round"]) for h in hist],
        "score": [float(h["score"]) for h in hist],
        "added": [str(h["added"]) for h in hist],
        "accepted": [bool(h["accepted"]) for h in hist],
        "n_candidates": [int(h["n_candidates"]) for h in hist],
        "selection_score": float(selector.selection_score_),
    }


def scores_plot_data(selector, *, top: int = 30, support=None) -> dict:
    """The ``top`` highest column scores of a fitted filter or embedded selector.

    Parameters
    ----------
    selector : UnivariateFilter or EmbeddedSelector
        Fitted (reads ``scores_`` and ``support_``; ``threshold`` when set).
    top : int, default=30
        How many columns to keep, best first (ties: lower column index).
    support : array-like of bool or None, default=None
        The selection to mark (e.g. the one ``compare`` tuned on model-val);
        None: the selector's own ``support_``.

    Returns
    -------
    data : dict
        ``name``, ``score``, ``selected`` (lists, best first; columns scoring 0
        are left out), ``threshold``
        (float or None: the cut-off the selector applied to the scores),
        ``n_features`` (the columns it could select: ID-like and constant columns
        are not counted, as ``compare`` does not count them) and ``n_selected``.
    """
    scores = np.asarray(selector.scores_, dtype=float)
    support = np.asarray(selector.support_ if support is None else support, bool)
    order, _ = rank_from_scores(scores)
    order = order[scores[order] > 0][:top]  # columns scoring 0 carry nothing to show
    names = _names(selector)
    thr = getattr(selector, "threshold", None)
    return {
        "name": [names[i] for i in order],
        "score": [float(scores[i]) for i in order],
        "selected": [bool(support[i]) for i in order],
        "threshold": None if thr is None else float(thr),
        "n_features": int(len(scores) - np.sum(_left_out(selector))),
        "n_selected": int(np.sum(support)),
    }


def _left_out(selector) -> np.ndarray:
    """The columns the selector could never select (ID-like or constant), as a bool mask:
    ``compare`` does not count them as features either."""
    mask = np.zeros(len(getattr(selector, "scores_", ())), bool)
    for m in (getattr(getattr(selector, "columns_", None), "left_out", None),
              getattr(selector, "constant_features_", None)):
        if m is not None and len(m) == len(mask):
            mask |= np.asarray(m, bool)
    return mask


def _forward_figure(method, selector):
    from matplotlib.figure import Figure

    d = forward_plot_data(selector)
    fig = Figure(figsize=(6.4, 3.6), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(d["round"], d["score"], color="0.6", zorder=1)
    colors = ["tab:blue" if a else "tab:red" for a in d["accepted"]]
    ax.scatter(d["round"], d["score"], c=colors, zorder=2)
    for r, s, name in zip(d["round"], d["score"], d["added"], strict=True):
        ax.annotate(name, (r, s), textcoords="offset points", xytext=(4, 5), fontsize=8)
    ax.axhline(d["selection_score"], color="tab:blue", ls=":", lw=1,
               label=f"final set: {d['selection_score']:.4g}")
    ax.set_xlabel("round (columns in the set)")
    ax.set_ylabel("validation score (higher is better)")
    ax.set_xticks(d["round"])
    ax.scatter([], [], c="tab:red", label="rejected (stop)")
    ax.scatter([], [], c="tab:blue", label="accepted")
    ax.legend(fontsize=8, loc="lower right")
    return (f"{method}: best candidate's score per round", fig)


def _scores_figure(method, selector, what, support=None, cut=None):
    from matplotlib.figure import Figure

    d = scores_plot_data(selector, top=20, support=support)
    n = len(d["name"])
    fig = Figure(figsize=(6.4, max(2.5, 0.17 * n + 1)), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(n)[::-1]
    ax.barh(y, d["score"], color=["tab:blue" if s else "0.75" for s in d["selected"]])
    ax.set_yticks(y, d["name"], fontsize=7)
    if d["threshold"] is not None:
        ax.axvline(d["threshold"], color="tab:red", ls="--", lw=1,
                   label=f"threshold {d['threshold']:g}")
        ax.legend(fontsize=8, loc="lower right")
    ax.set_xlabel(what)
    if support is None:
        whose = f"the fitted selector's own choice, {d['n_selected']} columns"
    else:
        how = ", ".join(f"{'k' if k == 'n_features' else k}={v:g}" for k, v in (cut or {}).items())
        whose = (f"the {d['n_selected']} columns repeat 1 chose"
                 + (f" ({how}, tuned on model-val)" if how else ""))
    title = f"{method}: {what}, top {n} non-zero of {d['n_features']} columns (blue: {whose})"
    return (title, fig)


def figures(method: str, selector, support=None, cut=None) -> list:
    """Figures for a fitted classic selector.

    Parameters
    ----------
    method : str
        The registry name (used in titles).
    selector : fitted selector
    support : array-like of bool or None, default=None
        The selection the comparison reports (marked instead of ``support_``).
    cut : dict or None, default=None
        The tuned cut behind ``support`` (``{"n_features": 10}``), for the title.

    Returns
    -------
    figures : list of (str, matplotlib.figure.Figure)
        Forward wrapper: the best candidate's validation score per round.
        Embedded: importance shares (threshold line). Filter: column scores.
        Empty for other selectors.
    """
    kind = type(selector).__name__
    if kind == "ForwardSelector" and getattr(selector, "history_", None):
        return [_forward_figure(method, selector)]
    if kind == "EmbeddedSelector":
        return [_scores_figure(method, selector, "share of the model's importance",
                               support, cut)]
    if kind == "UnivariateFilter":
        return [_scores_figure(method, selector, "univariate score", support, cut)]
    return []
