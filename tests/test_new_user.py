"""Gaps a new user met on real tables (issue 16): numbers stored as text with stray words,
currency, thousands and percentages; ID columns written back by ``select -o``; the audit's
report on a text table; the report's command line; a missing comparator library; the k grid
of a narrow table."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import featsieve
from featsieve._validation import ColumnKindWarning, describe_columns, encode_columns
from featsieve.cli import main


# ------------------------------------------------------------ numbers stored as text
def test_stray_words_in_a_number_column_are_named_and_read_as_missing():
    hp = [str(v) for v in range(60, 160)]
    hp[3], hp[40], hp[10] = "rotary", "rotary", "?"
    X = pd.DataFrame({"horsepower": hp})
    with pytest.warns(ColumnKindWarning, match=r"'horsepower'.*'rotary' \(2 rows\)"):
        desc = describe_columns(X)
    assert desc.kinds[0] == "numeric"
    enc = encode_columns(X, desc)
    assert np.isnan(enc[[3, 10, 40], 0]).all() and enc[0, 0] == 60 and enc[99, 0] == 159
    # above the stated share (5% of the rows), the column is categories
    many = hp[:]
    for i in range(0, 100, 10):
        many[i] = "turbo"
    assert describe_columns(pd.DataFrame({"hp": many}), warn=False).kinds[0] == "categorical"


def test_currency_thousands_and_percentages_are_parsed_by_the_stated_rule():
    n = 40
    X = pd.DataFrame({
        "price": [f"${v:,}" for v in range(900, 900 + 100 * n, 100)],
        "area": [f"{v:,.1f}" for v in np.linspace(950.5, 4950.5, n)],
        "share": [f"{v}%" for v in range(n)],
        "eu": ["1.234,5", "2,5", "-3,25", ""] * (n // 4),
    })
    with pytest.warns(ColumnKindWarning) as rec:
        desc = describe_columns(X)
    text = " ".join(str(w.message) for w in rec)
    assert "'price': numbers stored as text (currency signs dropped, thousands" in text
    assert "'area': numbers stored as text (thousands separators removed)" in text
    assert "'share'" in text and "12% is 12" in text
    assert list(desc.kinds) == ["numeric"] * 4
    enc = encode_columns(X, desc)
    np.testing.assert_allclose(enc[:4, 0], [900, 1000, 1100, 1200])
    assert enc[0, 1] == pytest.approx(950.5) and enc[-1, 1] == pytest.approx(4950.5)
    np.testing.assert_array_equal(enc[:3, 2], [0, 1, 2])
    np.testing.assert_allclose(enc[:4, 3], [1234.5, 2.5, -3.25, np.nan])


# ------------------------------------------------------------------- ID columns
def test_select_writes_id_columns_back_and_does_not_count_them(tmp_path, capsys):
    from featsieve.datasets import load_penguins

    X, y = load_penguins(return_X_y=True)
    df = X.copy()
    df.insert(0, "rownames", np.random.default_rng(0).permutation(len(df)) + 1)
    df["species"] = y
    src, out = tmp_path / "p.csv", tmp_path / "reduced.csv"
    df.to_csv(src, index=False)
    rc = main(["select", str(src), "--target", "species", "--method", "cc", "-k", "2",
               "-o", str(out), "-q"])
    printed = capsys.readouterr().out
    assert rc == 0
    assert f"kept 2 of {X.shape[1]} columns" in printed and "rownames" in printed
    reduced = pd.read_csv(out)
    assert list(reduced.columns)[0] == "rownames" and len(reduced.columns) == 4
    np.testing.assert_array_equal(reduced["rownames"], df["rownames"])


def test_compare_header_and_k_grid_leave_id_columns_out():
    rng = np.random.default_rng(0)
    n = 120
    X = pd.DataFrame({"ID": rng.permutation(n), "a": rng.normal(size=n),
                      "b": rng.normal(size=n), "c": rng.normal(size=n)})
    y = (X["a"] > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = featsieve.compare(X, y, methods=["cc"], estimator="tree", n_repeats=2)
    assert r.n_features == 3
    assert any("ID-like" in n and "ID" in n for n in r.notes)
    cc = next(row for row in r.rows if row["method"] == "cc")
    assert "ID" not in cc["selection_frequency"]
    # the k grid of 3 usable columns (narrow: up to M), not of 4
    tuned = {rep["tuned"] for rep in cc["repeats"]}
    assert tuned <= {"k=1", "k=2", "k=3"}


# ------------------------------------------------------------------ the k grid
def test_k_grid_reaches_every_column_on_a_narrow_table():
    from featsieve._registry import NARROW_TABLE, k_grid

    assert k_grid(9) == [1, 2, 4, 6, 8, 9]
    assert k_grid(NARROW_TABLE)[-2:] == [NARROW_TABLE - 1, NARROW_TABLE]
    assert max(k_grid(NARROW_TABLE + 1)) == round((NARROW_TABLE + 1) / 2)  # M/2 above
    assert k_grid(60)[-1] == 30


def test_k_grid_stops_at_the_wide_cap():
    """Wide tables: log-spaced counts from 1 to 1,000, no refits on 50,000 columns."""
    from featsieve._registry import WIDE_K_CAP, k_grid

    g = k_grid(100_000)
    assert g[:4] == [1, 2, 3, 4] and g[-1] == WIDE_K_CAP == 1000 and len(g) == 16
    assert k_grid(2000)[-1] == 1000 and 333 in k_grid(2000)  # M/6 kept below the cap
    assert 500 in k_grid(3000) and 1500 not in k_grid(3000)


def test_narrow_grid_counts_copies_out():
    """A copied column is no feature of its own: FLBMO's eta grid stops at the usable columns."""
    rng = np.random.default_rng(1)
    n = 120
    town = rng.choice(["Cherbourg", "Queenstown", "Southampton"], size=n)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n),
                      "embark_town": town, "embarked": pd.Series(town).str[0]})
    y = (X["a"] + (town == "Cherbourg") > 0.3).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = featsieve.compare(X, y, methods=["flbmo"], estimator="tree", n_repeats=1)
    assert not r.failed, r.failed
    flbmo = next(row for row in r.rows if row["method"] == "flbmo")
    assert "embarked" not in flbmo["selection_frequency"]


# -------------------------------------------------------------- comparators group
def test_comparators_group_skips_a_missing_library(monkeypatch):
    import importlib.util

    from featsieve import _registry

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "knockpy" else real(name, *a))
    with pytest.warns(_registry.MethodSkippedWarning,
                      match=r"knockoff left out of 'comparators': knockpy.*featsieve\[comparators\]"):
        specs = _registry.resolve_methods(["comparators"], task="classification")
    names = [s.name for s in specs]
    assert "knockoff" not in names and "l1" in names and "sfs" in names
    with pytest.raises(featsieve.MethodUnavailableError, match="knockpy"):
        _registry.resolve_methods(["knockoff"])  # named by itself: still an error


# ------------------------------------------------------------------ reports
def test_audit_report_on_a_table_with_text_columns(tmp_path, capsys):
    html = tmp_path / "audit.html"
    rc = main(["audit", "penguins", "--target", "species", "--method", "cc", "--model", "tree",
               "--repeats", "2", "--noise-features", "20", "--report", str(html), "-q"])
    assert rc == 0, capsys.readouterr().err
    text = html.read_text()
    assert "featsieve audit penguins --target species --model tree" in text
    assert "--method cc --noise-features 20 --repeats 2" in text


def test_report_command_line_is_a_shell_line():
    import click

    from featsieve.cli import _command_line, cli

    cmd = cli.commands["compare"]
    ctx = click.Context(cmd, info_name="compare", parent=click.Context(cli, info_name="featsieve"))
    ctx.params = {p.name: p.default for p in cmd.params}
    ctx.params.update(data="my data.csv", target="y", drop=("id", "row name"),
                      categorical=("zip",))
    line = _command_line(ctx)
    assert "(" not in line and "'" in line
    assert "featsieve compare 'my data.csv' --target y --drop id --drop 'row name'" in line
    assert "--categorical zip" in line


def _ames_like(tmp_path):
    """Ames' PID "0526301100" was written back as 526301100; a whole-number column with a
    missing cell came back as "7.0", and "NA" as an empty cell."""
    rng = np.random.default_rng(0)
    n = 60
    x = rng.normal(size=n)
    pid = [f"0{526301100 + 37 * i}" for i in range(n)]
    whole = [str(v) for v in rng.integers(1, 9, n)]
    whole[3] = "NA"
    lines = ["PID,x,whole,y"] + [f"{p},{v:.3f},{w},{'yes' if v > 0 else 'no'}"
                                 for p, v, w in zip(pid, x, whole, strict=True)]
    src = tmp_path / "ames.csv"
    src.write_text("\n".join(lines) + "\n")
    return src, lines, pid


def test_select_output_keeps_the_csv_cells_as_written(tmp_path, capsys):
    src, lines, _ = _ames_like(tmp_path)
    out = tmp_path / "reduced.csv"
    rc = main(["select", str(src), "-t", "y", "--method", "cc", "-k", "2", "-o", str(out),
               "-q"])
    assert rc == 0 and "PID" in capsys.readouterr().out
    assert out.read_text().splitlines() == lines  # every cell as the source has it
    assert src.read_text().splitlines() == lines


def test_select_parquet_output_keeps_an_id_as_text(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    src, _, pid = _ames_like(tmp_path)
    out = tmp_path / "reduced.parquet"
    assert main(["select", str(src), "-t", "y", "--method", "cc", "-k", "2", "-o", str(out),
                 "-q"]) == 0
    back = pd.read_parquet(out)
    assert back["PID"].tolist() == pid  # the identifier as text; features keep their types
    assert back["x"].dtype == np.float64 and np.isnan(back["whole"][3])
