"""A comparison you can trust (issue 21): repeats, intervals, corrected tests, Holm,
stability, grouped and time-ordered splits, the user's metric, small tables."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import featsieve
from featsieve._registry import k_grid, use_k_grid
from featsieve.cli import main
from featsieve.evaluation import corrected_t, holm, nogueira_stability
from featsieve.models import make_model, resolve_metric
from featsieve.protocol import honest_split, inner_cv


# ------------------------------------------------------------- statistics
def test_stability_identical_selections_is_one():
    Z = np.array([[1, 0, 1, 0, 0]] * 4, bool)
    out = nogueira_stability(Z)
    assert out["stability"] == pytest.approx(1.0)
    assert out["variance"] == pytest.approx(0.0)
    np.testing.assert_allclose(out["frequency"], [1, 0, 1, 0, 0])


def test_stability_worked_matrix():
    # M=3, d=4, p=(1, 2/3, 1/3, 0), k=2 each: s_f^2 = 3/2 p(1-p) = (0, 1/3, 1/3, 0),
    # mean 1/6; (k/d)(1-k/d) = 1/4; stability = 1 - (1/6)/(1/4) = 1/3.
    # phi_i differ only by (Z_i . p)/d / (1/4) = 5/3, 4/3, 5/3: deviations (1, -2, 1)/9,
    # variance = 4/M^2 * 6/81 = 8/243.
    Z = [[1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 0]]
    out = nogueira_stability(Z)
    assert out["stability"] == pytest.approx(1 / 3)
    assert out["variance"] == pytest.approx(8 / 243)
    half = stats.norm.ppf(0.975) * np.sqrt(8 / 243)
    assert out["ci"] == pytest.approx([1 / 3 - half, 1 / 3 + half])


def test_stability_random_selections_near_zero():
    rng = np.random.default_rng(0)
    Z = np.zeros((200, 50), bool)
    for row in Z:
        row[rng.choice(50, 10, replace=False)] = True
    assert abs(nogueira_stability(Z)["stability"]) < 0.02


def test_stability_interval_stays_in_the_measures_range():
    # six repeats keep columns 0-4, one drops column 2: 0.9255 ± 0.088 reaches past 1
    Z = np.zeros((6, 9), bool)
    Z[:, :5] = True
    Z[1, 2] = False
    out = nogueira_stability(Z)
    assert out["stability"] == pytest.approx(0.9255172413793104)
    half = stats.norm.ppf(0.975) * np.sqrt(out["variance"])
    assert out["stability"] + half > 1  # the normal interval would leave the range
    assert out["ci"] == pytest.approx([out["stability"] - half, 1.0])
    assert out["note"] is None
    # the lower end stops at the estimator's bound -1/(M-1)
    Z = np.array([[1, 0], [0, 1], [1, 0], [0, 1]], bool)
    out = nogueira_stability(Z)
    assert out["stability"] == pytest.approx(-1 / 3)
    assert out["ci"][0] >= -1 / 3 - 1e-12 and out["ci"][1] <= 1


def test_stability_of_nearly_full_selections_is_undefined_with_a_note():
    # five repeats keep all 79 columns but one repeat drops one: the estimate was about
    # -0.01 with an interval of about ±1.1 - it says nothing, so there is none
    Z = np.ones((5, 79), bool)
    Z[0, 3] = False
    out = nogueira_stability(Z)
    assert out["stability"] is None and out["variance"] is None
    assert out["ci"] == [None, None]
    assert "all but fewer than one of the 79 columns on average (78.8 of 79)" in out["note"]
    Z = np.zeros((5, 79), bool)  # nearly empty selections: the same
    Z[0, 3] = True
    assert "fewer than one column on average (0.2 of 79)" in nogueira_stability(Z)["note"]
    # identical full selections keep their stability of 1 and no note
    full = nogueira_stability(np.ones((5, 79), bool))
    assert full["stability"] == 1.0 and full["note"] is None


def test_cli_shows_a_clipped_stability_interval_as_an_interval():
    from featsieve.cli import _stability_cell

    assert _stability_cell(0.9255, [0.8374, 1.0]) == "0.93 [0.84, 1.00]"
    assert _stability_cell(1 / 3, [1 / 3 - 0.2, 1 / 3 + 0.2]) == "0.33 ± 0.2"


def test_holm_known_values():
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, None, 0.01]) == [pytest.approx(0.5), None, pytest.approx(0.02)]
    assert holm([0.6, 0.9]) == pytest.approx([1.0, 1.0])


def test_corrected_t_hand_values():
    r = corrected_t([0.1, 0.2, 0.3], n_train=90, n_test=10)
    se = np.sqrt((1 / 3 + 10 / 90) * 0.01)
    assert r["mean"] == pytest.approx(0.2) and r["se"] == pytest.approx(se)
    assert r["p_value"] == pytest.approx(2 * stats.t.sf(0.2 / se, 2))
    q = stats.t.ppf(0.975, 2)
    assert r["ci"] == pytest.approx([0.2 - q * se, 0.2 + q * se])
    # wider than the naive t interval (overlapping training sets)
    naive = stats.t.interval(0.95, 2, loc=0.2, scale=stats.sem([0.1, 0.2, 0.3]))
    assert r["ci"][1] - r["ci"][0] > naive[1] - naive[0]
    assert corrected_t([0.0, 0.0], n_train=9, n_test=1)["p_value"] == 1.0
    # equal nonzero values (one test row in every repeat): no t; the sign test's 2^(1-J)
    assert corrected_t([-0.017, -0.017], n_train=90, n_test=10)["p_value"] == 0.5
    assert corrected_t([0.01] * 6, n_train=90, n_test=10)["p_value"] == pytest.approx(1 / 32)


# ------------------------------------------------------------- the k grid
def test_k_grid_reaches_small_selections():
    g = k_grid(300)
    assert g[:3] == [1, 2, 4] and g[-1] == 150
    assert {50, 60, 75, 150} <= set(g)  # seed 000's M/6, M/5, M/4, M/2
    with use_k_grid([3, 0.1, 999]):
        assert k_grid(300) == [3, 30, 300]
    assert k_grid(300) == g


# ------------------------------------------------------------- acceptance
def test_pure_noise_no_method_is_better():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 30))
    y = rng.integers(0, 2, 300)
    r = featsieve.compare(X, y, methods=["cc", "mi", "embedded", "rfe"], estimator="tree",
                          n_repeats=5, n_jobs=1)
    verdicts = {x["method"]: x["vs_all"] for x in r.rows}
    assert "better" not in verdicts.values()
    assert verdicts["all"] is None and r.rows[1]["method"] == "baseline"
    assert "No method is distinguishable from all features" in r.verdict()
    assert r.n_repeats == 5 and r.seeds == [0, 1, 2, 3, 4]


@pytest.fixture(scope="module")
def informative():
    rng = np.random.default_rng(0)
    n, d = 300, 305
    X = rng.normal(size=(n, d))
    y = (2.5 * X[:, :5] @ np.array([1.0, -1, 1, -1, 1]) + rng.logistic(size=n) > 0).astype(int)
    return pd.DataFrame(X, columns=[f"c{i}" for i in range(d)]), y


def test_informative_cc_is_better_and_stable(informative):
    X, y = informative
    r = featsieve.compare(X, y, methods=["cc"], estimator="logistic", n_repeats=5, n_jobs=1)
    row = {x["method"]: x for x in r.rows}["cc"]
    assert row["vs_all"] == "better" and row["p_value_adj"] < 0.05
    assert row["stability"] > 0.6
    assert row["stability_ci"][0] < row["stability"] < row["stability_ci"][1]
    for c in ("c0", "c1", "c2", "c3", "c4"):
        assert row["selection_frequency"][c] == 1.0
    assert row["selected"][:5] == ["c0", "c1", "c2", "c3", "c4"]
    assert row["diff_vs_all"] == pytest.approx(row["test_mean"] - r.rows[0]["test_mean"])
    assert row["test_score"] == row["test_mean"]
    assert len(row["test_scores"]) == 5 and row["n_selected_range"][0] >= 5
    text = r.verdict()
    assert "Better than all 305 columns" in text and "cc" in text
    assert "one standard error" in text


def _grouped_data(seed=0, n_groups=60, per_group=5, d=8):
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(n_groups, d)) * 3
    labels = rng.integers(0, 2, n_groups)
    g = np.repeat(np.arange(n_groups), per_group)
    X = centers[g] + 0.05 * rng.normal(size=(len(g), d))
    return X, labels[g], g


def test_groups_remove_the_optimism_of_near_duplicates():
    from sklearn.neighbors import KNeighborsClassifier

    X, y, g = _grouped_data()
    kw = dict(methods=["cc"], estimator=KNeighborsClassifier(n_neighbors=1), n_repeats=5,
              n_jobs=1)
    loose = featsieve.compare(X, y, **kw)
    grouped = featsieve.compare(X, y, groups=g, **kw)
    a, b = loose.rows[0], grouped.rows[0]  # all features
    assert a["test_mean"] > 0.95  # a test row's near-copy sits in the training part
    assert abs(b["test_mean"] - 0.5) < 0.1 and b["test_ci"][0] < 0.5 < b["test_ci"][1]
    assert "groups" in " ".join(grouped.notes)


def test_group_split_keeps_groups_whole_and_stratifies():
    X, y, g = _grouped_data(n_groups=80)
    s = honest_split(y, "classification", random_state=3, groups=g)
    parts = [s.train, s.selection_val, s.model_val, s.test]
    assert sorted(np.concatenate(parts).tolist()) == list(range(len(y)))
    owners = [set(g[p]) for p in parts]
    for i in range(4):
        for j in range(i + 1, 4):
            assert not owners[i] & owners[j]
    sizes = np.array([len(p) for p in parts]) / len(y)
    np.testing.assert_allclose(sizes, [0.45, 0.30, 0.10, 0.15], atol=0.05)
    folds = inner_cv("classification", 5, groups=g[s.fit], y=y[s.fit], random_state=0)
    for tr, va in folds:
        assert not set(g[s.fit][tr]) & set(g[s.fit][va])
    with pytest.raises(ValueError, match="groups"):
        honest_split(y[:40], "classification", groups=np.repeat([0, 1, 2], [14, 13, 13]))


def test_time_split_test_rows_are_later_than_training_rows():
    rng = np.random.default_rng(0)
    t = rng.integers(0, 60, 200)  # ties on purpose
    y = rng.integers(0, 2, 200)
    for window in (1.0, 0.8):
        s = honest_split(y, "classification", time=t, time_window=window)
        fit_rows = np.concatenate([s.train, s.selection_val])
        assert t[fit_rows].max() < t[s.model_val].min() <= t[s.model_val].max() < t[s.test].min()
        assert t[s.train].max() < t[s.selection_val].min()
    folds = inner_cv("classification", 5, time=True, y=np.zeros(100))
    for tr, va in folds:
        assert tr.max() < va.min()


def test_compare_time_column_is_not_a_feature(sonar):
    X, y = sonar
    X = X.assign(when=pd.date_range("2020-01-01", periods=len(X), freq="D")[::-1])
    r = featsieve.compare(X, y, methods=["cc"], estimator="tree", time="when", n_repeats=3,
                          n_jobs=1)
    assert r.n_features == 60 and r.params["time"] == "when"
    assert all("when" not in x["selection_frequency"] for x in r.rows)
    assert any("time-ordered" in n for n in r.notes)


def test_imbalanced_default_metric_and_no_empty_winner():
    rng = np.random.default_rng(0)
    n = 400
    X = rng.normal(size=(n, 20))
    y = (X[:, 0] + 0.5 * rng.normal(size=n) > 1.6).astype(int)  # about 6% positives
    assert 0.04 < y.mean() < 0.08
    assert resolve_metric(None, "classification", y).name == "balanced_accuracy"
    r = featsieve.compare(X, y, methods=["cc", "mi"], estimator="tree", n_repeats=3, n_jobs=1)
    assert r.metric == "balanced_accuracy" and "balanced accuracy" in r.notes[-1]
    base = {x["method"]: x for x in r.rows}["baseline"]
    assert base["test_mean"] == pytest.approx(0.5) and base["n_selected"] == 0
    assert r.best()["n_selected"] > 0 and r.best()["method"] != "baseline"
    assert all(x["n_selected_range"][0] > 0 for x in r.rows if x["method"] != "baseline")


@pytest.mark.parametrize("metric,shown,higher", [("roc_auc", "roc_auc", True),
                                                  ("neg_mean_absolute_error",
                                                   "mean_absolute_error", False)])
def test_cli_metric_end_to_end(tmp_path, capsys, metric, shown, higher):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 6))
    target = X[:, 0] + 0.3 * rng.normal(size=120)
    df = pd.DataFrame(X, columns=[f"f{i}" for i in range(6)])
    df["y"] = (target > 0).astype(int) if higher else target
    path, out = tmp_path / "d.csv", tmp_path / "r.json"
    df.to_csv(path, index=False)
    rc = main(["compare", str(path), "-t", "y", "-m", "cc", "--model", "tree", "--metric",
               metric, "--repeats", "2", "--n-jobs", "1", "--json", str(out), "-q"])
    assert rc == 0, capsys.readouterr().err
    d = json.loads(out.read_text())
    assert d["metric"] == shown and d["greater_is_better"] is higher
    assert d["params"]["scoring"] == metric and d["n_repeats"] == 2 and d["seeds"] == [0, 1]
    cc = d["results"][1]
    assert cc["method"] == "cc" and cc["test_mean"] == pytest.approx(np.mean(cc["test_scores"]))
    if higher:
        assert cc["test_mean"] > 0.8
    else:
        assert 0 < cc["test_mean"] < d["baseline"]["test_mean"]  # beats the mean


def test_unknown_metric_is_one_line(capsys):
    rc = main(["compare", "-m", "cc", "--metric", "acuracy", "-q"])
    err = capsys.readouterr().err
    assert rc == 2 and "acuracy" in err and len(err.strip().splitlines()) == 1


def test_small_tables_lightgbm_adapts_and_constant_models_name_no_best():
    from sklearn.dummy import DummyRegressor

    rng = np.random.default_rng(0)
    X = rng.normal(size=(32, 5))
    y = 3 * X[:, 0] + 0.1 * rng.normal(size=32)
    m = make_model("lightgbm", "regression", random_state=0, n_samples=24)
    assert m.get_params()["min_child_samples"] == 2
    assert np.ptp(m.fit(X[:24], y[:24]).predict(X[24:])) > 0  # not a constant
    r = featsieve.compare(X, y, methods=["cc"], estimator=DummyRegressor(), n_repeats=2,
                          n_jobs=1)
    assert r.rows[0]["constant_model"] == 2
    assert "no method is named best" in r.verdict()


def test_time_budget_stops_starting_repeats():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 4)), rng.integers(0, 2, 60)
    r = featsieve.compare(X, y, methods=["cc"], estimator="tree", n_repeats=4,
                          time_budget=1e-9, n_jobs=1)
    assert r.n_repeats == 1 and "1 of 4 repeats ran" in " ".join(r.notes)


def test_repeats_identical_for_any_n_jobs():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(80, 6)), rng.integers(0, 2, 80)
    kw = dict(methods=["cc", "forward"], estimator="tree", n_repeats=3)
    a, b = featsieve.compare(X, y, n_jobs=1, **kw), featsieve.compare(X, y, n_jobs=2, **kw)
    strip = ("seconds", "repeats")
    assert [{k: v for k, v in r.items() if k not in strip} for r in a.rows] == \
        [{k: v for k, v in r.items() if k not in strip} for r in b.rows]


def test_cli_table_has_intervals_verdict_and_stability(capsys):
    rc = main(["compare", "-m", "cc", "--model", "tree", "--repeats", "3", "--k-grid", "2,5",
               "--n-jobs", "1", "-q"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "3 repeats (seeds 0-2)" in out and "note: 3 repeats (asked for)" in out
    head = out.splitlines()[2]
    for h in ("test (95% CI)", "vs all (95% CI)", "p_adj", "verdict", "stability"):
        assert h in head
    cc = next(line for line in out.splitlines() if line.startswith("cc "))
    assert "±" in cc and ("k=2" in cc or "k=5" in cc)


def test_to_frame_columns():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 4)), rng.integers(0, 2, 60)
    r = featsieve.compare(X, y, methods=["cc"], estimator="tree", n_repeats=2, n_jobs=1)
    from featsieve.evaluation._compare import FRAME_COLUMNS

    assert list(r.to_frame().columns) == FRAME_COLUMNS
    d = r.to_dict()
    for k in ("test_mean", "test_ci", "test_scores", "diff_vs_all", "diff_ci", "p_value",
              "p_value_adj", "vs_all", "stability", "stability_ci", "selection_frequency",
              "n_selected_range", "test_score"):
        assert k in d["results"][1]
    assert d["n_repeats"] == 2 and d["seeds"] == [0, 1]
    json.dumps(d)


def test_cli_groups_and_time_columns_are_not_features(tmp_path, capsys):
    X, y, g = _grouped_data(n_groups=40, per_group=3, d=4)
    df = pd.DataFrame(X, columns=list("abcd")).assign(
        patient=[f"p{i}" for i in g], day=pd.date_range("2021-01-01", periods=len(g)).astype(str),
        label=y)
    path = tmp_path / "g.csv"
    df.to_csv(path, index=False)
    for opt, col, other in (("--groups", "patient", "day"), ("--time", "day", "patient")):
        out = tmp_path / f"{col}.json"
        rc = main(["compare", str(path), "-t", "label", "-m", "cc", "--model", "tree",
                   opt, col, "--drop", other, "--repeats", "2", "--n-jobs", "1", "--json",
                   str(out), "-q"])
        assert rc == 0, capsys.readouterr().err
        d = json.loads(out.read_text())
        assert d["n_features"] == 4 and d["params"][opt[2:]] == col
        assert set(d["results"][1]["selection_frequency"]) <= set("abcd")
    rc = main(["compare", str(path), "-t", "label", "--groups", "nope", "-q"])
    err = capsys.readouterr().err
    assert rc == 2 and "--groups: column 'nope' not found" in err


def test_tail_round_method_groups_partition_the_table_in_order():
    from featsieve._registry import get_method, resolve_methods
    from featsieve.evaluation._compare import _BASELINE_SPEC, ALL, _method_groups

    specs = [get_method(ALL), _BASELINE_SPEC, *resolve_methods(
        ["cc", "mi", "hsic-lasso", "mrmr", "embedded"], "classification")]
    groups = _method_groups(specs, 2, "classification", (120, 20_000), "lightgbm")
    assert len(groups) == 2
    names = [s.name for s in specs]
    assert sorted(s.name for g in groups for s in g) == sorted(names)  # each once
    for g in groups:  # table order inside a group
        assert [s.name for s in g] == [n for n in names if n in {s.name for s in g}]
    assert _method_groups(specs, 1, "classification", (120, 20_000), "lightgbm") == [specs]


def test_embedded_reads_the_all_rows_model_with_the_same_rows_as_its_own_fit(monkeypatch):
    """compare hands embedded the all row's model (same model, same rows): the same
    selections and scores as embedded fitting its own, one LightGBM fit fewer."""
    import dataclasses

    import featsieve._registry as registry

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 40))
    y = (X[:, 0] + X[:, 3] - X[:, 7] > 0).astype(int)

    def run():
        r = featsieve.compare(X, y, methods=["embedded"], n_repeats=3, n_jobs=1)
        row = next(x for x in r.rows if x["method"] == "embedded")
        return row["selection_frequency"], row["test_mean"], row["model_fits"], r.notes

    shared = run()
    spec = registry._REGISTRY["embedded"]
    monkeypatch.setitem(registry._REGISTRY, "embedded",
                        dataclasses.replace(spec, prefit_full_model=False))
    own = run()
    assert shared[:2] == own[:2] and {"x0", "x3", "x7"} <= set(shared[0])
    assert (shared[2], own[2]) == (0, 1)
    assert any(n.startswith("embedded: reads the all row's model") for n in shared[3])


def test_embedded_prefit_reads_the_given_model_and_checks_its_columns():
    from featsieve.classic import EmbeddedSelector
    from featsieve.models import make_model

    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 12))
    y = (X[:, 2] - X[:, 5] > 0).astype(int)
    model = make_model("lightgbm", "classification", random_state=0).fit(X, y)
    own = EmbeddedSelector(make_model("lightgbm", "classification", random_state=0)).fit(X, y)
    pre = EmbeddedSelector(model, prefit=True).fit(X, y)
    np.testing.assert_array_equal(pre.support_, own.support_)
    np.testing.assert_allclose(pre.scores_, own.scores_)
    assert pre.n_model_fits_ == 0 and own.n_model_fits_ == 1
    with pytest.raises(ValueError, match="fitted on the 11 columns"):
        EmbeddedSelector(model, prefit=True).fit(X[:, :11], y)


@pytest.mark.parametrize("counts,chance", [((90, 10), "0.5 for 2"), ((80, 10, 10), "0.3333 for 3"),
                                           ((70, 10, 10, 10), "0.25 for 4")])
def test_balanced_accuracy_note_gives_the_chance_level_of_the_classes(counts, chance):
    y = np.repeat(np.arange(len(counts)), counts)
    m = resolve_metric(None, "classification", y)
    assert m.name == "balanced_accuracy"
    assert m.reason.endswith(f"predicting the majority class scores 1/classes ({chance})")


def test_compare_notes_a_stability_it_cannot_give():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 20))
    y = (X[:, 0] + rng.normal(size=150) > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = featsieve.compare(X, y, methods=["cc"], estimator="tree", n_repeats=5,
                              k_grid=[19, 20], n_jobs=1)
    row = {x["method"]: x for x in r.rows}["cc"]
    assert row["n_selected_range"] == [19, 20]  # 19.2 of 20 kept on average
    assert row["stability"] is None and row["stability_ci"] == [None, None]
    assert "_stability_note" not in row
    assert any(n.startswith("cc: stability undefined: the selections keep all but fewer than "
                            "one of the 20 columns on average (19.2 of 20)") for n in r.notes)
