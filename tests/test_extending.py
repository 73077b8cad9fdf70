"""docs/extending.md: a third-party selector in one row reaches every front end and suite."""

from __future__ import annotations

import pathlib
import re
import sys
import types
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.utils.estimator_checks import check_estimator

import featsieve
from featsieve._registry import _REGISTRY

DOC = pathlib.Path(__file__).resolve().parents[1] / "docs" / "extending.md"


@pytest.fixture
def variance_method():
    code = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S).group(1)
    module = types.ModuleType("extending_example")  # a real module: the class pickles
    sys.modules[module.__name__] = module
    exec(compile(code, str(DOC), "exec"), module.__dict__)
    try:
        yield module.VarianceRanker
    finally:
        _REGISTRY.pop("variance", None)
        sys.modules.pop(module.__name__, None)


def _table(seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(120, 6)) * [1, 1, 1, 1, 1, 10], columns=list("abcdef"))
    y = np.where(X["a"] + X["b"] > 0, "yes", "no")
    return X, y


def test_the_worked_example_is_one_row_seen_everywhere(variance_method, tmp_path):
    assert "variance" in featsieve.methods()
    X, y = _table()
    # compare: a row, tuned on model-val over the row's grid
    res = featsieve.compare(X, y, methods=["variance"], estimator="tree", n_repeats=1)
    row = next(r for r in res.rows if r["method"] == "variance")
    assert row["tuned"] in {"k=1", "k=2", "k=3"}
    assert row["selected"][0] == "f"  # the largest variance by construction
    # select (CLI)
    data = tmp_path / "t.csv"
    X.assign(label=y).to_csv(data, index=False)
    from featsieve.cli import main

    rc = main(["select", str(data), "--target", "label", "--method", "variance", "-k", "1",
               "-q", "-o", str(tmp_path / "r.csv")])
    assert rc == 0
    assert list(pd.read_csv(tmp_path / "r.csv").columns) == ["f", "label"]
    # audit
    audit = featsieve.evaluation.audit_method("variance", X, y, estimator="tree",
                                              noise_features=40, k_values=(2,), n_repeats=2,
                                              cv=3)
    assert audit.noise is not None
    # scikit-learn's estimator checks
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_estimator(featsieve.make_selector("variance", task="classification"))


def test_the_bad_input_suite_covers_a_registered_method(variance_method):
    import test_robustness as robustness

    ran = 0
    for cid in robustness.CASE_IDS:
        if (cid, "variance") in robustness.NOT_APPLICABLE:
            continue
        getattr(robustness, f"case_{cid}")("variance")
        ran += 1
    assert ran >= 15
