"""``featsieve reproduce gbmo``: the protocol pieces of seed 000 §4.2-4.3 (issue 3)."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.metrics import mean_squared_error

pytest.importorskip("lightgbm")

from featsieve.datasets import make_gbmo_synthetic  # noqa: E402
from featsieve.protocol import honest_split  # noqa: E402
from featsieve.reproduce import gbmo as rep  # noqa: E402


def test_pick_lowest_model_val_loss_then_fewest_features():
    a, b, c = (np.ones(3, bool) for _ in range(3))
    cands = [(0.5, 15, "mu=0.001", a, 1.0), (0.4, 12, "mu=0.01", b, 2.0),
             (0.4, 10, "mu=0.05", c, 3.0)]
    assert rep._pick(cands)[2] == "mu=0.05"  # exact tie at 0.4: fewer features
    assert rep._pick(cands[:2])[2] == "mu=0.01"
    assert rep._pick([(0.3, 20, "x", a, 0.0)] + cands)[2] == "x"  # lower loss beats size


def test_synthetic_grid_extends_table3():
    # every Table 3 value (but the no-op subsample) is still in the synthetic grid
    for k, v in rep.LGBM_GRID.items():
        if k != "subsample":
            assert set(v) <= set(rep.SYNTHETIC_GRID[k]), k
    for k, v in rep.SYNTHETIC_LGBM.items():  # quick mode's model is a point of that grid
        assert v in rep.SYNTHETIC_GRID[k], k


@pytest.fixture(scope="module")
def synthetic_seed0():
    X, y, support = make_gbmo_synthetic(random_state=0)
    rows, sel, split = rep._protocol(
        X, y, "regression", "lightgbm", 0, full=False, methods=("gbmo", "flbmo", "cc"),
        eta_grid=rep.SYNTHETIC_ETA, scale=False, model_params=rep.SYNTHETIC_LGBM,
        grid=rep.SYNTHETIC_GRID)
    return X, y, support, rows, sel, split


def test_gbmo_refits_on_train_the_others_on_train_and_selection_val(synthetic_seed0):
    X, y, _, rows, sel, split = synthetic_seed0
    assert rows["gbmo"]["refit_on"] == rows["flbmo"]["refit_on"] == "train"
    assert rows["cc"]["refit_on"] == rows["all"]["refit_on"] == "train+selection-val"
    # eq. (16): the model-val and test losses are those of a model refit on the 135 train rows
    m = rows["gbmo"]["support"]
    est = clone(sel.estimator).fit(X[split.train][:, m], y[split.train])
    assert len(split.train) == 135
    assert rows["gbmo"]["model_val_loss"] == pytest.approx(
        mean_squared_error(y[split.model_val], est.predict(X[split.model_val][:, m])), rel=1e-12)
    assert rows["gbmo"]["test_loss"] == pytest.approx(
        mean_squared_error(y[split.test], est.predict(X[split.test][:, m])), rel=1e-12)
    assert np.array_equal(split.train, honest_split(y, "regression", random_state=0).train)


def test_synthetic_seed0_gbmo_and_flbmo_find_the_ten(synthetic_seed0):
    _, _, support, rows, sel, _ = synthetic_seed0
    g = rows["gbmo"]["support"]
    assert rows["gbmo"]["tuned"] == "mu=0.05"
    assert (g[support].sum(), g[~support].sum()) == (10, 0)
    f10 = sel.support_at(n_features=10)
    assert np.array_equal(f10, support)
    # the mu grid is read off one path: larger mu never keeps more features
    sizes = [sel.support_at(slack=mu).sum() for mu in rep.MU_GRID]
    assert sizes == sorted(sizes, reverse=True)
