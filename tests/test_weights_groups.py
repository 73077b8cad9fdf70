"""sample_weight and groups, for every registered method (issue 15, item 5).

Every selector's ``fit`` either uses ``sample_weight`` (weights of 1 change
nothing; real weights change the answer the way they say) or raises an error
naming it. A method that splits its rows itself keeps each group on one side,
or raises an error naming ``groups``.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pandas as pd
import pytest

import featsieve
from featsieve.protocol import holdout_split
from test_robustness import METHODS, build


def _table(n=120, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 5)), columns=[f"x{j}" for j in range(5)])
    y = (X["x0"] + 0.5 * X["x1"] > 0).astype(int).to_numpy()
    return X, y


def _quiet_fit(sel, X, y, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sel.fit(X, y, **kw)


@pytest.mark.parametrize("name", METHODS)
def test_sample_weight_is_used_or_refused_by_name(name):
    X, y = _table()
    sel = build(name, "classification")
    try:
        _quiet_fit(sel, X, y, sample_weight=np.ones(len(y)))
    except (TypeError, ValueError) as exc:
        assert "sample_weight" in str(exc), (name, str(exc))
        return
    # weights of one are no weights: the same answer as an unweighted fit
    plain = _quiet_fit(build(name, "classification"), X, y)
    np.testing.assert_array_equal(sel.support_, plain.support_, err_msg=name)


@pytest.mark.parametrize("name", METHODS)
def test_groups_are_kept_apart_or_refused_by_name(name):
    X, y = _table()
    groups = np.repeat(np.arange(24), 5)
    sel = build(name, "classification")
    try:
        _quiet_fit(sel, X, y, groups=groups)
    except TypeError as exc:
        assert "groups" in str(exc), (name, str(exc))
        assert sel._splits_rows(), name  # only a method that splits may refuse
        return
    if "groups" not in inspect.signature(sel._fit).parameters:
        # no split: nothing to keep apart, the answer is the ungrouped one
        plain = _quiet_fit(build(name, "classification"), X, y)
        np.testing.assert_array_equal(sel.support_, plain.support_, err_msg=name)


WEIGHTED = ["cc", "purity", "gbmo", "flbmo", "embedded"]


@pytest.mark.parametrize("name", WEIGHTED)
def test_trusted_rows_decide_the_weighted_answer(name):
    # 80 trusted rows follow x0; the 320 unweighted others follow x1
    rng = np.random.default_rng(0)
    n = 400
    X = pd.DataFrame(rng.normal(size=(n, 3)), columns=["x0", "x1", "x2"])
    trusted = np.arange(n) < 80
    y = np.where(trusted, X["x0"] > 0, X["x1"] > 0).astype(int)
    w = np.where(trusted, 50.0, 1.0)
    k = 1 if name in ("cc", "purity") else None
    sel = featsieve.make_selector(name, task="classification", random_state=0,
                                  **({"n_features_to_select": k} if k else {}))
    if name == "embedded":  # the most important column (a deep tree uses both)
        first = [X.columns[np.argmin(_quiet_fit(sel, X, y, **kw).ranking_)]
                 for kw in ({}, {"sample_weight": w})]
        assert first == ["x1", "x0"], first
        return
    plain = set(_quiet_fit(sel, X, y).get_feature_names_out())
    weighted = set(_quiet_fit(sel, X, y, sample_weight=w).get_feature_names_out())
    assert "x1" in plain, (name, plain)  # the unweighted majority
    assert "x0" in weighted and "x1" not in weighted, (name, weighted)


def test_bad_weights_are_refused():
    X, y = _table()
    sel = featsieve.make_selector("cc", task="classification")
    for bad, match in ((np.ones(5), "one value per row"), (-np.ones(len(y)), "non-negative"),
                       (np.full(len(y), np.nan), "finite"), (np.zeros(len(y)), "zero")):
        with pytest.raises(ValueError, match=match):
            sel.fit(X, y, sample_weight=bad)
    with pytest.raises(TypeError, match="sample_weight"):
        featsieve.make_selector("mi", task="classification").fit(X, y,
                                                                 sample_weight=np.ones(len(y)))


def test_a_holdout_split_keeps_each_group_on_one_side():
    groups = np.repeat(np.arange(30), 4)
    y = np.tile([0, 1], 60)
    tr, va = holdout_split(len(y), y, 0.3, stratify=True, random_state=0, groups=groups)
    assert not set(groups[tr]) & set(groups[va])
    assert len(tr) + len(va) == len(y) and 0.2 < len(va) / len(y) < 0.4


@pytest.mark.parametrize("name", ["gbmo", "forward"])
def test_groups_hide_a_column_that_only_names_the_group(name):
    # 'leak' is one random value per group and the target is one class per group: split by
    # row, the model reads the class off 'leak' on the validation rows; split by group it
    # cannot (no validation row's group was trained on), and 'signal' is what helps
    rng = np.random.default_rng(1)
    n_groups, size = 60, 6
    groups = np.repeat(np.arange(n_groups), size)
    g_class = rng.integers(0, 2, n_groups)
    y = g_class[groups]
    X = pd.DataFrame({"leak": rng.normal(size=n_groups)[groups],
                      "signal": y + 0.8 * rng.normal(size=len(y)),
                      "noise": rng.normal(size=len(y))})
    sel = featsieve.make_selector(name, task="classification", random_state=0)
    by_row = set(_quiet_fit(sel, X, y).get_feature_names_out())
    by_group = set(_quiet_fit(sel, X, y, groups=groups).get_feature_names_out())
    assert "leak" in by_row, by_row
    assert "leak" not in by_group and "signal" in by_group, by_group
