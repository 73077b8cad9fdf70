"""Figures of the mask family (GBMO, FLBMO): seed 000 Figures 1-4.

Figure 1/3: the number of remaining features against the iteration; Figure 2/4:
the selection-validation loss ``Loss_t^min`` against the iteration. The data
comes from :func:`mask_plot_data` (pure, no matplotlib); :func:`figures` draws
it. matplotlib is imported inside the drawing functions only.
"""

from __future__ import annotations

import numpy as np

__all__ = ["mask_plot_data", "figures", "plot_remaining", "plot_loss"]


def mask_plot_data(selector, *, slack=None, n_features=None) -> dict:
    """The series behind the figures, from a fitted GBMO/FLBMO.

    Parameters
    ----------
    selector : fitted GBMO or FLBMO
    slack, n_features : float or int, optional
        Draw the run GBMO with this ``mu`` (or FLBMO with this ``eta``) makes
        on the selector's path (:meth:`~featsieve.GBMO.history_for`) instead
        of the selector's own ``history_``.

    Returns
    -------
    data : dict
        ``iteration`` (ndarray of int, 1-based), ``n_remaining`` (features
        left after each iteration's decision), ``loss`` (``Loss_t^min``),
        ``accepted`` (bool), ``base_loss`` (loss with no mask),
        ``n_features`` (features at the start), ``loss_name``.
    """
    if slack is None and n_features is None:
        h = selector.history_
    else:
        h = selector.history_for(slack=slack, n_features=n_features)
    rem = selector.path_["n_remaining"]
    return {
        "iteration": np.array([r["iteration"] for r in h], dtype=np.int64),
        "n_remaining": np.array([r["n_remaining"] for r in h], dtype=np.int64),
        "loss": np.array([r["loss"] for r in h], dtype=np.float64),
        "accepted": np.array([r["accepted"] for r in h], dtype=bool),
        "base_loss": float(selector.base_loss_),
        "n_features": int(rem[0]) + 1 if len(rem) else int(selector.n_features_selected_),
        "loss_name": selector.loss_,
    }


def plot_remaining(data: dict, *, title: str | None = None, ax=None):
    """Remaining features against the iteration (seed 000 Figures 1 and 3)."""
    import matplotlib.pyplot as plt

    fig, ax = (ax.figure, ax) if ax is not None else plt.subplots(figsize=(5.5, 3.6))
    it = np.concatenate([[0], data["iteration"]])
    rem = np.concatenate([[data["n_features"]], data["n_remaining"]])
    ax.step(it, rem, where="post", color="C0")
    ax.plot(it, rem, "o", ms=2.5, color="C0")
    rej = ~data["accepted"]
    if rej.any():
        ax.plot(data["iteration"][rej], data["n_remaining"][rej], "x", color="C3",
                label="stop (not accepted)")
        ax.legend(loc="upper right", fontsize=8)
    ax.set_xlabel("iteration t")
    ax.set_ylabel("remaining features")
    ax.set_title(title or "remaining features vs iteration", fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def plot_loss(data: dict, *, title: str | None = None, ax=None):
    """Selection-validation loss against the iteration (seed 000 Figures 2 and 4)."""
    import matplotlib.pyplot as plt

    fig, ax = (ax.figure, ax) if ax is not None else plt.subplots(figsize=(5.5, 3.6))
    it = np.concatenate([[0], data["iteration"]])
    loss = np.concatenate([[data["base_loss"]], data["loss"]])
    ax.plot(it, loss, "-o", ms=2.5, color="C1")
    rej = ~data["accepted"]
    if rej.any():
        ax.plot(data["iteration"][rej], data["loss"][rej], "x", color="C3", ms=8,
                label="stop (not accepted)")
        ax.legend(loc="best", fontsize=8)
    ax.set_xlabel("iteration t (0: no feature masked)")
    ax.set_ylabel(f"validation loss ({data['loss_name']})")
    ax.set_title(title or "validation loss vs iteration", fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def figures(method: str, selector, cut=None) -> list:
    """The family's figures for a fitted selector.

    ``cut`` (``{"slack": mu}`` or ``{"n_features": eta}``, as ``compare`` tuned
    it) draws the run that choice makes on the selector's path; None draws the
    selector's own run.

    Returns
    -------
    figs : list of (str, matplotlib.figure.Figure)
        ``("remaining features vs iteration", fig)`` and
        ``("validation loss vs iteration", fig)``.
    """
    cut = cut or {}
    data = mask_plot_data(selector, slack=cut.get("slack"), n_features=cut.get("n_features"))
    how = "".join(f", {'mu' if k == 'slack' else 'eta'}={v:g}" for k, v in cut.items())
    return [
        ("remaining features vs iteration",
         plot_remaining(data, title=f"{method}: remaining features vs iteration{how}")),
        ("validation loss vs iteration",
         plot_loss(data, title=f"{method}: validation loss vs iteration{how}")),
    ]
