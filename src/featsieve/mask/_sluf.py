"""SLUF (seed 000 Algorithm 1): the least useful feature by masking, batched or compiled; and GBMO's stop rule."""

from __future__ import annotations

import logging

import numpy as np
from joblib import delayed

from ._losses import _Loss

__all__ = ["gbmo_stop_iteration", "unused_columns"]

logger = logging.getLogger(__name__)

_MAX_BATCH_BYTES = 64 * 2**20  # one stacked chunk of masked copies stays below 64 MiB


# ---------------------------------------------------------------- SLUF
def _as_model_input(model, X):
    names = getattr(model, "feature_names_in_", None)
    if names is None:
        return X
    import pandas as pd

    return pd.DataFrame(X, columns=names, copy=False)


def _chunk_losses(model, X_cur, y, cols, fill, loss: _Loss) -> np.ndarray:
    """Loss of each masked copy in one chunk: one stacked prediction per response method."""
    K = X_cur.shape[0]
    stacked = np.tile(X_cur, (len(cols), 1))
    for b, j in enumerate(cols):
        stacked[b * K:(b + 1) * K, j] = fill[j]
    Xin = _as_model_input(model, stacked)
    return loss.values({m: getattr(model, m)(Xin) for m in loss.methods}, y, len(cols))


def unused_columns(model, n_features: int):
    """Columns a fitted model provably never reads, or None when it cannot tell.

    Masking such a column cannot change a single prediction, so GBMO/FLBMO
    give it the current loss without predicting (``skip_unused=True``); the
    path is the same as with every copy predicted.

    Parameters
    ----------
    model : fitted estimator
        Recognized: LightGBM models (no split on the column), scikit-learn
        decision trees and ensembles of them over all columns (the column
        appears in no node), and linear models (its coefficients are all 0).
    n_features : int

    Returns
    -------
    unused : ndarray of bool, shape (n_features,), or None
    """
    booster = getattr(model, "booster_", None)
    if booster is not None and hasattr(booster, "feature_importance"):
        counts = np.asarray(booster.feature_importance(importance_type="split"))
        return counts == 0 if counts.shape == (n_features,) else None
    trees = None
    if hasattr(model, "tree_"):
        trees = [model]
    elif hasattr(model, "estimators_") and not hasattr(model, "estimators_features_"):
        members = np.ravel(np.asarray(model.estimators_, dtype=object))
        if len(members) and all(hasattr(e, "tree_") for e in members):
            trees = list(members)
    if trees is not None:
        used = np.zeros(n_features, dtype=bool)
        for tree in trees:
            feat = np.asarray(tree.tree_.feature)
            feat = feat[feat >= 0]
            if feat.size and feat.max() >= n_features:
                return None
            used[feat] = True
        return ~used
    coef = getattr(model, "coef_", None)
    if coef is not None:
        coef = np.atleast_2d(np.asarray(coef, dtype=np.float64))
        if coef.shape[-1] == n_features:
            return (coef == 0).all(axis=0)
    return None


def _sluf(model, X_cur, y, remaining, fill, loss: _Loss, chunk: int, parallel, skip=None,
          cur_loss=None):
    """Algorithm 1 (SLUF): the least useful remaining column and its loss.

    ``X_cur`` holds the validation rows with the already-masked columns set to
    their mask values; each remaining column ``j`` is masked in turn (eq. 11)
    and the lowest loss wins (eq. 12-13; ties go to the first, i.e. lowest,
    index). The masked copies are predicted in chunks of ``chunk`` copies.
    Columns flagged in ``skip`` (never read by the model) get ``cur_loss``,
    the loss of ``X_cur`` itself, without a prediction.

    Returns
    -------
    i : int
        Position of ``j_t^*`` in ``remaining``.
    loss_min : float
    n_calls : int
        Model prediction calls made.
    n_copies : int
        Masked copies predicted.
    """
    losses = np.empty(len(remaining))
    todo = np.arange(len(remaining))
    if skip is not None:
        skipped = skip[remaining]
        losses[skipped] = cur_loss
        todo = todo[~skipped]
    cols = [remaining[k] for k in todo]
    chunks = [cols[k:k + chunk] for k in range(0, len(cols), chunk)]
    if len(chunks) == 1:
        parts = [_chunk_losses(model, X_cur, y, chunks[0], fill, loss)]
    elif chunks:
        parts = parallel(delayed(_chunk_losses)(model, X_cur, y, c, fill, loss) for c in chunks)
    if chunks:
        losses[todo] = np.concatenate(parts)
    losses = np.where(np.isnan(losses), np.inf, losses)
    i = int(np.argmin(losses))
    return i, float(losses[i]), len(chunks) * len(loss.methods), len(cols)


class _KernelState:
    """The tree kernel's view of the current rows: every row's leaf in every tree."""

    def __init__(self, table, X_cur):
        self.table = table
        self.leaves = table.leaves(X_cur)
        self.raw = table.raw(self.leaves)
        self.pending = None  # (leaves, raw) of the last winner, kept if it is accepted

    def accept(self):
        if self.pending is not None:
            self.leaves, self.raw = self.pending


def _kernel_outputs(table, model, raw, methods):
    """``{method: stacked outputs}`` from raw outputs of shape (c, n_rows, n_outputs)."""
    out = table.outputs(raw)
    c, n = raw.shape[:2]
    res = {}
    for m in methods:
        if m == "predict_proba":
            res[m] = out.reshape(c * n, -1)
        elif table.link == "identity":
            res[m] = out.reshape(c * n)
        else:  # a classifier's predict: the most probable class, as LightGBM and sklearn do
            res[m] = np.asarray(model.classes_).take(out.argmax(axis=-1).reshape(c * n))
    return res


def _kernel_losses(table, model, X_cur, leaves, raw, fill, loss, y, cols):
    """Which copies masking ``cols`` move a leaf, and their losses (NaN where none moved)."""
    masked, moved = table.masked_raw(X_cur, leaves, raw, cols, fill)
    vals = np.full(len(cols), np.nan)
    if moved.any():
        outs = _kernel_outputs(table, model, masked[moved], loss.methods)
        vals[moved] = loss.values(outs, y, int(moved.sum()))
    return moved, vals


def _sluf_kernel(state, model, X_cur, y, remaining, fill, loss: _Loss, parallel, skip, cur):
    """Algorithm 1 (SLUF) on a tree model, the masked copies evaluated by the tree kernel.

    The same choice as :func:`_sluf`: copies whose masking moves no row to
    another leaf have exactly the current loss ``cur``; the others get the
    loss of the kernel's outputs. Candidates within a relative 1e-9 of the
    lowest loss are re-evaluated by the model itself (one batched call) when
    any of them moved a leaf, so rounding in the kernel cannot change which
    column is chosen or how ties are broken (lowest index).

    Returns the same as :func:`_sluf`; the winner's leaves and raw outputs are
    left in ``state.pending``.
    """
    table = state.table
    n = X_cur.shape[0]
    losses = np.full(len(remaining), float(cur))
    changed = np.zeros(len(remaining), dtype=bool)
    todo = np.arange(len(remaining))
    if skip is not None:
        todo = todo[~skip[remaining]]
    cols = np.asarray(remaining, dtype=np.int64)[todo]
    per = max(1, _MAX_BATCH_BYTES // max(1, n * table.n_outputs * 8))
    chunks = [np.arange(k, min(k + per, len(cols))) for k in range(0, len(cols), per)]

    args = (table, model, X_cur, state.leaves, state.raw, fill, loss, y)
    parts = (parallel(delayed(_kernel_losses)(*args, cols[c]) for c in chunks)
             if len(chunks) > 1 else [_kernel_losses(*args, cols[c]) for c in chunks])
    for idx, (moved, vals) in zip(chunks, parts, strict=True):
        changed[todo[idx[moved]]] = True
        losses[todo[idx[moved]]] = vals[moved]
    losses = np.where(np.isnan(losses), np.inf, losses)
    best = losses.min()
    if np.isfinite(best):
        near = np.flatnonzero(losses <= best + 1e-9 * max(abs(best), abs(cur), 1e-300))
    else:
        near = np.flatnonzero(losses == best)
    calls = 0
    by_model = len(near) > 1 and changed[near].any()
    if by_model:  # the model itself settles a near-tie
        exact = _chunk_losses(model, X_cur, y, [remaining[k] for k in near], fill, loss)
        exact = np.where(np.isnan(exact), np.inf, exact)
        i, loss_t = int(near[np.argmin(exact)]), float(exact.min())
        calls = len(loss.methods)
    else:
        i, loss_t = int(near[0]), float(cur)
    j = remaining[i]
    if changed[i]:
        Z = X_cur.copy()
        Z[:, j] = fill[j]
        leaves = table.leaves(Z)
        raw = table.raw(leaves)
        if not by_model:  # tree-by-tree sums, the model's own order
            loss_t = float(loss.values(_kernel_outputs(table, model, raw[None], loss.methods),
                                       y, 1)[0])
        state.pending = (leaves, raw)
    else:
        state.pending = None
    return i, loss_t, calls, len(cols)


def _gbmo_stops(loss_t: float, loss_prev: float, slack: float) -> bool:
    """Algorithm 2, line 12: stop when ``Loss_t > Loss_{t-1} (1 + mu)``.

    ``Loss_0 = inf`` never stops. For a negative ``Loss_{t-1}`` (a loss made from
    a higher-is-better scorer) the tolerance is read as relative to its size,
    ``Loss_{t-1} (1 - mu)``; for non-negative losses this is the seed's rule.
    """
    if not np.isfinite(loss_prev):
        return False
    if not np.isfinite(slack):
        return False
    thr = loss_prev * (1 + slack) if loss_prev >= 0 else loss_prev * (1 - slack)
    return bool(loss_t > thr)


def gbmo_stop_iteration(losses, slack: float) -> int | None:
    """First iteration (1-based) at which GBMO with slack ``mu`` stops on a path.

    Parameters
    ----------
    losses : sequence of float
        ``Loss_1^min, Loss_2^min, ...`` of one elimination path (eq. 13).
    slack : float
        ``mu`` (Algorithm 2).

    Returns
    -------
    t : int or None
        The rejected iteration (features eliminated: ``t - 1``), or None when
        the rule never fires on the given losses.
    """
    prev = np.inf
    for t, loss_t in enumerate(losses, start=1):
        if _gbmo_stops(loss_t, prev, slack):
            return t
        prev = loss_t
    return None

