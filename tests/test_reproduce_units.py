"""Resumable reproductions: each finished unit is cached and a rerun computes only the rest."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from featsieve.reproduce import EXPERIMENTS, ReproduceResult
from featsieve.reproduce._units import UnitCache, run_units, unit_key

CALLS = []


def _square(unit):
    CALLS.append(unit["x"])
    return {"y": np.float64(unit["x"]) ** 2, "xs": np.arange(unit["x"])}


def test_run_units_resumes_from_the_cache(tmp_path):
    CALLS.clear()
    units = [{"x": i, "tag": "a"} for i in range(4)]
    first = run_units("demo", units[:2], _square, results_dir=tmp_path)
    assert CALLS == [0, 1] and first[1] == {"y": 1.0, "xs": [0]}
    # a "stopped" run: only two units were stored; the rerun computes the other two
    again = run_units("demo", units, _square, results_dir=tmp_path)
    assert CALLS == [0, 1, 2, 3]
    assert [r["y"] for r in again] == [0.0, 1.0, 4.0, 9.0]
    assert len(list((tmp_path / "demo").glob("*.json"))) == 4
    run_units("demo", units, _square, results_dir=tmp_path)
    assert CALLS == [0, 1, 2, 3]  # nothing left to compute


def test_a_changed_parameter_is_a_new_unit(tmp_path):
    CALLS.clear()
    run_units("demo", [{"x": 2, "gens": 30}], _square, results_dir=tmp_path)
    run_units("demo", [{"x": 2, "gens": 200}], _square, results_dir=tmp_path)
    assert CALLS == [2, 2]
    assert unit_key({"x": 2, "gens": 30}) != unit_key({"x": 2, "gens": 200})


def test_only_cached_computes_nothing(tmp_path):
    CALLS.clear()
    run_units("demo", [{"x": 1}], _square, results_dir=tmp_path)
    out = run_units("demo", [{"x": 1}, {"x": 5}], _square, results_dir=tmp_path,
                    only_cached=True)
    assert out == [{"y": 1.0, "xs": [0]}, None] and CALLS == [1]


def test_a_file_of_another_unit_is_not_trusted(tmp_path):
    cache = UnitCache(tmp_path, "demo")
    cache.put({"x": 1}, {"y": 1})
    path = cache.path({"x": 1})
    stored = json.loads(path.read_text())
    stored["unit"] = {"x": 7}
    path.write_text(json.dumps(stored))
    assert cache.get({"x": 1}) is None


def test_parallel_equals_sequential_without_a_cache():
    units = [{"x": i} for i in range(5)]
    assert run_units("demo", units, _square, n_jobs=2) == run_units("demo", units, _square)


def test_unserialisable_result_is_named():
    with pytest.raises(TypeError, match="object"):
        run_units("demo", [{"x": 1}], lambda u: {"bad": object()})


@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
def test_quick_run_says_it_is_reduced_before_the_table(name, monkeypatch, capsys):
    import featsieve.reproduce as rep
    from featsieve.cli import main

    table = pd.DataFrame({"method": ["m"], "score": [0.5]})
    monkeypatch.setattr(rep, "run", lambda n, **kw: ReproduceResult(n, tables={"T": table}))
    assert main(["reproduce", name, "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    first = out[0]
    assert first.startswith("Quick, reduced run (") and "instead of" in first
    assert f"`featsieve reproduce {name} --full` runs the paper's sizes" in first
    assert f"docs/reproductions/{name}.md" in first
    assert out.index("== T") > 0
    assert (Path(__file__).parents[1] / "docs" / "reproductions" / f"{name}.md").is_file()
    assert main(["reproduce", name, "--full", "-q"]) == 0  # the full run: no such line
    assert not any("Quick" in line for line in capsys.readouterr().out.splitlines())
