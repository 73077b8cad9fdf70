"""``featsieve reproduce hsic``: CI-sized slices of seed 004's Figure 1 and real data."""

import numpy as np
import pytest

from featsieve.reproduce import hsic as rep


def test_units_cover_every_part_and_full_has_thirty_runs():
    full = rep.units(True)
    parts = {u["part"] for u in full}
    assert parts == {"recovery", "timing", "lookup", "real"}
    rec = [u for u in full if u["part"] == "recovery" and u["data"] == "Data2" and u["n"] == 300]
    assert len(rec) == 30 * 7  # the seed's 30 runs per point, every method but QPFS
    assert {u["method"] for u in rec} == set(rep.METHODS) - {"QPFS"}
    # fewer runs keep the same draws: a reduced run is a prefix of the full one
    small = [u for u in rep.units(True, runs=5) if u["part"] == "recovery"]
    assert all(u in full for u in small)


def test_recovery_units_data1_hsic_lasso_finds_the_four():
    units = [{"part": "recovery", "data": "Data1", "n": 200, "run": 0, "seed": 1, "method": m}
             for m in ("HSIC Lasso", "FHSIC")]
    out = [rep.compute_unit(u) for u in units]
    assert out == [{"fraction": 1.0}, {"fraction": 1.0}]
    tables, counts = rep._tables(units, out)
    assert tables[rep.RECOVERY].columns.tolist() == ["data", "n", "HSIC Lasso", "FHSIC"]
    assert counts["runs"] == {"HSIC Lasso": 1, "FHSIC": 1}


def test_real_unit_uses_each_selectors_own_top_k():
    unit = {"part": "real", "dataset": "colon", "split": 0, "method": "HSIC Lasso",
            "seed": 0, "ks": [2, 5]}
    out = rep.compute_unit(unit)
    assert (out["n"], out["d"]) == (62, 2000)
    assert 0.5 <= out["k=5"] <= 1 and 0 <= out["k=2"] <= 1
    tables, counts = rep._tables([unit], [out])
    row = tables[rep.REAL].iloc[0]
    assert row["k=5"] == pytest.approx(out["k=5"]) and counts["real_splits"] == 1


def test_nocco_skips_large_fit_splits():
    unit = {"part": "real", "dataset": "Isolet", "split": 0, "method": "NOCCO Lasso",
            "seed": 0, "ks": [10]}
    assert "skipped" in rep.compute_unit(unit)
    assert np.isfinite(rep.NOCCO_MAX_ROWS)
