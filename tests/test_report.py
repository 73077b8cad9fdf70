"""The HTML report, its data, the classic family's figures, --report/--seeds on the CLI,
and the progress helper."""

import base64
import io
import json
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

import featsieve
from featsieve.progress import bar, track
from featsieve.report import (
    inflation_columns,
    method_figures,
    render_report,
    report_data,
    score_distribution_data,
    score_vs_features_data,
    selection_frequency_data,
    write_report,
)
from featsieve.report._classic import forward_plot_data, scores_plot_data

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
ALWAYS = ["summary", "run", "data", "environment"]


class _Page(HTMLParser):
    """Collects section ids, images, links, table cells and the text of each section."""

    def __init__(self):
        super().__init__()
        self.sections, self.imgs, self.urls, self.figures = [], [], [], []
        self.cells, self._in_cell, self.tables = [], False, {}
        self._table = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.sections.append(a.get("id"))
        if tag == "img":
            self.imgs.append(a.get("src", ""))
        if tag == "figure" and "data-method" in a:
            self.figures.append(a["data-method"])
        for k in ("src", "href"):
            if k in a:
                self.urls.append(a[k])
        if tag == "table":
            self._table = a.get("class", "")
            self.tables.setdefault(self._table, [])
        if tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        if tag in ("td", "th"):
            self._in_cell = True

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self._in_cell = False
        if tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._in_cell and self._table is not None and self.tables[self._table]:
            self.tables[self._table][-1].append(data.strip())


def _parse(html):
    p = _Page()
    p.feed(html)
    return p


@pytest.fixture(scope="module")
def result():
    from featsieve.datasets import load_sonar

    X, y = load_sonar(return_X_y=True)
    return featsieve.compare(X, y, methods=["cc", "forward", "embedded", "rfe"],
                             estimator="tree", dataset="sonar", n_repeats=3, n_jobs=1)


# ------------------------------------------------------------------ the page
def test_report_has_every_section_and_is_self_contained(result, tmp_path):
    path = write_report(tmp_path / "sub" / "r.html", result, command="featsieve compare")
    html = path.read_text(encoding="utf-8")
    page = _parse(html)
    for sec in ["summary", "comparison", "score-vs-features", "score-distribution",
                "selection-frequency", "method-figures"] + ALWAYS:
        assert sec in page.sections, sec
    assert "inflation" not in page.sections  # no audit columns in these rows
    # every image is an embedded PNG; nothing points at the network
    assert len(page.imgs) >= 6
    for src in page.imgs:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == PNG_MAGIC
    assert not [u for u in page.urls if u.startswith(("http:", "https:", "//"))]
    # the comparison table: one row per method, in order, with the test mean and interval
    head, *rows = page.tables["comparison"]
    assert [r[0] for r in rows] == ["all", "baseline", "cc", "forward", "embedded", "rfe"]
    i = head.index("test (95% interval)")
    for r, x in zip(rows, result.rows, strict=True):
        mean, _, ci = r[i].partition(" [")
        assert float(mean) == pytest.approx(x["test_mean"], abs=5e-5)
        if ci:
            # a no-break space inside the interval: the cell breaks only before it
            lo, hi = (float(v) for v in ci.rstrip("]").split(",\u00a0"))
            assert [lo, hi] == pytest.approx(x["test_ci"], abs=5e-5)
    assert [r[head.index("vs all")] for r in rows[1:]] == [x["vs_all"] for x in result.rows[1:]]
    # classic figures: forward's rounds and the importances/scores; rfe (sklearn) has none
    assert page.figures.count("forward") == 1 and page.figures.count("embedded") == 1
    assert "rfe" not in page.figures
    assert result.fingerprint["sha256"] in html and "scikit-learn" in html
    from featsieve.datasets import load_sonar
    from featsieve.io import data_fingerprint

    assert result.fingerprint == data_fingerprint(*load_sonar(return_X_y=True))


def test_method_figure_shows_the_selection_the_table_reports(result):
    """Issue 21, item 8: cc's figure marks the tuned k of the first repeat, not its default."""
    figs, problems = method_figures(result)
    assert not problems
    k = result.tuned_cuts["cc"]["n_features"]
    assert result.rows[2]["repeats"][0]["n_selected"] == k
    title, fig = next((t, f) for m, t, f in figs if m == "cc")
    assert f"the {k} columns repeat 1 chose (k={k}" in title
    d = scores_plot_data(result.selectors["cc"], top=60, support=result.supports["cc"])
    assert sum(d["selected"]) == k != result.selectors["cc"].support_.sum()


def test_inflation_section_appears_with_audit_columns(result):
    import copy

    audited = copy.copy(result)
    audited.rows = [dict(r, noise_inflation=0.01 * i, nested_cv=0.7) for i, r in
                    enumerate(result.rows)]
    assert inflation_columns(audited.rows) == ["noise_inflation", "nested_cv"]
    page = _parse(render_report(audited))
    assert "inflation" in page.sections
    head = page.tables["comparison"][0]
    assert "noise inflation" in head and "nested cv" in head
    infl = page.tables["inflation"]
    assert infl[0][:2] == ["method", "selection score"]
    assert len(infl) == 1 + len(result.rows) and infl[4][0] == "forward"
    assert float(infl[4][4]) == pytest.approx(0.03)
    assert "known to be useless" in render_report(audited)  # the columns are explained


def test_reproduce_result_report(tmp_path):
    import pandas as pd
    from matplotlib.figure import Figure

    from featsieve.reproduce import ReproduceResult

    fig = Figure()
    fig.add_subplot().plot([0, 1], [1, 0])
    png = tmp_path / "curve.png"
    fig.savefig(png)
    res = ReproduceResult("demo", tables={"Table 1": pd.DataFrame({"k": [1, 2], "f1": [.5, .7]})},
                          notes=["a note"], figures=[str(png)], params={"full": False})
    page = _parse(render_report(res))
    assert {"summary", "tables", "figures", "notes", "run"} <= set(page.sections)
    assert "comparison" not in page.sections
    assert page.tables[""][0] == ["k", "f1"] and page.tables[""][2] == ["2", "0.7000"]
    assert len(page.imgs) == 1


def test_write_report_refuses_a_directory(result, tmp_path):
    with pytest.raises(ValueError, match="directory"):
        write_report(tmp_path, result)


# ------------------------------------------------------------------ the data
def test_figure_data_agree_with_the_rows(result):
    d = score_vs_features_data(result)
    assert d["metric"] == "accuracy" and d["greater_is_better"] and d["n_features"] == 60
    assert [p["method"] for p in d["points"]] == ["cc", "forward", "embedded", "rfe"]
    for p, r in zip(d["points"], result.rows[2:], strict=True):
        assert (p["n_selected"], p["test"]) == (r["n_selected"], r["test_mean"])
        assert p["test_ci"] == r["test_ci"] and p["n_range"] == r["n_selected_range"]
    assert d["all"]["n_selected"] == 60 and d["n_repeats"] == 3
    assert d["baseline"]["n_selected"] == 0
    f = selection_frequency_data(result, max_columns=5)
    assert f["methods"] == ["cc", "forward", "embedded", "rfe"] and len(f["columns"]) == 5
    j = f["methods"].index("cc")
    for c, row in zip(f["columns"], f["frequency"], strict=True):
        assert row[j] == result.rows[2]["selection_frequency"].get(c, 0.0)
    assert f["frequency"].max() == 1.0
    s = score_distribution_data(result)
    assert s["methods"][0] == "baseline" and s["all"] == result.rows[0]["test_scores"]
    assert s["scores"][1] == result.rows[2]["test_scores"]


def test_report_data_is_json_and_holds_the_comparison(result):
    d = json.loads(json.dumps(report_data(result)))
    base = result.to_dict()
    for k in ("dataset", "n_samples", "n_features", "results", "fingerprint", "params",
              "n_repeats", "seeds"):
        assert d[k] == json.loads(json.dumps(base[k]))
    assert d["chart"] == json.loads(json.dumps(score_vs_features_data(result)))
    assert d["run_params"]["seeds"] == [0, 1, 2] and d["environment"]["numpy"] == np.__version__


def test_forward_plot_data_matches_history(result):
    sel = result.selectors["forward"]
    d = forward_plot_data(sel)
    assert d["round"] == list(range(1, len(sel.history_) + 1))
    assert d["added"] == [h["added"] for h in sel.history_]
    assert d["score"] == [h["score"] for h in sel.history_]
    # every accepted round improves on the previous one; the final set's score is the last
    accepted = [s for s, a in zip(d["score"], d["accepted"], strict=True) if a]
    assert accepted == sorted(accepted) and d["selection_score"] == accepted[-1]


def test_scores_plot_data_hand_case():
    class Fake:
        scores_ = np.array([0.1, 0.0, 0.5, 0.1, 0.3])
        support_ = np.array([False, False, True, False, True])
        feature_names_in_ = np.array(["a", "b", "c", "d", "e"], dtype=object)
        threshold = 0.2

    d = scores_plot_data(Fake(), top=3)
    assert d["name"] == ["c", "e", "a"] and d["score"] == [0.5, 0.3, 0.1]
    assert d["selected"] == [True, True, False] and d["threshold"] == 0.2
    assert scores_plot_data(Fake())["name"] == ["c", "e", "a", "d"]  # zero score left out
    assert d["n_features"] == 5

    class IdAndConstant(Fake):  # an ID-like and a constant column are not counted
        constant_features_ = np.array([False, True, False, False, False])
        columns_ = type("Columns", (), {"left_out": np.array([True, False, False, False,
                                                               False])})()

    assert scores_plot_data(IdAndConstant())["n_features"] == 3


def test_figures_come_from_the_method_table_missing_skipped_broken_reported(result,
                                                                            monkeypatch):
    import copy
    import types

    from featsieve._registry import _REGISTRY, MethodSpec

    mod = types.ModuleType("featsieve_test_broken_figures")

    def figures(method, selector):
        raise RuntimeError("boom")

    mod.figures = figures
    monkeypatch.setitem(sys.modules, "featsieve_test_broken_figures", mod)
    monkeypatch.setitem(_REGISTRY, "m", MethodSpec("m", object, figures="no_such_module:figures"))
    monkeypatch.setitem(_REGISTRY, "b", MethodSpec("b", object,
                                                   figures="featsieve_test_broken_figures:figures"))
    r = copy.copy(result)
    r.selectors = {**result.selectors, "m": object(), "b": object(), "unregistered": object()}
    figs, problems = method_figures(r)
    assert [m for m, _, _ in figs] == ["cc", "forward", "embedded"]  # rfe: none
    assert len(problems) == 1 and "b" in problems[0] and "boom" in problems[0]
    page = _parse(render_report(r))
    assert "notes" in page.sections


# ------------------------------------------------------------------ the CLI
def test_cli_compare_report_and_json(tmp_path, capsys):
    from featsieve.cli import main

    html, js = tmp_path / "r.html", tmp_path / "r.json"
    rc = main(["compare", "--methods", "cc,embedded", "--model", "tree", "--seeds", "2",
               "--seed", "5", "--n-jobs", "1", "--report", str(html), "--json", str(js), "-q"])
    out = capsys.readouterr().out
    assert rc == 0 and "seeds 5, 6" in out and f"wrote {html}" in out
    d = json.loads(js.read_text())
    assert d["seeds"] == [5, 6] and d["n_repeats"] == 2
    assert [x["seed"] for x in d["results"][1]["repeats"]] == [5, 6]
    assert "--seeds 2" in d["command"]
    page = _parse(html.read_text())
    assert set(ALWAYS + ["comparison", "score-vs-features"]) <= set(page.sections)


@pytest.mark.parametrize("text,first,expected", [
    ("3", 5, [5, 6, 7]), ("0,2,9", 0, [0, 2, 9]), ("4,", 0, [4]), (None, 0, None)])
def test_parse_seeds(text, first, expected):
    from featsieve.cli import _parse_seeds

    assert _parse_seeds(text, first) == expected


@pytest.mark.parametrize("bad", ["x", "0", "1,1"])
def test_cli_bad_seeds_one_line(bad, capsys):
    from featsieve.cli import main

    rc = main(["compare", "--methods", "cc", "--seeds", bad, "-q"])
    err = capsys.readouterr().err
    assert rc == 2 and "seeds" in err and len(err.strip().splitlines()) == 1


def test_repeated_seeds_refused():
    from featsieve.datasets import load_sonar

    X, y = load_sonar(return_X_y=True)
    with pytest.raises(ValueError, match="distinct"):
        featsieve.compare(X, y, seeds=[1, 1], methods=["cc"])


# ------------------------------------------------------------------ progress
class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_only_on_a_terminal(monkeypatch):
    # off: the items themselves, no bar
    items = iter(range(4))
    assert track(items, desc="x", enabled=False) is items
    # asked for, but standard error is no terminal: tqdm's disable=None draws nothing
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert list(track(range(3), desc="steps", enabled=True, leave=True)) == [0, 1, 2]
    assert bar(3, enabled=True).disable and err.getvalue() == ""
    # on (fake terminal): a real bar that counts and shows a rate
    err = _Tty()
    monkeypatch.setattr(sys, "stderr", err)
    assert bar(3, enabled=False).disable and not bar(3, enabled=True).disable
    err.seek(0)
    err.truncate(0)
    assert list(track(range(5), desc="steps", enabled=True, leave=True)) == list(range(5))
    text = err.getvalue()
    assert "steps" in text and "5/5" in text and "it/s" in text


# ------------------------------------------------------------------ chromium
@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian chromium not installed")
def test_report_renders_in_headless_chromium(result, tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    try:
        from render_report import screenshot
    finally:
        sys.path.pop(0)
    html = write_report(tmp_path / "r.html", result)
    png = screenshot(html, tmp_path / "r.png", height=1600)
    data = png.read_bytes()
    assert data[:8] == PNG_MAGIC and len(data) > 50_000  # a drawn page, not a blank one


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian chromium not installed")
def test_comparison_table_fits_a_1280_pixel_window(result, tmp_path):
    """The page needs no horizontal scroll at 1280 px: the table fits its column."""
    import re
    import tempfile

    html = write_report(tmp_path / "r.html", result,
                        command="featsieve compare sonar --methods cc,forward").read_text()
    probe = ("<script>window.addEventListener('load', () => { const t = document.querySelector("
             "'table.comparison'); const d = document.createElement('div'); d.id = 'probe'; "
             "d.textContent = 'page=' + document.documentElement.scrollWidth + ' view=' + "
             "document.documentElement.clientWidth + ' table=' + "
             "Math.round(t.getBoundingClientRect().right) + ' box=' + "
             "Math.round(t.parentElement.getBoundingClientRect().right); "
             "document.body.appendChild(d); });</script></body>")
    page = tmp_path / "probe.html"
    page.write_text(html.replace("</body>", probe), encoding="utf-8")
    with tempfile.TemporaryDirectory() as profile:
        out = subprocess.run(
            [shutil.which("chromium"), "--headless", "--no-sandbox", "--disable-gpu",
             f"--user-data-dir={profile}", "--window-size=1280,1000",
             "--virtual-time-budget=5000", "--dump-dom", page.as_uri()],
            capture_output=True, text=True, timeout=180).stdout
    m = re.search(r"page=(\d+) view=(\d+) table=(\d+) box=(\d+)", out)
    assert m, out[-500:]
    page_w, view_w, table_right, box_right = map(int, m.groups())
    assert page_w <= view_w  # no horizontal scroll of the page
    assert table_right <= box_right + 1  # the whole table is visible in its box


def test_import_featsieve_report_is_light():
    code = ("import sys, featsieve, featsieve.report, featsieve.progress; "
            "print(sorted(m for m in ('matplotlib', 'jinja2', 'tqdm') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_cli_reproduce_report(tmp_path, monkeypatch, capsys):
    import pandas as pd

    from featsieve import reproduce
    from featsieve.cli import main

    def fake_run(name, **kw):
        return reproduce.ReproduceResult(name, tables={"Table 9": pd.DataFrame({"a": [1]})},
                                         notes=["quick mode"], params={"full": kw["full"]})

    monkeypatch.setattr(reproduce, "run", fake_run)
    html = tmp_path / "rep.html"
    rc = main(["reproduce", "lesson", "--out-dir", str(tmp_path), "--report", str(html), "-q"])
    assert rc == 0 and f"wrote {html}" in capsys.readouterr().out
    page = _parse(html.read_text())
    assert {"summary", "tables", "notes", "run", "environment"} <= set(page.sections)
    assert "Table 9" in html.read_text() and "featsieve reproduce lesson" in html.read_text()


def test_regression_report_says_lower_is_better():
    from featsieve.datasets import load_residential_building

    X, y = load_residential_building(return_X_y=True)
    r = featsieve.compare(X.iloc[:, :30], y, methods=["cc", "embedded"], estimator="linear",
                          n_repeats=2, n_jobs=1)
    d = score_vs_features_data(r)
    assert d["metric"] == "mse" and not d["greater_is_better"]
    html = render_report(r)
    page = _parse(html)
    assert "score-vs-features" in page.sections and "better <b>lower</b>" in html
    assert [row[0] for row in page.tables["comparison"][1:]] == ["all", "baseline", "cc",
                                                                 "embedded"]


def test_cli_audit_report(tmp_path, capsys):
    from featsieve.cli import main
    from featsieve.datasets import load_sonar
    from featsieve.io import data_fingerprint

    html = tmp_path / "audit.html"
    rc = main(["audit", "--method", "cc", "--model", "tree", "--repeats", "2",
               "--noise-features", "50", "--report", str(html), "-q"])
    assert rc == 0, capsys.readouterr().err
    text = html.read_text()
    page = _parse(text)
    assert {"summary", "tables", "run", "data", "environment"} <= set(page.sections)
    assert "Estimates" in text and "Noise-pool inflation by k" in text
    X, y = load_sonar(return_X_y=True)
    assert data_fingerprint(X, y)["sha256"] in text
