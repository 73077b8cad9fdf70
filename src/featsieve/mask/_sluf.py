"""SLUF (seed 000 Algorithm 1): one loop over a candidate evaluator, batched predict or compiled trees."""

from __future__ import annotations

import logging

import numpy as np
from joblib import delayed

from ._losses import _Loss

__all__ = ["PredictCandidates", "TreeKernelCandidates", "sluf_path", "tree_kernel_candidates",
           "unused_columns"]

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
    """Loss of each masked copy in one chunk: one stacked prediction per response method
    (a column of -1: the current rows, nothing masked)."""
    K = X_cur.shape[0]
    stacked = np.tile(X_cur, (len(cols), 1))
    for b, j in enumerate(cols):
        if j >= 0:
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


class PredictCandidates:
    """SLUF's candidates (seed 000 Algorithm 1) evaluated by the model's batched predictions.

    Holds the selection-validation rows with the columns eliminated so far
    set to their mask values (``X_cur``); :meth:`least_useful` masks each
    remaining column in turn (eq. 11) and returns the one of lowest loss
    (eq. 12-13; ties go to the first, i.e. lowest, index); :meth:`mask` makes
    an elimination (eq. 14). The masked copies are predicted in chunks of
    ``chunk`` copies, chunks in parallel. Columns flagged in ``skip`` (never
    read by the model) get the current loss without a prediction.

    Attributes
    ----------
    n_calls : int
        Model prediction calls made (per response method).
    n_copies : int
        Masked copies whose outputs were computed.
    """

    def __init__(self, model, X_val, y, fill, loss: _Loss, *, chunk: int, skip=None):
        self.model, self.y, self.fill, self.loss = model, y, fill, loss
        self.X_cur = np.array(X_val, dtype=np.float64, copy=True)
        self.chunk, self.skip = chunk, skip
        self.n_calls = self.n_copies = 0

    def _todo(self, remaining) -> np.ndarray:
        """Positions in ``remaining`` whose masking can change a prediction."""
        todo = np.arange(len(remaining))
        return todo if self.skip is None else todo[~self.skip[remaining]]

    def _predicted(self, cols) -> np.ndarray:
        """Losses of the copies masking ``cols`` (one stacked call), NaN as inf."""
        out = _chunk_losses(self.model, self.X_cur, self.y, cols, self.fill, self.loss)
        self.n_calls += len(self.loss.methods)
        return np.where(np.isnan(out), np.inf, out)

    def least_useful(self, remaining, cur: float, parallel) -> tuple[int, float]:
        """Position in ``remaining`` of ``j_t^*`` and ``Loss_t^min``; ``cur`` is the loss of ``X_cur``."""
        losses = np.full(len(remaining), float(cur))
        todo = self._todo(remaining)
        cols = [remaining[k] for k in todo]
        chunks = [cols[k:k + self.chunk] for k in range(0, len(cols), self.chunk)]
        args = (self.model, self.X_cur, self.y)
        if len(chunks) == 1:
            parts = [_chunk_losses(*args, chunks[0], self.fill, self.loss)]
        elif chunks:
            parts = parallel(delayed(_chunk_losses)(*args, c, self.fill, self.loss)
                             for c in chunks)
        if chunks:
            losses[todo] = np.concatenate(parts)
        losses = np.where(np.isnan(losses), np.inf, losses)
        self.n_calls += len(chunks) * len(self.loss.methods)
        self.n_copies += len(cols)
        i = int(np.argmin(losses))
        return i, float(losses[i])

    def mask(self, j: int) -> None:
        """Eliminate column ``j`` (eq. 14: ``m_{j*,t} = 0``)."""
        self.X_cur[:, j] = self.fill[j]


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


class TreeKernelCandidates(PredictCandidates):
    """SLUF's candidates on a tree model, evaluated by the compiled tree kernel.

    The same choice as :class:`PredictCandidates`: copies whose masking moves
    no row to another leaf have exactly the current loss; the others get the
    loss of the kernel's outputs. Candidates within a relative 1e-9 of the
    lowest loss are re-evaluated by the model itself (one batched call) when
    any of them moved a leaf, so rounding in the kernel cannot change which
    column is chosen or how ties are broken (lowest index). Every row's leaf
    in every tree is kept for the current rows; the winner's are kept until
    :meth:`mask` accepts it.
    """

    def __init__(self, table, model, X_val, y, fill, loss: _Loss, *, skip=None):
        super().__init__(model, X_val, y, fill, loss, chunk=1, skip=skip)
        self.table = table
        self.leaves = table.leaves(self.X_cur)
        self.raw = table.raw(self.leaves)
        self._pending = None  # (leaves, raw) of the last winner

    def _kernel_losses(self, remaining, cur, parallel):
        """Losses of every candidate by the kernel and which of them moved a leaf."""
        table, n = self.table, self.X_cur.shape[0]
        losses = np.full(len(remaining), float(cur))
        changed = np.zeros(len(remaining), dtype=bool)
        todo = self._todo(remaining)
        cols = np.asarray(remaining, dtype=np.int64)[todo]
        per = max(1, _MAX_BATCH_BYTES // max(1, n * table.n_outputs * 8))
        chunks = [np.arange(k, min(k + per, len(cols))) for k in range(0, len(cols), per)]
        args = (table, self.model, self.X_cur, self.leaves, self.raw, self.fill, self.loss,
                self.y)
        parts = (parallel(delayed(_kernel_losses)(*args, cols[c]) for c in chunks)
                 if len(chunks) > 1 else [_kernel_losses(*args, cols[c]) for c in chunks])
        for idx, (moved, vals) in zip(chunks, parts, strict=True):
            changed[todo[idx[moved]]] = True
            losses[todo[idx[moved]]] = vals[moved]
        self.n_copies += len(cols)
        return np.where(np.isnan(losses), np.inf, losses), changed

    def least_useful(self, remaining, cur: float, parallel) -> tuple[int, float]:
        losses, changed = self._kernel_losses(remaining, cur, parallel)
        best = losses.min()
        if np.isfinite(best):
            near = np.flatnonzero(losses <= best + 1e-9 * max(abs(best), abs(cur), 1e-300))
        else:
            near = np.flatnonzero(losses == best)
        by_model = len(near) > 1 and changed[near].any()
        if by_model:  # the model itself settles a near-tie
            # a copy that moved no row to another leaf gets exactly the model's outputs on
            # the current rows: the current rows (-1), stacked with the moved copies in
            # the same prediction, stand for all such copies
            moved = changed[near]
            cols = [remaining[k] for k in near[moved]] + ([] if moved.all() else [-1])
            vals = self._predicted(cols)
            exact = np.empty(len(near))
            exact[moved] = vals[:int(moved.sum())]
            if not moved.all():
                exact[~moved] = vals[-1]
            i, loss_t = int(near[np.argmin(exact)]), float(exact.min())
        else:
            i, loss_t = int(near[0]), float(cur)
        self._pending = None
        if changed[i]:
            Z = self.X_cur.copy()
            j = remaining[i]
            Z[:, j] = self.fill[j]
            leaves = self.table.leaves(Z)
            raw = self.table.raw(leaves)
            if not by_model:  # tree-by-tree sums, the model's own order
                outs = _kernel_outputs(self.table, self.model, raw[None], self.loss.methods)
                loss_t = float(self.loss.values(outs, self.y, 1)[0])
            self._pending = (leaves, raw)
        return i, loss_t

    def mask(self, j: int) -> None:
        super().mask(j)
        if self._pending is not None:
            self.leaves, self.raw = self._pending


def tree_kernel_candidates(model, X_val, y, fill, loss: _Loss, outputs, *, task, skip=None):
    """:class:`TreeKernelCandidates` for ``model`` if the kernel reproduces its outputs.

    Parameters
    ----------
    model : fitted estimator
    X_val : ndarray of shape (n_rows, n_features)
        The unmasked selection-validation rows.
    y, fill, loss, skip
        As for :class:`PredictCandidates`.
    outputs : dict or None
        ``{method: model output on X_val}`` already computed (None: predicted here).
    task : {"classification", "regression"}

    Returns
    -------
    candidates : TreeKernelCandidates or None
        None when the model has no tree table, the loss reads other outputs,
        or the kernel's outputs differ from the model's.
    n_calls : int
        Prediction calls spent checking the kernel.
    """
    if not set(loss.methods) <= {"predict", "predict_proba"}:
        return None, 0
    from ._tree_kernel import tree_table

    d = X_val.shape[1]
    table = tree_table(model, d)
    if table is None or (task == "classification") == (table.link == "identity"):
        return None, 0
    calls = 0
    if outputs is None:
        Xin = _as_model_input(model, X_val)
        outputs = {m: getattr(model, m)(Xin) for m in loss.methods}
        calls = len(outputs)
    X = np.asarray(X_val, dtype=np.float64)
    checks = [(X, outputs)]
    if table.has_categorical:  # also the masked path of categorical splits (NaN, unseen)
        Xm = X.copy()
        cat_cols = np.unique(table.feature[table.cat_lo >= 0])
        Xm[:, cat_cols] = np.asarray(fill, dtype=np.float64)[cat_cols]
        Xin = _as_model_input(model, Xm)
        checks.append((Xm, {m: getattr(model, m)(Xin) for m in loss.methods}))
        calls += len(loss.methods)
    for rows, refs in checks:
        mine = _kernel_outputs(table, model, table.raw(table.leaves(rows))[None], loss.methods)
        for m, ref in refs.items():
            ref = np.asarray(ref)
            ok = (mine[m].shape == ref.shape and
                  (np.array_equal(mine[m], ref) if ref.dtype.kind not in "fc" else
                   np.allclose(mine[m], ref, rtol=1e-9, atol=1e-12)))
            if not ok:
                logger.debug("tree kernel disagrees with %s.%s; predicting through the model",
                             type(model).__name__, m)
                return None, calls
    return TreeKernelCandidates(table, model, X_val, y, fill, loss, skip=skip), calls


def sluf_path(candidates, rule, n_features: int, base_loss: float, parallel):
    """The loop of Algorithms 2 and 3: SLUF until ``rule`` stops it.

    Parameters
    ----------
    candidates : PredictCandidates or TreeKernelCandidates
    rule : SlackStop or SizeStop
        ``target_size`` (how far down the loop goes) and ``accepts``.
    n_features : int
        Columns the path starts from.
    base_loss : float
        The loss with no column masked.
    parallel : joblib.Parallel

    Returns
    -------
    order : ndarray of int64
        ``j_t^*`` of every iteration run (the last one possibly rejected).
    losses : ndarray of float64
        ``Loss_t^min`` of every iteration run (eq. 13).
    """
    remaining = list(range(n_features))  # ascending: argmin's first minimum is the lowest index
    target = rule.target_size(n_features)
    order, losses = [], []
    prev, cur = np.inf, base_loss  # Loss_0 = inf; cur: the loss of the current rows
    while len(remaining) > target:
        i, loss_t = candidates.least_useful(remaining, cur, parallel)
        j = remaining[i]
        order.append(j)
        losses.append(loss_t)
        logger.debug("iteration %d: least useful column %d, loss %.6g", len(order), j, loss_t)
        if not rule.accepts(loss_t, prev):
            break
        candidates.mask(j)
        remaining.pop(i)
        prev = cur = loss_t
    return np.array(order, dtype=np.int64), np.array(losses, dtype=np.float64)
