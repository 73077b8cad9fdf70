"""The presorted CART kernel grows scikit-learn's Gini tree (featsieve._cart)."""

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from featsieve._cart import PresortedCART, supports
from featsieve.genetic import FASTENER, POSS


def _data(n, d, n_classes, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(np.float32)
    y = (X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(size=n) > 0).astype(int)
    y = y + rng.integers(0, n_classes - 1, n)
    return X, y


def _same_tree(ours, sk):
    t = sk.tree_
    assert ours.node_count == t.node_count
    split = t.feature >= 0
    np.testing.assert_array_equal(ours.feature >= 0, split)
    np.testing.assert_array_equal(ours.feature[split], t.feature[split])
    np.testing.assert_array_equal(ours.threshold[split], t.threshold[split])
    np.testing.assert_array_equal(ours.left[split], t.children_left[split])


@pytest.mark.parametrize("n_classes,leaf,depth,seed", [(2, 1, 3, 0), (5, 1, 3, 1), (8, 1, 4, 2),
                                                        (3, 50, 5, 3), (4, 20, 6, 5)])
def test_the_tree_is_scikit_learns_where_no_two_splits_tie(n_classes, leaf, depth, seed):
    # large nodes (a shallow tree, large leaves): no two candidate splits improve Gini
    # equally, so the trees (every split column and threshold, node for node) are the
    # same; deeper, near-pure nodes have exact ties, which either may break its own way
    X, y = _data(1500, 8, n_classes, seed)
    est = DecisionTreeClassifier(min_samples_leaf=leaf, max_depth=depth, random_state=0)
    cols = np.array([5, 0, 2, 1, 7])
    ours = PresortedCART(X, y, est).fit(cols)
    sk = DecisionTreeClassifier(min_samples_leaf=leaf, max_depth=depth,
                                random_state=0).fit(X[:, cols], y)
    _same_tree(ours, sk)
    Xv = _data(500, 8, n_classes, seed + 100)[0][:, cols]
    np.testing.assert_array_equal(ours.predict(Xv), sk.predict(Xv))


def test_a_fully_grown_tree_fits_distinct_rows_exactly_and_has_sklearns_size():
    X, y = _data(2000, 6, 4, 7)
    cols = np.arange(6)
    ours = PresortedCART(X, y, DecisionTreeClassifier()).fit(cols)
    sk = DecisionTreeClassifier(random_state=0).fit(X, y)
    assert (ours.predict(X) == y).all()
    # ties between equally good splits (small nodes) may take another column than
    # scikit-learn's random column order: sizes agree to a few nodes
    assert abs(ours.node_count - sk.tree_.node_count) <= 0.01 * sk.tree_.node_count


def test_hand_case_threshold_ties_and_labels():
    # one column: classes a a b b at 1 2 3 4 -> one split at the midpoint 2.5
    X = np.array([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]], dtype=np.float32)
    y = np.array(["a", "a", "b", "b"])
    tree = PresortedCART(X, y, DecisionTreeClassifier()).fit([1, 0])
    # both columns split perfectly: the first of the item's columns (here input column 1)
    assert tree.feature.tolist() == [0, -1, -1]
    assert tree.threshold[0] == 2.5
    assert tree.predict(np.array([[2.4, 9.0], [2.6, -9.0]])).tolist() == ["a", "b"]
    # a node whose values are all equal is a leaf; the majority (lowest label on a tie)
    Xc = np.ones((4, 1), dtype=np.float32)
    t2 = PresortedCART(Xc, np.array([1, 0, 0, 1]), DecisionTreeClassifier()).fit([0])
    assert t2.node_count == 1 and t2.predict(Xc).tolist() == [0, 0, 0, 0]


def test_supports_only_the_plain_gini_tree():
    assert supports(DecisionTreeClassifier())
    assert supports(DecisionTreeClassifier(max_depth=3, min_samples_leaf=2, random_state=5))
    assert not supports(DecisionTreeClassifier(criterion="entropy"))
    assert not supports(DecisionTreeClassifier(max_features="sqrt"))
    assert not supports(DecisionTreeClassifier(class_weight="balanced"))
    assert not supports(DecisionTreeClassifier(min_samples_leaf=0.1))
    with pytest.raises(ValueError, match="finite"):
        PresortedCART(np.array([[np.nan], [1.0]]), [0, 1], DecisionTreeClassifier())


@pytest.mark.parametrize("cls", [FASTENER, POSS])
def test_searches_grow_the_same_fronts_with_either_kernel_when_splits_never_tie(cls):
    X, y = _data(600, 10, 3, 11)
    tree = DecisionTreeClassifier(min_samples_leaf=30, random_state=0)
    kw = {"n_generations": 4, "random_state": 0}
    fast = cls(tree, **kw).fit(X, y)
    slow = cls(tree, tree_kernel=False, **kw).fit(X, y)
    assert (fast.tree_kernel_, slow.tree_kernel_) == ("presorted", "estimator")
    assert fast.pareto_front_[["size", "score", "bits"]].equals(
        slow.pareto_front_[["size", "score", "bits"]])
    np.testing.assert_array_equal(fast.support_, slow.support_)


def test_missing_values_or_regression_fit_the_estimator():
    X, y = _data(300, 5, 2, 3)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    assert FASTENER(n_generations=1, random_state=0).fit(Xn, y).tree_kernel_ == "estimator"
    yr = X[:, 0] + X[:, 1]
    assert FASTENER(n_generations=1, random_state=0).fit(X, yr).tree_kernel_ == "estimator"
    assert FASTENER(n_generations=1, random_state=0).fit(X, y).tree_kernel_ == "presorted"


def test_forward_selection_adds_the_same_columns_with_either_kernel():
    from featsieve.classic import ForwardSelector

    X = np.random.default_rng(21).normal(size=(500, 12))
    y = (X[:, 0] > 0).astype(int) + (X[:, 2] > 0.5)
    # shallow: no two splits tie, so both kernels grow the same trees
    tree = DecisionTreeClassifier(max_depth=2, random_state=0)
    runs = {k: ForwardSelector(tree, max_rounds=4, tol=None, tree_kernel=k, n_jobs=2,
                               random_state=0).fit(X, y) for k in (True, False)}
    assert runs[True].tree_kernel_ == "presorted"
    assert runs[False].tree_kernel_ == "estimator"
    for a, b in zip(runs[True].history_, runs[False].history_, strict=True):
        assert a["added"] == b["added"]
        assert a["score"] == pytest.approx(b["score"], abs=1e-12)
    # the informative columns 0 and 2 come first
    assert {h["added"] for h in runs[True].history_[:2]} == {"x0", "x2"}
