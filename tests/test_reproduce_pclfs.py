"""``featsieve reproduce pclfs``: CI-sized slices of seed 003's SPECTF and Table 3 runs."""

from featsieve.reproduce import pclfs as rep


def test_units_have_their_own_seeds_and_are_trial_major():
    units = rep.units(True)
    t3 = [u for u in units if u["part"] == "table3"]
    assert len(t3) == 50 * 5 and len({u["seed"] for u in t3}) == len(t3)
    assert [u["trial"] for u in t3[:5]] == [0] * 5  # every set's first split comes first
    sim = [u for u in units if u["part"] == "simulation"]
    assert len(sim) == 10 * 2 * 6 * 3
    assert rep.units(True, trials=3)[:5] == units[:5]  # same seeds when reduced


def test_spectf_unit_logit():
    unit = [u for u in rep.units(False) if u["part"] == "spectf"][0]
    assert unit["model"] == "Logit"
    rows = rep.compute_unit(unit)
    by = {r["method"]: r for r in rows}
    assert set(by) == {"RFE(CV)", "PCLFS", "PCLFS-ext"}
    assert by["PCLFS-ext"]["n_selected"] <= by["PCLFS"]["n_selected"] <= 44
    assert all(0 <= r["f1"] <= 1 for r in rows)
    table = rep._spectf_table({"Logit": rows})
    assert table.loc[0, "PCLFS n"] == by["PCLFS"]["n_selected"]
