"""A CART classifier on presorted columns, for searches that fit many trees on one table.

FASTENER and POSS (seed ``001_*.txt`` §5.1: "a decision tree ... the Gini impurity", fully
grown) and DT-forward (§5.4, Table 4) fit a fresh tree on some columns of the same
training rows thousands of times. scikit-learn's ``DecisionTreeClassifier`` sorts every
column's values again at every node and evaluates the Gini impurity in O(n_classes) at
every candidate threshold. :class:`PresortedCART` argsorts each training column once,
when the table is bound; a fit then

- takes its columns' sorted row orders (no sorting),
- at every node scans each column's rows once, in value order, updating the sums of
  squared class counts of the two sides in O(1) per row (the Gini proxy
  ``sum_k L_k^2 / n_L + sum_k R_k^2 / n_R`` that scikit-learn maximizes too),
- and stably partitions every column's order into the two children.

Work per level of the tree is O(rows x columns), against scikit-learn's
O(rows x columns x (log rows + classes)).

The tree grown is scikit-learn's: the same candidate thresholds (midpoints between
consecutive distinct values, values closer than 1e-7 counted as equal, the threshold
``a / 2 + b / 2`` in float64 on float32 values), the same criterion, the same stopping
rules (a pure node, ``min_samples_split``, ``min_samples_leaf``, ``max_depth``) and the
same prediction (the majority class of the leaf, the lowest class on a tie). One
difference, stated: where two splits improve the Gini impurity by exactly the same
amount, scikit-learn keeps the first in a random order of the columns drawn from its
``random_state``; here the first in the item's column order, then the lowest threshold
(so the tree does not depend on ``random_state``). On continuous columns such ties are
rare and the trees, hence the predictions, are the same (tested); on a few distinct
values they can differ in which of two equally good splits is taken.

Used automatically for a plain ``DecisionTreeClassifier`` (see :func:`supports`) on a
table with no missing value; anything else goes through the estimator as before.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from sklearn.base import BaseEstimator, ClassifierMixin

__all__ = ["GrownTree", "PresortedCART", "supports"]

_FEATURE_THRESHOLD = 1e-7  # scikit-learn's tree: values closer than this are one value


def supports(estimator) -> bool:
    """Whether ``estimator`` grows the tree this kernel grows.

    A ``sklearn.tree.DecisionTreeClassifier`` (the class itself, not a subclass) with
    ``criterion="gini"``, ``splitter="best"``, every column considered
    (``max_features=None``), integer ``min_samples_split``/``min_samples_leaf``, and no
    ``class_weight``, ``max_leaf_nodes``, ``min_weight_fraction_leaf``,
    ``min_impurity_decrease``, ``ccp_alpha`` or ``monotonic_cst``.
    """
    from sklearn.tree import DecisionTreeClassifier

    if type(estimator) is not DecisionTreeClassifier:
        return False
    p = estimator.get_params()
    return (p["criterion"] == "gini" and p["splitter"] == "best" and p["max_features"] is None
            and p["class_weight"] is None and p["max_leaf_nodes"] is None
            and p["min_weight_fraction_leaf"] == 0 and p["min_impurity_decrease"] == 0
            and p["ccp_alpha"] == 0 and p.get("monotonic_cst") is None
            and isinstance(p["min_samples_split"], (int, np.integer))
            and isinstance(p["min_samples_leaf"], (int, np.integer))
            and (p["max_depth"] is None or isinstance(p["max_depth"], (int, np.integer))))


class PresortedCART:
    """Training rows bound once; :meth:`fit` grows a tree on any subset of their columns.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Training rows; kept as float32, column-major (the values scikit-learn's tree
        compares). No missing values.
    y : ndarray of shape (n_samples,)
        Class labels.
    estimator : DecisionTreeClassifier
        Its ``max_depth``, ``min_samples_split`` and ``min_samples_leaf`` are used
        (:func:`supports` must hold).

    Notes
    -----
    Memory: the table (4 bytes per cell) and its sorted orders (4 bytes per cell), once;
    per fit, 8 bytes per cell of the item's columns and a node table of at most
    ``2 * n_samples`` nodes. Fits of different items may run in threads (the kernel
    releases the GIL).

    Raises
    ------
    ValueError
        ``X`` holds NaN or infinity, or ``estimator`` is not supported.
    """

    def __init__(self, X, y, estimator):
        if not supports(estimator):
            raise ValueError("PresortedCART grows only a plain Gini DecisionTreeClassifier.")
        self.X = np.asfortranarray(X, dtype=np.float32)
        if not np.isfinite(self.X).all():
            raise ValueError("PresortedCART needs finite values (no NaN or infinity).")
        self.classes_, codes = np.unique(np.asarray(y), return_inverse=True)
        self.y = codes.astype(np.int32)
        self.n_classes = len(self.classes_)
        n, d = self.X.shape
        self.order = np.empty((n, d), dtype=np.int32, order="F")
        step = max(1, (1 << 22) // max(n, 1))  # blocks of columns: ~32 MB of int64 indices
        for lo in range(0, d, step):
            self.order[:, lo:lo + step] = np.argsort(self.X[:, lo:lo + step], axis=0,
                                                     kind="stable")
        p = estimator.get_params()
        self.max_depth = -1 if p["max_depth"] is None else int(p["max_depth"])
        self.min_samples_split = max(int(p["min_samples_split"]), 2)
        self.min_samples_leaf = max(int(p["min_samples_leaf"]), 1)

    def fit(self, columns) -> GrownTree:
        """A tree grown on ``X[:, columns]``; it predicts from arrays holding those
        columns, in that order."""
        cols = np.ascontiguousarray(columns, dtype=np.int64)
        if cols.size == 0:
            raise ValueError("An item needs at least one column.")
        feat, thr, left, right, leaf = _grow(
            self.X, self.order, cols, self.y, self.n_classes, self.min_samples_split,
            self.min_samples_leaf, self.max_depth)
        return GrownTree(feat, thr, left, right, leaf, self.classes_)


class GrownTree(ClassifierMixin, BaseEstimator):
    """A tree grown by :meth:`PresortedCART.fit`: node arrays and ``predict``.

    A scikit-learn classifier for scorers and ``predict``; it is not refit
    (``fit`` is not defined: trees are grown by :class:`PresortedCART`).

    Parameters
    ----------
    feature : ndarray of int32, shape (n_nodes,)
        Split column (an index into the item's columns), -1 at leaves.
    threshold : ndarray of float64, shape (n_nodes,)
        Rows with ``float32(x) <= threshold`` go left.
    left, right : ndarray of int32, shape (n_nodes,)
        Children, -1 at leaves.
    leaf_class : ndarray of int32, shape (n_nodes,)
        Majority class code of the node's training rows.
    classes : ndarray, shape (n_classes,)
        Class labels, indexed by the codes.
    """

    def __init__(self, feature, threshold, left, right, leaf_class, classes):
        self.feature, self.threshold = feature, threshold
        self.left, self.right, self.leaf_class = left, right, leaf_class
        self.classes = classes
        self.classes_ = classes

    @property
    def node_count(self) -> int:
        return len(self.feature)

    def predict(self, X) -> np.ndarray:
        """Class of every row of ``X``, shape ``(n_rows, n_item_columns)``: the
        item's columns in the order :meth:`PresortedCART.fit` got them."""
        X = np.asarray(X)
        if X.dtype != np.float32:
            X = X.astype(np.float32)  # the comparisons scikit-learn's tree makes
        return self.classes_[_descend(X, self.feature, self.threshold, self.left, self.right,
                                      self.leaf_class)]


@njit(cache=True, nogil=True)
def _descend(X, feature, threshold, left, right, leaf_class):  # pragma: no cover - numba
    n = X.shape[0]
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        node = 0
        while left[node] >= 0:
            if np.float64(X[i, feature[node]]) <= threshold[node]:
                node = left[node]
            else:
                node = right[node]
        out[i] = leaf_class[node]
    return out


@njit(cache=True, nogil=True)
def _grow(X, order, cols, y, n_classes, min_split, min_leaf, max_depth):  # pragma: no cover
    n = order.shape[0]
    m = cols.shape[0]
    # each column's rows in value order; a node's rows are one segment [start, end) of
    # every column's list
    idx = np.empty((m, n), dtype=np.int32)
    val = np.empty((m, n), dtype=np.float32)
    for f in range(m):
        c = cols[f]
        for k in range(n):
            r = order[k, c]
            idx[f, k] = r
            val[f, k] = X[r, c]
    goes_left = np.zeros(n, dtype=np.uint8)
    tmp_i = np.empty(n, dtype=np.int32)
    tmp_v = np.empty(n, dtype=np.float32)
    cap = 2 * n + 1
    feature = np.full(cap, -1, dtype=np.int32)
    threshold = np.zeros(cap, dtype=np.float64)
    left = np.full(cap, -1, dtype=np.int32)
    right = np.full(cap, -1, dtype=np.int32)
    leaf_class = np.zeros(cap, dtype=np.int32)
    counts = np.zeros(n_classes, dtype=np.int64)
    count_left = np.zeros(n_classes, dtype=np.int64)
    # depth-first, left child first; a node's id is given when it is taken off the
    # stack (scikit-learn's node order)
    st_parent = np.empty(n + 2, dtype=np.int64)
    st_left = np.empty(n + 2, dtype=np.uint8)
    st_start = np.empty(n + 2, dtype=np.int64)
    st_end = np.empty(n + 2, dtype=np.int64)
    st_depth = np.empty(n + 2, dtype=np.int64)
    st_parent[0], st_left[0], st_start[0], st_end[0], st_depth[0] = -1, 0, 0, n, 0
    top = 1
    n_nodes = 0
    while top > 0:
        top -= 1
        start, end, depth = st_start[top], st_end[top], st_depth[top]
        node = n_nodes
        n_nodes += 1
        parent = st_parent[top]
        if parent >= 0:
            if st_left[top]:
                left[parent] = node
            else:
                right[parent] = node
        nn = end - start
        counts[:] = 0
        ix0 = idx[0]
        for k in range(start, end):
            counts[y[ix0[k]]] += 1
        sumsq = 0
        best_c = 0
        for c in range(n_classes):
            sumsq += counts[c] * counts[c]
            if counts[c] > counts[best_c]:
                best_c = c
        leaf_class[node] = best_c
        if (nn < min_split or nn < 2 * min_leaf or sumsq == nn * nn
                or (max_depth >= 0 and depth >= max_depth)):
            continue
        best_proxy = -np.inf
        best_f = -1
        best_pos = -1
        for f in range(m):
            v = val[f]
            ix = idx[f]
            if v[end - 1] <= v[start] + _FEATURE_THRESHOLD:
                continue  # constant in this node
            s_left = 0
            s_right = sumsq
            n_left = 0
            for k in range(start, end - 1):
                c = y[ix[k]]
                cl = count_left[c]
                cr = counts[c] - cl
                s_left += 2 * cl + 1
                s_right -= 2 * cr - 1
                count_left[c] = cl + 1
                n_left += 1
                if v[k + 1] > v[k] + _FEATURE_THRESHOLD:
                    n_right = nn - n_left
                    if n_left >= min_leaf and n_right >= min_leaf:
                        proxy = s_left / n_left + s_right / n_right
                        if proxy > best_proxy:
                            best_proxy = proxy
                            best_f = f
                            best_pos = k + 1
            for k in range(start, end - 1):
                count_left[y[ix[k]]] = 0
        if best_f < 0:
            continue  # every column constant here: a leaf
        a = np.float64(val[best_f, best_pos - 1])
        b = np.float64(val[best_f, best_pos])
        t = a / 2.0 + b / 2.0
        if t == b or np.isinf(t):
            t = a
        feature[node] = best_f
        threshold[node] = t
        # rows of the left child, then every other column's segment stably partitioned
        ixb = idx[best_f]
        for k in range(start, best_pos):
            goes_left[ixb[k]] = 1
        for k in range(best_pos, end):
            goes_left[ixb[k]] = 0
        for f in range(m):
            if f == best_f:
                continue
            ix = idx[f]
            v = val[f]
            nl = start
            nr = 0
            for k in range(start, end):
                r = ix[k]
                if goes_left[r]:
                    ix[nl] = r
                    v[nl] = v[k]
                    nl += 1
                else:
                    tmp_i[nr] = r
                    tmp_v[nr] = v[k]
                    nr += 1
            for k in range(nr):
                ix[nl + k] = tmp_i[k]
                v[nl + k] = tmp_v[k]
        st_parent[top], st_left[top] = node, 0
        st_start[top], st_end[top], st_depth[top] = best_pos, end, depth + 1
        top += 1
        st_parent[top], st_left[top] = node, 1
        st_start[top], st_end[top], st_depth[top] = start, best_pos, depth + 1
        top += 1
    return (feature[:n_nodes].copy(), threshold[:n_nodes].copy(), left[:n_nodes].copy(),
            right[:n_nodes].copy(), leaf_class[:n_nodes].copy())
