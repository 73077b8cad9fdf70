"""``featsieve reproduce lesson``: seed 002's tables, one unit at a time."""

import pytest

from featsieve.reproduce import lesson as rep


def test_units_are_the_lessons_parts():
    parts = [(u["part"], u.get("model") or u.get("selector") or u.get("method"))
             for u in rep.units(False, 0)]
    assert parts == [("methods", "sklearn"), ("methods", "seed"), ("noise_fixed", "sklearn"),
                     ("noise_fixed", "seed"), ("noise_repeats", "separation"),
                     ("noise_repeats", "random"), ("audit", "filter"), ("audit", "wrapper"),
                     ("audit", "embedded")]
    full = {u["part"]: u for u in rep.units(True, 0)}
    assert full["noise_repeats"]["n_repeats"] == 200 and full["audit"]["max_noise_fits"] is None


def test_seed_tree_units_give_the_published_tables():
    out = rep.compute_unit({"part": "noise_fixed", "model": "seed", "full": False,
                            "random_state": 0})
    assert out["baseline"] == pytest.approx(rep.PUBLISHED["baseline"], abs=5e-5)
    for r in out["rows"]:
        assert (round(r["train"], 4), round(r["held_out"], 4)) == \
            rep.PUBLISHED["noise"][(r["selected"], r["source"])]
