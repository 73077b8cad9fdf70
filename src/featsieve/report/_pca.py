"""Figures of the PCLFS family (seed 003, Figures 2-4 and 10): the grid-score curve with the
PCLFS and PCLFS-ext picks, and RFECV's curve beside it.

Data first (:func:`pclfs_plot_data`, pure), drawn second (:func:`figures`, matplotlib imported
inside the function).
"""

from __future__ import annotations

import numpy as np

__all__ = ["pclfs_plot_data", "figures"]


def pclfs_plot_data(selector, rfecv=None, max_score_drop=None) -> dict:
    """Everything the PCLFS figure shows, computed from fitted selectors.

    Parameters
    ----------
    selector : fitted :class:`featsieve.PCLFS`
    rfecv : fitted ``sklearn.feature_selection.RFECV`` or None, default=None
        When given, its cross-validated curve is returned for the side panel.
    max_score_drop : float or None, default=None
        T of the PCLFS-ext pick (e.g. the one ``compare`` tuned); None: the
        selector's own.

    Returns
    -------
    data : dict
        ``sizes`` (1..n), ``scores`` and ``std`` (grid mean and standard
        deviation over folds), ``n_pclfs``, ``score_pclfs``, ``n_ext``,
        ``score_ext``, ``threshold`` (t = T / n), ``max_score_drop`` (T),
        ``local_maxima`` (sizes), ``gradients`` (to the maximum),
        ``accepted`` (sizes under t), ``fallback`` (bool), ``scoring``; with
        ``rfecv``: ``rfecv_sizes``, ``rfecv_scores``, ``rfecv_std`` and
        ``rfecv_n`` (its chosen size). All arrays are plain ndarrays.
    """
    from ..pca._pclfs import _extended_details

    g = np.asarray(selector.grid_scores_, dtype=float)
    T = selector.max_score_drop if max_score_drop is None else max_score_drop
    det = _extended_details(g, T)
    data = {
        "sizes": np.arange(1, g.size + 1),
        "scores": g,
        "std": np.asarray(selector.cv_results_["std_test_score"], dtype=float),
        "n_pclfs": det["n_pclfs"],
        "score_pclfs": float(g[det["n_pclfs"] - 1]),
        "n_ext": det["size"],
        "score_ext": float(g[det["size"] - 1]),
        "threshold": det["threshold"],
        "max_score_drop": float(T),
        "local_maxima": det["local_maxima"],
        "gradients": det["gradients"],
        "accepted": det["accepted"],
        "fallback": det["fallback"],
        "scoring": selector.scoring if isinstance(selector.scoring, str) else "score",
    }
    if rfecv is not None:
        res = rfecv.cv_results_
        data["rfecv_sizes"] = np.asarray(res["n_features"])
        data["rfecv_scores"] = np.asarray(res["mean_test_score"], dtype=float)
        data["rfecv_std"] = np.asarray(res["std_test_score"], dtype=float)
        data["rfecv_n"] = int(rfecv.n_features_)
    return data


def figures(method, selector, rfecv=None, cut=None):
    """Draw the PCLFS grid-score figure.

    Parameters
    ----------
    method : str
        Registry name (``"pclfs"`` or ``"pclfs-ext"``), used in the title.
    selector : fitted :class:`featsieve.PCLFS`
    rfecv : fitted RFECV or None, default=None
        Adds a second panel with RFECV's curve and its pick.
    cut : dict or None, default=None
        ``{"max_score_drop": T}`` as ``compare`` tuned it: the PCLFS-ext pick
        drawn is the one tuned in the first repeat.

    Returns
    -------
    figures : list of (str, matplotlib.figure.Figure)
        One figure: the grid curve with the PCLFS pick (blue), the PCLFS-ext
        pick (red), the local maxima considered (hollow) and the line from the
        PCLFS-ext pick to the maximum whose slope was compared with t.
    """
    from matplotlib.figure import Figure  # no pyplot: no global figure state

    d = pclfs_plot_data(selector, rfecv, max_score_drop=(cut or {}).get("max_score_drop"))
    ncols = 2 if rfecv is not None else 1
    fig = Figure(figsize=(6.2 * ncols, 4.2))
    axes = fig.subplots(1, ncols, squeeze=False)
    ax = axes[0, 0]
    x, g, s = d["sizes"], d["scores"], d["std"]
    ax.plot(x, g, color="0.3", lw=1.2, label="grid score (CV mean)")
    ax.fill_between(x, g - s, g + s, color="0.85", lw=0)
    if len(d["local_maxima"]):
        lm = d["local_maxima"]
        ax.scatter(lm, g[lm - 1], facecolors="none", edgecolors="0.4", s=36, zorder=3,
                   label="local maxima before the max")
    ax.plot([d["n_ext"], d["n_pclfs"]], [d["score_ext"], d["score_pclfs"]], color="tab:red",
            ls="--", lw=0.8)
    ax.scatter([d["n_pclfs"]], [d["score_pclfs"]], color="tab:blue", s=120, zorder=4,
               label=f"PCLFS: {d['n_pclfs']} features")
    ax.scatter([d["n_ext"]], [d["score_ext"]], color="tab:red", s=40, zorder=5,
               label=f"PCLFS-ext: {d['n_ext']} features (t = {d['threshold']:.2g})")
    ax.set_xlabel("number of features (PCLFS order)")
    ax.set_ylabel(d["scoring"])
    ax.set_title(f"{method}: nested-subset grid, T = {d['max_score_drop']:g}")
    ax.legend(fontsize=8, loc="lower right")
    if rfecv is not None:
        ax2 = axes[0, 1]
        rx, rg, rs = d["rfecv_sizes"], d["rfecv_scores"], d["rfecv_std"]
        ax2.plot(rx, rg, color="0.3", lw=1.2)
        ax2.fill_between(rx, rg - rs, rg + rs, color="0.85", lw=0)
        k = d["rfecv_n"]
        ax2.scatter([k], [rg[list(rx).index(k)]], color="tab:green", s=60, zorder=4,
                    label=f"RFECV: {k} features")
        ax2.set_xlabel("number of features (RFE elimination)")
        ax2.set_ylabel(d["scoring"])
        ax2.set_title("RFECV on the same data")
        ax2.legend(fontsize=8, loc="lower right")
        lo = min(ax.get_ylim()[0], ax2.get_ylim()[0])
        hi = max(ax.get_ylim()[1], ax2.get_ylim()[1])
        ax.set_ylim(lo, hi)
        ax2.set_ylim(lo, hi)
    fig.tight_layout()
    return [(f"{method} grid scores", fig)]
