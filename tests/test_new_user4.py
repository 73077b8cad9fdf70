"""What a fresh user met on seaborn's titanic (2026-12-02): the leak warning from every entry
point, scikit-learn selectors on a table with text, duplicate names, clearer messages."""

import warnings

import numpy as np
import pandas as pd
import pytest

import featsieve
from featsieve import TargetLeakWarning


def _titanic_like(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"age": rng.normal(30, 10, n), "fare": rng.exponential(30, n),
                      "sex": rng.choice(["male", "female"], n)})
    X.loc[::9, "age"] = np.nan
    y = ((X["sex"] == "female") ^ (rng.random(n) < 0.2)).astype(int)
    X["alive"] = np.where(y == 1, "yes", "no")  # a consequence of the target
    return X, y


def test_every_selector_warns_of_a_column_that_gives_the_target():
    X, y = _titanic_like()
    for name in ("cc", "mi"):
        with pytest.warns(TargetLeakWarning, match="'alive' gives the target exactly"):
            featsieve.make_selector(name, task="classification").fit(X, y)
    # a numeric copy of a numeric target
    Xr = X.drop(columns="alive").assign(age2=X["fare"] * 2.0)
    with pytest.warns(TargetLeakWarning, match="'age2'"):
        featsieve.make_selector("cc", task="regression").fit(Xr, X["fare"])
    with warnings.catch_warnings():
        warnings.simplefilter("error", TargetLeakWarning)
        featsieve.make_selector("cc", task="classification").fit(X.drop(columns="alive"), y)


def test_compare_and_audit_carry_the_leak_in_their_notes_and_verdict():
    from featsieve.evaluation import audit_method

    X, y = _titanic_like()
    with pytest.warns(TargetLeakWarning):
        res = featsieve.compare(X, y, methods=["cc"], estimator="tree", n_repeats=2)
    assert res.notes[0].startswith("target leak? 'alive' gives the target exactly")
    assert any("target leak" in n for n in res.to_dict()["notes"])
    with pytest.warns(TargetLeakWarning):
        aud = audit_method("cc", X, y, estimator="tree", n_repeats=1, noise_features=0,
                           nested=False)
    assert aud.target_leaks == ["alive"]
    assert aud.verdict().startswith("Target leak? 'alive' gives the target exactly")
    assert aud.to_dict()["target_leaks"] == ["alive"]
    assert res.verdict().startswith("Target leak? 'alive'")


def test_a_scikit_learn_selector_reads_featsieves_encoding_of_a_table_with_text():
    from sklearn.feature_selection import SelectKBest

    X, y = _titanic_like()
    X = X.drop(columns="alive")
    res = featsieve.compare(X, y, methods=[SelectKBest(k=1), "cc"], estimator="tree",
                            n_repeats=2, random_state=0)
    assert res.failed == []
    # the encoded 'sex' column carries the target: SelectKBest finds it by its name
    assert res.supports["SelectKBest"].tolist() == [False, False, True]
    assert X["age"].isna().sum() == 34  # the caller's frame is untouched


def test_a_failed_method_has_a_row_in_to_frame_and_a_warning():
    X, y = _titanic_like()

    class Broken(featsieve.classic.UnivariateFilter):
        def _fit(self, X, y):
            raise RuntimeError("boom")

    with pytest.warns(featsieve.ProtocolWarning, match="1 method\\(s\\) failed"):
        res = featsieve.compare(X.drop(columns="alive"), y, methods=[Broken("cc"), "cc"],
                                estimator="tree", n_repeats=2)
    frame = res.to_frame()
    row = frame[frame["method"] == "Broken"].iloc[0]
    assert row["failed"] == "RuntimeError: boom" and pd.isna(row["test_mean"])


def test_duplicate_names_infinite_values_and_encodings_get_one_clear_line(tmp_path):
    X, y = _titanic_like()
    dup = X.drop(columns="alive").set_axis(["age", "age", "sex"], axis=1)
    with pytest.raises(ValueError, match="duplicate column names: 'age'; rename them"):
        featsieve.make_selector("cc", task="classification").fit(dup, y)
    with pytest.raises(ValueError, match="duplicate column names: 'age'"):
        featsieve.compare(dup, y, methods=["cc"], n_repeats=1)
    inf = X.drop(columns="alive").assign(fare=np.r_[np.inf, X["fare"].to_numpy()[1:]])
    with pytest.raises(ValueError, match="Column 'fare' holds infinite values.*Replace them with NaN"):
        featsieve.make_selector("cc", task="classification").fit(inf, y)
    from featsieve.io import load_data

    p = tmp_path / "colon.csv"
    p.write_text("a:b:survived\n1:2:0\n3:4:1\n")
    with pytest.raises(ValueError, match="is ':' the separator"):
        load_data(str(p), "survived")
    p2 = tmp_path / "latin.csv"
    p2.write_bytes("name,t\nJos\xe9,1\n".encode("latin-1"))
    with pytest.raises(ValueError, match="not UTF-8 text .*save it as UTF-8"):
        load_data(str(p2), "t")
