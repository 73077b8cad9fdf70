"""``featsieve reproduce fastener``: a CI-sized slice of seed 001 Tables 3-4 (issue 19)."""

import numpy as np
from sklearn.datasets import make_classification

from featsieve.reproduce import fastener as rep


def _stand_in(tmp_path, monkeypatch):
    X, y = make_classification(n_samples=150, n_features=30, n_informative=4, n_classes=3,
                               n_clusters_per_class=1, random_state=0)
    (tmp_path / "colon").mkdir()  # a stand-in under a seed table's name
    np.savez(tmp_path / "colon" / "colon.npz", X=X, y=y)
    monkeypatch.setenv("FEATSIEVE_DATA", str(tmp_path))


def test_reproduce_fastener_table_both_protocols(tmp_path, monkeypatch):
    _stand_in(tmp_path, monkeypatch)
    small = {"n_agents": 4, "n_iterations": 2, "sizes": 4}
    res = rep.run(datasets=["colon", "absent"], n_splits=2, n_generations=4, fssds=small,
                  out_dir=tmp_path / "fig", results_dir=tmp_path / "res")
    table = res.tables[rep.MAIN_TABLE].set_index("protocol")
    assert list(table.index) == ["honest", "seed"]  # the headline first
    honest, seed = table.loc["honest"], table.loc["seed"]
    assert honest["dataset"] == "colon" and honest["FASTENER splits"] == 2
    assert honest["DT-fwd evals"] == 15 * 30 - 105  # 15 full rounds, as Table 4 counts
    assert honest["POSS evals"] == honest["FASTENER evals"]  # POSS gets FASTENER's budget
    assert honest["seed FASTENER"] == 0.763 and honest["seed DT-fwd evals"] == 29895
    assert honest["FASTENER - seed"] == honest["FASTENER mean"] - 0.763
    for m in ("FASTENER", "POSS", "DT-fwd"):
        assert 0 < honest[f"{m} mean"] <= 1 and honest[f"{m} sd"] >= 0
    # the seed's protocol scores the fronts on rows the search used: no POSS there
    assert seed["DT-fwd splits"] == 2 and np.isnan(seed.get("POSS mean", np.nan))
    conv = res.tables[rep.CONV_TABLE]
    assert conv["share of FASTENER's budget"].tolist() == list(rep.BUDGET_SHARES)
    assert any("absent" in n for n in res.notes)
    assert {p.rsplit("/", 1)[-1] for p in res.figures} == {"fastener_convergence.png"}
    assert 0 < honest["FS-SDS mean"] <= 1 and seed["FS-SDS splits"] == 2
    assert honest["FS-SDS - seed"] == honest["FS-SDS mean"] - 0.658  # Table 3, colon
    # 2 splits x 2 protocols x 3 units, each cached; the tables come back from the cache alone
    assert len(list((tmp_path / "res" / "fastener").glob("*.json"))) == 12
    again = rep.run(datasets=["colon"], n_splits=2, n_generations=4, fssds=small,
                    results_dir=tmp_path / "res", only_cached=True)
    assert again.tables[rep.MAIN_TABLE].equals(res.tables[rep.MAIN_TABLE])


def test_units_put_the_genetic_searches_first():
    units = rep.units(["a", "b"], n_splits=2, n_generations=5)
    methods = [u["method"] for u in units]
    assert set(methods[:8]) == {"FASTENER+POSS", "FASTENER"}
    assert set(methods[8:16]) == {"FS-SDS"} and set(methods[16:]) == {"DT-forward"}
    assert [u["dataset"] for u in units[:4]] == ["a", "a", "b", "b"]  # split-major
    fwd = rep.units(["ALLAML", "colon", "Yale"], n_splits=1, n_generations=5)[12:]
    assert [(u["protocol"], u["dataset"]) for u in fwd] == [
        ("honest", "Yale"), ("honest", "colon"), ("honest", "ALLAML"),
        ("seed", "Yale"), ("seed", "colon"), ("seed", "ALLAML")]  # cheapest first
    assert {u["seed"] for u in units} == {2020, 2021}
