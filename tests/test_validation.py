import warnings

import numpy as np
import pandas as pd
import pytest

import featsieve._validation as validation
from featsieve import ConstantFeatureWarning, UnivariateFilter
from featsieve._validation import (
    constant_columns,
    detect_task,
    duplicate_columns,
    resolve_n_features,
    validate_X,
    validate_Xy,
)


def _df(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 4)), columns=["a", "b", "c", "d"])
    y = (X["a"] > 0).astype(int)
    return X, y


def test_nan_handled_and_counted():
    X, y = _df()
    X.loc[3, "c"] = np.nan
    sel = UnivariateFilter("cc").fit(X, y)
    assert sel.columns_.n_missing.tolist() == [0, 0, 1, 0]
    with pytest.raises(ValueError, match="'c'"):
        validate_X(X, allow_nan=False)


def test_text_column_is_categorical():
    X, y = _df()
    X["city"] = np.where(X["a"] > 0, "x", "z")
    sel = UnivariateFilter("cc", n_features_to_select=1).fit(X, y)
    assert sel.columns_.kinds[-1] == "categorical"
    assert sel.scores_[-1] == pytest.approx(1.0)  # Cramér's V of a copy of the class


def test_single_class_rejected():
    X, _ = _df()
    with pytest.raises(ValueError, match="only one class"):
        UnivariateFilter("cc", task="classification").fit(X, np.zeros(len(X)))


def test_constant_column_warned_and_never_selected():
    X, y = _df()
    X["b"] = 1.0 + np.where(np.arange(len(X)) % 2, np.finfo(float).eps, 0.0)  # differs in last bit
    with pytest.warns(ConstantFeatureWarning, match="'b'"):
        sel = UnivariateFilter("cc", n_features_to_select=4).fit(X, y)
    assert not sel.support_[1]
    assert sel.n_features_selected_ == 3
    assert np.isfinite(sel.scores_).all()
    assert sel.ranking_[1] == 4


def test_constant_columns_kinds():
    X = np.column_stack([np.full(5, 3), np.full(5, np.nan), np.arange(5.0), 1e-300 * np.arange(5)])
    np.testing.assert_array_equal(constant_columns(X), [True, True, False, False])


def test_task_detection():
    assert detect_task(np.array(["a", "b", "a"])) == "classification"
    assert detect_task(np.array([0, 1, 1, 0])) == "classification"
    assert detect_task(np.linspace(0, 1, 50)) == "regression"
    assert detect_task(np.array([0, 1, 1, 0]), "regression") == "regression"


def test_a_target_of_numbers_written_as_text_is_numbers():
    from featsieve import DataWarning
    from featsieve._validation import encode_target

    prices = [f"${v:,}" for v in (215000, 105000, 172000, *range(100000, 127000, 1000))]
    y = pd.Series(prices, name="SalePrice")
    assert detect_task(y) == "regression"  # 30 distinct whole numbers: a quantity
    with pytest.warns(DataWarning, match="'SalePrice' holds numbers written as text"):
        values, classes = encode_target(y, "regression")
    assert classes is None and values[:3].tolist() == [215000.0, 105000.0, 172000.0]
    assert y[0] == "$215,000"  # the caller's target is not modified
    # European marks: "1.234,5"; one value that is no number keeps the target text (labels)
    assert encode_target(np.array(["1.234,5", "2,25", "3"] * 4, dtype=object),
                         "regression")[0][:3].tolist() == [1234.5, 2.25, 3.0]
    assert detect_task(np.array(["$1,000", "$2,000", "unknown"] * 4, dtype=object)) \
        == "classification"
    assert detect_task(np.array(["3", "4", "3"] * 4, dtype=object)) == "classification"


def test_a_target_of_plain_numbers_among_blank_cells_is_numbers_with_rows_left_out():
    # Telco's TotalCharges: plain numbers as text, " " where a customer has no charges yet
    from featsieve import DataWarning
    from featsieve._validation import MissingTargetWarning, validate_Xy

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"tenure": rng.integers(1, 72, 60).astype(float)})
    charges = (X["tenure"] * 64.8 + rng.normal(0, 30, 60)).round(2).astype(str).astype(object)
    charges[[3, 17]] = " "
    y = pd.Series(charges, name="TotalCharges")
    with pytest.warns(DataWarning, match=r"read as numbers \(blank cells read as missing\)"), \
            pytest.warns(MissingTargetWarning, match="missing on 2 of 60 rows"):
        data = validate_Xy(X, y)
    assert data.task == "regression" and data.y.shape == (58,)
    assert data.y[0] == float(charges[0])
    assert detect_task(y) == "regression"
    # asked for classes, the text stays labels (here: one per row, refused by name)
    with pytest.raises(ValueError, match="Too few rows in class"):
        validate_Xy(X, y, task="classification")


def test_mostly_numbers_read_as_categories_is_said_with_the_fix():
    from featsieve._validation import ColumnKindWarning, describe_columns

    hp = np.round(np.linspace(50, 250, 100), 1).astype(str).astype(object)
    hp[:10], hp[10:12] = "unknown", "n/a"  # 10 % words: over the 5 % read as missing
    ticket = np.array(["A/5 1"] * 30 + [str(i) for i in range(70)], dtype=object)  # 70 %
    X = pd.DataFrame({"hp": hp, "ticket": ticket})
    with pytest.warns(ColumnKindWarning) as rec:
        d = describe_columns(X)
    assert list(d.kinds) == ["categorical", "categorical"]
    said = [str(w.message) for w in rec]
    assert said == ["'hp' is mostly numbers (90% of its rows), read as categories for the words "
                    "on 10%: 'unknown' (10 rows). Pass numeric=[...] (CLI: --numeric COL) to "
                    "read such a column as numbers (the words become missing values)."]
    assert describe_columns(X, numeric=["hp"]).kinds[0] == "numeric"


def test_n_features_policy():
    assert resolve_n_features(3, 10) == 3
    assert resolve_n_features(0.25, 10) == 2  # round(2.5) -> 2 (banker's), at least 1
    assert resolve_n_features(None, 10) == 5
    with pytest.warns(UserWarning, match="larger than the 10"):
        assert resolve_n_features(12, 10) == 10
    for bad in (0, -1, 1.5, "3"):
        with pytest.raises(ValueError, match="n_features_to_select"):
            resolve_n_features(bad, 10)


def test_length_mismatch():
    X, y = _df()
    with pytest.raises(ValueError, match="same length"):
        UnivariateFilter("cc").fit(X, y[:-1])


def test_pandas_positions_align_not_index_labels():
    X, y = _df()
    X.index = X.index[::-1]  # labels reversed, positions unchanged
    a = UnivariateFilter("cc", n_features_to_select=1).fit(X, y.to_numpy())
    assert list(a.get_feature_names_out()) == ["a"]


def test_no_warning_on_clean_data():
    X, y = _df()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        UnivariateFilter("cc", n_features_to_select=2).fit(X, y)


def test_float32_kept_only_when_asked():
    X32 = np.random.default_rng(0).normal(size=(20, 3)).astype(np.float32)
    assert validate_X(X32).dtype == np.float64
    kept = validate_X(X32, dtype=(np.float64, np.float32))
    assert kept.dtype == np.float32 and np.shares_memory(kept, X32)  # no copy at all
    assert validate_X(X32.astype(int), dtype=(np.float64, np.float32)).dtype == np.float64
    df = pd.DataFrame(X32, columns=list("abc"))
    assert validate_X(df, dtype=(np.float64, np.float32)).dtype == np.float32
    df["d"] = 1.0  # a float64 column: the table becomes float64
    assert validate_X(df, dtype=(np.float64, np.float32)).dtype == np.float64
    data = validate_Xy(X32, np.arange(20) % 2, dtype=(np.float64, np.float32))
    assert data.X.dtype == np.float32


def test_column_block_scans_match_whole_table(monkeypatch):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 9))
    X[:, 3] = 2.0
    X[:, 5] = X[:, 1]
    X[:, 7] = X[:, 1]
    X[4, 8] = np.nan
    X[:, 6] = X[:, 8]
    X[:, 2] = np.inf
    whole_c, whole_d = constant_columns(X), duplicate_columns(X)
    np.testing.assert_array_equal(whole_d, [0, 1, 2, 3, 4, 1, 6, 1, 6])
    monkeypatch.setattr(validation, "_BLOCK_BYTES", 8 * 50 * 2)  # two columns a block
    np.testing.assert_array_equal(constant_columns(X), whole_c)
    np.testing.assert_array_equal(constant_columns(X.astype(np.float32)), whole_c)
    np.testing.assert_array_equal(duplicate_columns(X), whole_d)
    np.testing.assert_array_equal(duplicate_columns(np.asfortranarray(X)), whole_d)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, bool])
def test_duplicate_columns_equals_the_pairwise_definition(dtype, monkeypatch):
    """First equal earlier column (NaN equal to NaN, same kind), across fingerprint blocks."""
    import featsieve._validation as v

    rng = np.random.default_rng(3)
    X = rng.integers(0, 3, size=(30, 60)).astype(dtype)
    X[:, 10] = X[:, 3]
    X[:, 20] = X[:, 3]
    X[:, 41] = X[:, 40]
    if X.dtype.kind == "f":
        X[4, 7] = np.nan
        X[:, 8] = X[:, 7]
        X[:, 50] = X[:, 51] = 0.0
    kinds = np.where(np.arange(60) % 7 == 0, "categorical", "number")
    real = v._column_fingerprints
    monkeypatch.setattr(v, "_column_fingerprints",  # blocks of 3 columns: many blocks
                        lambda X: real(X, block_bytes=3 * 8 * X.shape[0]))

    def same(i, j):
        a, b = X[:, i], X[:, j]
        return kinds[i] == kinds[j] and bool(np.all((a == b) | (a != a) & (b != b)))

    expected = [next(i for i in range(j + 1) if same(i, j)) for j in range(60)]
    np.testing.assert_array_equal(v.duplicate_columns(X, kinds), expected)
    assert sum(e != j for j, e in enumerate(expected)) >= 3



@pytest.mark.parametrize("value,kind", [
    ([1, 2], "list"), (np.array([1, 2]), "ndarray"), ((1, 2), "tuple"), ({"a": 1}, "dict"),
    ({1, 2}, "set"), (frozenset({1}), "frozenset"),
])
def test_a_column_of_containers_is_refused_by_name(value, kind):
    X, y = _df()
    X["box"] = pd.Series([value] * len(X), dtype=object)
    X.loc[0, "box"] = "text"  # a mix of a container and plain values is refused as well
    before = X.copy()
    with pytest.raises(validation.ColumnValueError, match=f"Column 'box' holds {kind} values"):
        UnivariateFilter("cc").fit(X, y)
    with pytest.raises(ValueError, match="'box'"):  # also a ValueError: the CLI exits with 2
        validation.describe_columns(X)
    with pytest.raises(TypeError, match="'box'"):
        validation.describe_columns(X)
    pd.testing.assert_frame_equal(X, before)


def test_column_messages_agree_with_one_or_several_columns():
    X, y = _df(n=60)
    one = X.assign(**{"Unnamed: 0": np.arange(60)})
    with pytest.warns(validation.ColumnKindWarning) as rec:
        validation.describe_columns(one)
    msg = next(str(w.message) for w in rec if "ID-like" in str(w.message))
    assert msg.startswith("Column 'Unnamed: 0' is ID-like (")
    assert "and is left out of the selection" in msg and "Name it in numeric=" in msg
    two = one.assign(id=np.arange(60) + 100)
    with pytest.warns(validation.ColumnKindWarning) as rec:
        validation.describe_columns(two)
    msg = next(str(w.message) for w in rec if "ID-like" in str(w.message))
    assert msg.startswith("Columns 'Unnamed: 0', 'id' are ID-like (")
    assert "and are left out of the selection" in msg and "Name one in numeric=" in msg
    with pytest.raises(ValueError, match=r"^Column 'a' has values beyond ±1e38"):
        validate_X(X.assign(a=1e39))
    with pytest.raises(ValueError, match=r"^Columns 'a', 'b' hold infinite values"):
        validate_X(X.assign(a=np.inf, b=-np.inf))
    with pytest.raises(ValueError, match=r"^Column 'a' is named in both categorical and numeric"):
        validation.describe_columns(X, categorical=["a"], numeric=["a"])
