"""scikit-learn's estimator checks over every selector in the registry.

A method added to the registry later is checked without new code. Each selector
is built with small, fast parameters (``CHECK_PARAMS``) and ``task="auto"`` so
that the checks' classification and regression targets both work.
"""

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

import featsieve

# fast settings per method for the checks (the checks fit many times)
CHECK_PARAMS = {
    "forward": {"max_rounds": 2},
    "rfecv": {"cv": 3},
}

# (method, check name) -> reason; the goal is an empty table
EXPECTED_FAILURES: dict = {}


def _instances():
    out = []
    for name in featsieve.methods():
        sel = featsieve.make_selector(name, task="classification", random_state=0)
        if sel is None:
            continue
        params = sel.get_params()
        updates = {k: v for k, v in CHECK_PARAMS.get(name, {}).items() if k in params}
        if "task" in params:
            updates["task"] = "auto"
        if "estimator" in params:
            updates["estimator"] = None
        sel.set_params(**updates)
        out.append(sel)
    return out


def _expected_failed_checks(estimator):
    return {c: r for (m, c), r in EXPECTED_FAILURES.items() if m == type(estimator).__name__}


@parametrize_with_checks(_instances(), expected_failed_checks=_expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_every_registered_method_is_checked():
    names = [n for n in featsieve.methods() if n != "all"]
    assert len(_instances()) == len(names)
