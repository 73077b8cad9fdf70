import numpy as np
import pytest

from featsieve import datasets


@pytest.mark.parametrize("loader,shape,n_classes", [
    (datasets.load_sonar, (208, 60), 2),
    (datasets.load_spectf, (267, 44), 2),
    (datasets.load_ionosphere, (351, 34), 2),
    (datasets.load_german_numeric, (1000, 24), 2),
    (datasets.load_musk1, (476, 166), 2),
])
def test_bundled_classification_sets(loader, shape, n_classes):
    b = loader()
    assert b.data.shape == shape
    assert b.target.nunique() == n_classes
    assert list(b.feature_names) == list(b.data.columns)
    assert "UCI" in b.DESCR
    X, y = loader(return_X_y=True)
    assert X.shape == shape and len(y) == shape[0]


def test_residential_two_targets():
    X, y = datasets.load_residential_building(return_X_y=True)
    assert X.shape == (372, 103) and y.name == "construction_cost"
    X2, y2 = datasets.load_residential_building(target="sale_price", return_X_y=True)
    assert y2.name == "sale_price" and "construction_cost" not in X2.columns
    with pytest.raises(ValueError):
        datasets.load_residential_building(target="nope")


def test_subscribers_split_and_noise():
    b = datasets.load_subscribers()
    assert b.data.shape == (1260, 25)
    assert b.split.value_counts().to_dict() == {"train": 756, "val": 252, "test": 252}
    X, _ = datasets.load_subscribers(include_noise=True, return_X_y=True)
    assert X.shape == (1260, 1225)


SEED_001_SETS = {"ALLAML", "arcene", "BASEHOCK", "COIL20", "colon", "GLIOMA", "Isolet", "leukemia",
                 "lung_discrete", "lymphoma", "orlraws10P", "PCMAC", "Prostate_GE", "RELATHE",
                 "TOX_171", "warpPIE10P", "Yale"}


def test_scikit_feature_sets_are_bundled(monkeypatch):
    monkeypatch.delenv("FEATSIEVE_DATA", raising=False)
    assert datasets.data_home() is None
    assert set(datasets.SCIKIT_FEATURE) == SEED_001_SETS | {"madelon"}
    b = datasets.load_scikit_feature("lymphoma")
    assert b.data.shape == (96, 4026) and b.target.nunique() == 9
    assert "scikit-feature" in b.DESCR and "Licence" in b.DESCR
    X, y = datasets.load_dataset("colon")  # the generic loader knows them too
    assert X.shape == (62, 2000) and y.value_counts().to_dict() == {-1: 40, 1: 22}


def test_manifest_checksums_and_listing():
    import hashlib
    from importlib import resources

    table = datasets.list_datasets()
    assert set(table.name) >= SEED_001_SETS | {"sonar", "spectf", "musk1", "residential_building"}
    assert table.source.str.len().min() > 20 and table.licence.str.len().min() >= 7
    root = resources.files("featsieve.datasets").joinpath("data")
    for r in table.itertuples():
        assert hashlib.sha256(root.joinpath(r.file).read_bytes()).hexdigest() == r.sha256, r.name
    row = table.set_index("name").loc["Isolet"]
    assert (row.rows, row.features, row.classes) == (1560, 617, "26 classes x 60")


def test_scikit_feature_missing_is_clear(tmp_path, monkeypatch):
    with pytest.raises(FileNotFoundError, match="FEATSIEVE_DATA"):
        datasets.load_scikit_feature("colon", data_dir=tmp_path)
    monkeypatch.delenv("FEATSIEVE_DATA", raising=False)
    with pytest.raises(FileNotFoundError, match="not bundled.*ALLAML"):
        datasets.load_scikit_feature("USPS")


def test_featsieve_data_overrides_bundled(tmp_path, monkeypatch):
    np.savez(tmp_path / "colon.npz", X=np.ones((4, 3)), y=np.array([0, 1, 0, 1]))
    monkeypatch.setenv("FEATSIEVE_DATA", str(tmp_path))
    X, y = datasets.load_scikit_feature("colon", return_X_y=True)
    assert X.shape == (4, 3) and list(y) == [0, 1, 0, 1]


def test_scikit_feature_reads_npz(tmp_path):
    (tmp_path / "toy").mkdir()
    np.savez(tmp_path / "toy" / "toy.npz", X=np.arange(6).reshape(3, 2), y=np.array([1, 2, 1]))
    X, y = datasets.load_scikit_feature("toy", data_dir=tmp_path, return_X_y=True)
    assert X.shape == (3, 2) and list(y) == [1, 2, 1]


def test_synthetic_supports():
    X, y, s = datasets.make_gbmo_synthetic(random_state=0)
    assert X.shape == (300, 100) and s.sum() == 10 and s[:10].all()
    np.testing.assert_allclose(y, (X[:, :10] ** 2 + np.sin(X[:, :10])).sum(1))
    X, y, s = datasets.make_hsic_additive(n_samples=50, random_state=0)
    assert X.shape == (50, 256) and s[:4].all() and s.sum() == 4
    X, y, s = datasets.make_hsic_nonadditive(n_samples=50, random_state=0)
    assert X.shape == (50, 1000) and s.sum() == 3
    X, y, s = datasets.make_pclfs_classification(n_samples=200, imbalance=0.7, random_state=0)
    assert X.shape == (200, 30) and s.sum() == 10 and 0.6 < (y == 0).mean() < 0.8
    a = datasets.make_hsic_additive(n_samples=20, random_state=3)[0]
    b = datasets.make_hsic_additive(n_samples=20, random_state=3)[0]
    np.testing.assert_array_equal(a, b)
