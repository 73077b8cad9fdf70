"""A compiled kernel that evaluates GBMO's masked copies on tree ensembles.

GBMO and FLBMO (seed ``000_dd912381c0e6a8a4.txt`` Algorithm 1, eq. 12) need,
at every iteration, the model's predictions on |J| copies of the
selection-validation rows, each with one more column set to its mask value.
A tree's output changes under masking column ``j`` only if the tree splits
on ``j``; so instead of running the whole ensemble on every copy, this
kernel reads the fitted trees once into flat node arrays, keeps each row's
current leaf in every tree, and for candidate ``j`` re-descends only the
trees that split on ``j``. The copy's raw output is the current raw output
plus the change of those trees' leaf values.

Supported models (anything else returns ``None`` from :func:`tree_table`
and GBMO predicts through the model as before):

- LightGBM boosters (``LGBMRegressor``/``LGBMClassifier``, numerical and
  categorical splits, no linear trees, objectives ``regression``, ``regression_l1``,
  ``huber``, ``fair``, ``quantile``, ``mape`` (identity output), ``binary``
  (sigmoid) and ``multiclass`` (softmax));
- scikit-learn ``DecisionTree*``, ``ExtraTree*``, ``RandomForest*`` and
  ``ExtraTrees*`` with one output (scikit-learn compares float32 inputs,
  which the kernel does too).

Exactness. Split decisions are the libraries' own (LightGBM: ``x <=
threshold`` with its missing-value rules, and for a categorical split: NaN
and negative values go right, else ``int(x)`` (truncated) in the split's
category set goes left, as its ``CategoricalDecision``; scikit-learn:
``float32(x) <= threshold``), so every leaf is the one the library reaches. Output values
are sums of the same leaf values, in another order for changed trees, so
they agree with the model's predictions to rounding (about 1e-15
relative). GBMO uses the kernel to rank candidates and lets the model
itself settle near-ties (see ``featsieve.mask``), and checks once, on the
unmasked rows, that the kernel reproduces the model's outputs before using
it at all.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

__all__ = ["TreeTable", "tree_table"]

_MISSING = {"None": 0, "Zero": 1, "NaN": 2}
_IDENTITY_OBJECTIVES = {"regression", "regression_l1", "huber", "fair", "quantile", "mape"}


@dataclass
class TreeTable:
    """Flat node arrays of a tree ensemble and how its leaves make outputs.

    Attributes
    ----------
    feature : ndarray of int64, shape (n_nodes,)
        Split column, -1 at leaves.
    threshold : ndarray of float64, shape (n_nodes,)
    left, right : ndarray of int64, shape (n_nodes,)
    default_left : ndarray of bool, shape (n_nodes,)
        LightGBM's direction for a missing value.
    missing : ndarray of int8, shape (n_nodes,)
        0 none, 1 zero-as-missing, 2 NaN (LightGBM's missing types).
    cat_lo, cat_hi : ndarray of int64, shape (n_nodes,)
        A categorical split's left categories are ``cats[cat_lo:cat_hi]``
        (sorted); ``cat_lo = -1`` for a numerical split or a leaf.
    cats : ndarray of int64
        The categorical splits' category sets, one after another.
    value : ndarray of float64, shape (n_nodes, n_values)
        Leaf values; one column (a scalar added to output ``group[t]``) or one
        per output (a vector added to every output).
    roots : ndarray of int64, shape (n_trees,)
    group : ndarray of int64, shape (n_trees,)
        Output a tree's scalar leaves add to; -1 when leaves are vectors.
    n_outputs : int
        Raw outputs per row (classes for multiclass, else 1).
    divisor : float
        Raw outputs are divided by it (the number of trees of a forest, else 1).
    link : {"identity", "sigmoid", "softmax", "proportions"}
        From raw outputs to the model's ``predict`` (regression) or
        ``predict_proba`` (classification) output.
    sigmoid : float
        LightGBM's sigmoid parameter (``link="sigmoid"``).
    float32 : bool
        Inputs are compared as float32 (scikit-learn trees).
    """

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    default_left: np.ndarray
    missing: np.ndarray
    value: np.ndarray
    roots: np.ndarray
    group: np.ndarray
    n_outputs: int
    divisor: float
    link: str
    sigmoid: float = 1.0
    float32: bool = False
    cat_lo: np.ndarray | None = None
    cat_hi: np.ndarray | None = None
    cats: np.ndarray | None = None

    @property
    def has_categorical(self) -> bool:
        return bool(self.cat_lo is not None and (self.cat_lo >= 0).any())

    def __post_init__(self):
        n = len(self.feature)
        if self.cat_lo is None:  # numerical splits only
            self.cat_lo = np.full(n, -1, dtype=np.int64)
            self.cat_hi = np.full(n, -1, dtype=np.int64)
            self.cats = np.zeros(0, dtype=np.int64)
        # every split node of each (column, tree) pair, the pairs as CSR by column:
        # trees_of[col_ptr[j]:col_ptr[j + 1]] are the trees that split on column j, and
        # split_nodes[node_ptr[p]:node_ptr[p + 1]] the nodes of pair p, in preorder
        n_nodes = len(self.feature)
        node_tree = np.repeat(np.arange(len(self.roots)),
                              np.diff(np.append(self.roots, n_nodes)))
        self.pre, self.end = _preorder(self.roots, self.left, self.right, n_nodes)
        split = np.flatnonzero(self.feature >= 0)
        f, t = self.feature[split], node_tree[split]
        order = np.lexsort((self.pre[split], t, f))
        split, f, t = split[order], f[order], t[order]
        first = np.ones(len(split), dtype=bool)
        first[1:] = (f[1:] != f[:-1]) | (t[1:] != t[:-1])
        starts = np.flatnonzero(first)
        self.split_nodes = np.ascontiguousarray(split, dtype=np.int64)
        self.node_ptr = np.append(starts, len(split)).astype(np.int64)
        pair_col = f[starts]
        n_cols = int(self.feature.max()) + 1 if len(split) else 0
        self.col_ptr = np.zeros(n_cols + 1, dtype=np.int64)
        np.add.at(self.col_ptr, pair_col + 1, 1)
        self.col_ptr = np.cumsum(self.col_ptr)
        self.trees_of = np.ascontiguousarray(t[starts], dtype=np.int64)

    # ---------------------------------------------------------------- use
    def _args(self):
        return (self.feature, self.threshold, self.left, self.right, self.default_left,
                self.missing, self.float32, self.cat_lo, self.cat_hi, self.cats)

    def leaves(self, X: np.ndarray) -> np.ndarray:
        """Leaf of every row in every tree, shape (n_rows, n_trees)."""
        out = np.empty((X.shape[0], len(self.roots)), dtype=np.int64)
        _all_leaves(X, self.roots, *self._args(), out)
        return out

    def raw(self, leaves: np.ndarray) -> np.ndarray:
        """Raw outputs of rows with the given leaves, shape (n_rows, n_outputs).

        Summed tree by tree in the model's order, as LightGBM and
        scikit-learn do.
        """
        out = np.zeros((leaves.shape[0], self.n_outputs))
        _sum_leaves(leaves, self.value, self.group, out)
        return out / self.divisor if self.divisor != 1.0 else out

    def masked_raw(self, X, leaves, raw, cols, fill):
        """Raw outputs of the copies of ``X`` with one column of ``cols`` masked each.

        Parameters
        ----------
        X : ndarray of float64, shape (n_rows, n_features)
            The current rows (already-masked columns hold their mask values).
        leaves, raw : outputs of :meth:`leaves` and :meth:`raw` on ``X``
        cols : ndarray of int64, shape (n_copies,)
        fill : ndarray of float64, shape (n_features,)

        Returns
        -------
        raw : ndarray of float64, shape (n_copies, n_rows, n_outputs)
        changed : ndarray of bool, shape (n_copies,)
            Whether masking the column moved any row to another leaf; when
            False the copy's outputs are exactly the current ones.
        """
        delta = np.zeros((len(cols), X.shape[0], self.n_outputs))
        changed = np.zeros(len(cols), dtype=np.bool_)
        n_cols = len(self.col_ptr) - 1
        _masked_deltas(X, leaves, np.asarray(cols, dtype=np.int64), fill, n_cols, self.col_ptr,
                       self.trees_of, self.node_ptr, self.split_nodes, self.pre, self.end,
                       *self._args(), self.value, self.group, delta, changed)
        if self.divisor != 1.0:
            delta /= self.divisor
        return raw[None, :, :] + delta, changed

    def outputs(self, raw: np.ndarray) -> np.ndarray:
        """The model's ``predict`` (regression) or ``predict_proba`` output from raw outputs.

        ``raw`` has shape (..., n_outputs); the result has shape (...) for
        regression and (..., n_classes) for classification.
        """
        if self.link == "identity":
            return raw[..., 0]
        if self.link == "sigmoid":
            p = 1.0 / (1.0 + np.exp(-self.sigmoid * raw[..., 0]))
            return np.stack([1.0 - p, p], axis=-1)
        if self.link == "softmax":
            e = np.exp(raw - raw.max(axis=-1, keepdims=True))
            return e / e.sum(axis=-1, keepdims=True)
        return raw  # "proportions": already class probabilities


# ------------------------------------------------------------- building
def tree_table(model, n_features: int) -> TreeTable | None:
    """Read a fitted tree model into a :class:`TreeTable`, or None if unsupported.

    Parameters
    ----------
    model : fitted estimator
    n_features : int
        Columns the model is given.
    """
    try:
        if hasattr(model, "booster_"):
            return _from_lightgbm(model, n_features)
        return _from_sklearn(model, n_features)
    except (AttributeError, KeyError, TypeError, ValueError):
        return None


def _from_lightgbm(model, n_features):
    booster = model.booster_
    dump = booster.dump_model()
    if dump.get("average_output") or dump.get("max_feature_idx", -1) >= n_features:
        return None
    obj = str(dump.get("objective", "")).split()
    if not obj:
        return None
    params = dict(tok.split(":", 1) for tok in obj[1:] if ":" in tok)
    k = int(dump["num_tree_per_iteration"])
    if obj[0] in _IDENTITY_OBJECTIVES and len(obj) == 1 and k == 1:
        link, sig = "identity", 1.0
    elif obj[0] == "binary" and k == 1:
        link, sig = "sigmoid", float(params.get("sigmoid", 1.0))
    elif obj[0] == "multiclass" and k > 1:
        link, sig = "softmax", 1.0
    else:
        return None
    nodes = {"feature": [], "threshold": [], "left": [], "right": [], "default_left": [],
             "missing": [], "value": [], "cat_lo": [], "cat_hi": []}
    roots, cats = [], []
    for info in dump["tree_info"]:
        roots.append(len(nodes["feature"]))
        _flatten_lgb(info["tree_structure"], nodes, cats)
    if not roots:
        return None
    return TreeTable(
        feature=np.asarray(nodes["feature"], np.int64),
        threshold=np.asarray(nodes["threshold"], np.float64),
        left=np.asarray(nodes["left"], np.int64), right=np.asarray(nodes["right"], np.int64),
        default_left=np.asarray(nodes["default_left"], np.bool_),
        missing=np.asarray(nodes["missing"], np.int8),
        value=np.asarray(nodes["value"], np.float64)[:, None],
        roots=np.asarray(roots, np.int64),
        group=np.arange(len(roots), dtype=np.int64) % k,
        n_outputs=k, divisor=1.0, link=link, sigmoid=sig,
        cat_lo=np.asarray(nodes["cat_lo"], np.int64), cat_hi=np.asarray(nodes["cat_hi"], np.int64),
        cats=np.asarray(cats, np.int64))


def _flatten_lgb(root, nodes, cats):
    """Append one LightGBM tree (dump_model's nested dicts) in preorder; a categorical
    split's left categories (its threshold ``"1||3||5"``) go to ``cats``."""
    stack = [(root, -1, False)]
    while stack:
        node, parent, is_right = stack.pop()
        me = len(nodes["feature"])
        if parent >= 0:
            nodes["right" if is_right else "left"][parent] = me
        if "leaf_value" in node:
            if "leaf_coeff" in node:
                raise ValueError("linear trees")
            vals = (-1, 0.0, -1, -1, False, 0, float(node["leaf_value"]), -1, -1)
        elif node.get("decision_type") == "==":
            left_set = sorted({int(t) for t in str(node["threshold"]).split("||")})
            vals = (int(node["split_feature"]), 0.0, -1, -1, bool(node["default_left"]),
                    _MISSING[node["missing_type"]], 0.0, len(cats), len(cats) + len(left_set))
            cats.extend(left_set)
        else:
            if node.get("decision_type") != "<=":
                raise ValueError(f"decision type {node.get('decision_type')!r}")
            vals = (int(node["split_feature"]), float(node["threshold"]), -1, -1,
                    bool(node["default_left"]), _MISSING[node["missing_type"]], 0.0, -1, -1)
        if "leaf_value" not in node:
            stack.append((node["right_child"], me, True))
            stack.append((node["left_child"], me, False))
        for key, v in zip(nodes, vals, strict=True):
            nodes[key].append(v)


def _from_sklearn(model, n_features):
    from sklearn.base import is_classifier

    if getattr(model, "n_outputs_", 1) != 1:
        return None
    if hasattr(model, "tree_"):
        trees, forest = [model], False
    elif (hasattr(model, "estimators_") and not hasattr(model, "estimators_features_")
          and type(model).__name__ in ("RandomForestClassifier", "RandomForestRegressor",
                                       "ExtraTreesClassifier", "ExtraTreesRegressor")):
        trees, forest = list(model.estimators_), True
    else:
        return None
    if not trees or any(not hasattr(t, "tree_") for t in trees):
        return None
    clf = is_classifier(model)
    parts = {k: [] for k in ("feature", "threshold", "left", "right", "value")}
    roots, offset = [], 0
    for est in trees:
        t = est.tree_
        if t.n_features != n_features:
            return None
        leaf = t.children_left < 0
        roots.append(offset)
        parts["feature"].append(np.where(leaf, -1, t.feature))
        parts["threshold"].append(t.threshold)
        parts["left"].append(np.where(leaf, -1, t.children_left + offset))
        parts["right"].append(np.where(leaf, -1, t.children_right + offset))
        v = np.asarray(t.value[:, 0, :], dtype=np.float64)
        if clf:  # predict_proba normalizes each leaf's class weights
            norm = v.sum(axis=1, keepdims=True)
            v = v / np.where(norm == 0, 1.0, norm)
        parts["value"].append(v)
        offset += t.node_count
    n_nodes = offset
    value = np.concatenate(parts["value"])
    return TreeTable(
        feature=np.concatenate(parts["feature"]).astype(np.int64),
        threshold=np.concatenate(parts["threshold"]).astype(np.float64),
        left=np.concatenate(parts["left"]).astype(np.int64),
        right=np.concatenate(parts["right"]).astype(np.int64),
        default_left=np.zeros(n_nodes, np.bool_), missing=np.zeros(n_nodes, np.int8),
        value=np.ascontiguousarray(value), roots=np.asarray(roots, np.int64),
        group=np.full(len(roots), -1 if clf else 0, dtype=np.int64),
        n_outputs=value.shape[1], divisor=float(len(trees)) if forest else 1.0,
        link="proportions" if clf else "identity", float32=True)


# ------------------------------------------------------------- kernels
@njit(cache=True, nogil=True, inline="always")
def _descend(node, x, j, c, feature, threshold, left, right, default_left, missing, f32,
             cat_lo, cat_hi, cats):
    """Leaf reached from ``node`` by row ``x`` with column ``j`` set to ``c`` (j < 0: none)."""
    while feature[node] >= 0:
        f = feature[node]
        v = c if f == j else x[f]
        lo = cat_lo[node]
        if lo >= 0:  # LightGBM's CategoricalDecision
            go_left = False
            if not np.isnan(v):
                iv = int(v)  # truncated toward zero, as its static_cast<int>
                if iv >= 0:
                    a, b = lo, cat_hi[node]
                    while a < b:  # the sorted left set
                        mid = (a + b) // 2
                        if cats[mid] < iv:
                            a = mid + 1
                        else:
                            b = mid
                    go_left = a < cat_hi[node] and cats[a] == iv
            node = left[node] if go_left else right[node]
            continue
        if f32:
            v = np.float64(np.float32(v))
        m = missing[node]
        if np.isnan(v) and m != 2:
            v = 0.0
        if (m == 1 and -1e-35 <= v <= 1e-35) or (m == 2 and np.isnan(v)):
            node = left[node] if default_left[node] else right[node]
        elif v <= threshold[node]:
            node = left[node]
        else:
            node = right[node]
    return node


@njit(cache=True, nogil=True)
def _all_leaves(X, roots, feature, threshold, left, right, default_left, missing, f32,
                cat_lo, cat_hi, cats, out):
    for i in range(X.shape[0]):
        x = X[i]
        for t in range(roots.shape[0]):
            out[i, t] = _descend(roots[t], x, -1, 0.0, feature, threshold, left, right,
                                 default_left, missing, f32, cat_lo, cat_hi, cats)


@njit(cache=True, nogil=True)
def _sum_leaves(leaves, value, group, out):
    for i in range(leaves.shape[0]):
        for t in range(leaves.shape[1]):
            leaf = leaves[i, t]
            g = group[t]
            if g >= 0:
                out[i, g] += value[leaf, 0]
            else:
                for k in range(out.shape[1]):
                    out[i, k] += value[leaf, k]


@njit(cache=True, nogil=True)
def _preorder(roots, left, right, n_nodes):
    """Each node's preorder rank within its tree and the rank just past its subtree:
    a leaf ``l`` lies under node ``v`` iff ``pre[v] <= pre[l] < end[v]``."""
    pre = np.empty(n_nodes, dtype=np.int64)
    end = np.empty(n_nodes, dtype=np.int64)
    stack = np.empty(2 * n_nodes + 2, dtype=np.int64)  # (node, phase) pairs
    for r in range(roots.shape[0]):
        rank = 0
        stack[0] = roots[r]
        stack[1] = 0
        top = 1
        while top > 0:
            top -= 1
            node = stack[2 * top]
            phase = stack[2 * top + 1]
            if phase == 1:
                end[node] = rank
                continue
            pre[node] = rank
            rank += 1
            stack[2 * top] = node
            stack[2 * top + 1] = 1
            top += 1
            if left[node] >= 0:
                stack[2 * top] = right[node]
                stack[2 * top + 1] = 0
                top += 1
                stack[2 * top] = left[node]
                stack[2 * top + 1] = 0
                top += 1
    return pre, end


@njit(cache=True, nogil=True)
def _masked_deltas(X, leaves, cols, fill, n_cols, col_ptr, trees_of, node_ptr, split_nodes,
                   pre, end, feature, threshold, left, right, default_left, missing, f32,
                   cat_lo, cat_hi, cats, value, group, delta, changed):
    """Per copy (column ``j`` masked) the change of each row's raw output. Only trees
    that split on ``j`` can change, and in such a tree only rows whose current leaf
    lies under a node splitting on ``j``: those re-descend from the highest such node
    on their path (above it their path is unchanged); every other row keeps its leaf."""
    for k in range(cols.shape[0]):
        j = cols[k]
        if j >= n_cols:  # no tree splits on j
            continue
        c = fill[j]
        for p in range(col_ptr[j], col_ptr[j + 1]):
            t = trees_of[p]
            g = group[t]
            a, b = node_ptr[p], node_ptr[p + 1]
            for i in range(X.shape[0]):
                old = leaves[i, t]
                po = pre[old]
                start = -1
                for q in range(a, b):  # preorder: the first node above the leaf is highest
                    v = split_nodes[q]
                    if pre[v] > po:
                        break
                    if po < end[v]:
                        start = v
                        break
                if start < 0:
                    continue
                new = _descend(start, X[i], j, c, feature, threshold, left, right,
                               default_left, missing, f32, cat_lo, cat_hi, cats)
                if new == old:
                    continue
                changed[k] = True
                if g >= 0:
                    delta[k, i, g] += value[new, 0] - value[old, 0]
                else:
                    for q in range(delta.shape[2]):
                        delta[k, i, q] += value[new, q] - value[old, q]
