"""The report: data first (:func:`report_data`), drawn second (matplotlib, lazily),
written last (:func:`write_report`, one self-contained HTML file from a Jinja2
template in ``templates/``)."""

from __future__ import annotations

import base64
import datetime as _dt
import importlib
import io as _io
import math
import os
import platform
from pathlib import Path

import numpy as np

from .._utils import atomic_write

__all__ = [
    "STANDARD_COLUMNS",
    "figure_to_base64",
    "inflation_columns",
    "method_figures",
    "package_versions",
    "render_report",
    "report_data",
    "score_vs_features_data",
    "score_vs_features_figure",
    "write_report",
]

# the columns every comparison row has, in display order (``selected`` is a list, not shown)
STANDARD_COLUMNS = ["method", "n_selected", "selection_score", "test_score", "gap", "seconds",
                    "model_fits", "tuned"]
_HEADERS = {
    "method": "method", "n_selected": "n selected", "selection_score": "selection's own number",
    "test_score": "test", "gap": "gap (optimism)", "seconds": "seconds", "model_fits": "model fits",
    "tuned": "tuned",
}
# what the audit columns mean (``compare --audit``, featsieve.evaluation.add_audit_columns)
COLUMN_HELP = {
    "gap": "the selection's own number minus the test score (accuracy; for MSE the other way "
           "round): positive means the selection looked better than it is.",
    "noise_inflation": "a pool of pure-noise columns (known to be useless) is ranked by the "
                       "method once on the training rows only and once on every row, test rows "
                       "included; the test score of the second minus the first, averaged over "
                       "k and repeats (seed 002 FS21). Zero in expectation without leakage.",
    "noise_se": "standard error of the noise-pool inflation over repeats.",
    "noise_pool": "columns in the noise pool (smaller for costly wrappers).",
    "nested_cv": "cross-validated score with the selection redone inside every fold: an "
                 "estimate of the test score that no selection has seen.",
    "nested_cv_sd": "standard deviation of the nested cross-validation over folds.",
}
_DISTRIBUTIONS = ("featsieve", "numpy", "scipy", "scikit-learn", "pandas", "pyarrow", "joblib",
                  "lightgbm", "matplotlib", "jinja2", "narwhals", "polars", "dask",
                  "distributed", "ray", "tqdm", "click")


# ---------------------------------------------------------------- data
def package_versions() -> dict:
    """Versions of Python and of the packages a run may depend on.

    Returns
    -------
    versions : dict
        ``python``, ``platform`` and one entry per distribution in
        ``featsieve``'s dependency set, then the libraries the method table's
        rows require (the comparators' ``featsieve[comparators]``, skrebate);
        ``"not installed"`` for optional ones that are absent. Reads package
        metadata only (imports none of them).
    """
    from importlib.metadata import PackageNotFoundError, version

    from .._registry import get_method, methods

    libraries = dict.fromkeys(m for n in methods() for m in get_method(n).requires)
    out = {"python": platform.python_version(), "platform": platform.platform(terse=True)}
    for dist in (*_DISTRIBUTIONS, *(m for m in libraries if m not in _DISTRIBUTIONS)):
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:
            out[dist] = "not installed"
    return out


def _runs(result) -> list:
    if result is None:
        return []
    return list(getattr(result, "runs", [result]))


def _is_comparison(result) -> bool:
    return result is not None and hasattr(_runs(result)[0], "rows")


def _is_audit(result) -> bool:
    """An ``InflationResult`` of ``featsieve audit`` (duck-typed: estimates + verdict)."""
    return result is not None and hasattr(result, "estimates") and hasattr(result, "verdict")


def inflation_columns(rows: list) -> list:
    """Names of the row columns that measure selection inflation (added by an audit).

    Parameters
    ----------
    rows : list of dict
        Comparison rows.

    Returns
    -------
    columns : list of str
        Every column whose name contains ``"inflat"``, ``"optimism"``,
        ``"noise"`` or ``"nested"`` (``compare --audit``: ``noise_inflation``,
        ``noise_se``, ``noise_pool``, ``nested_cv``, ``nested_cv_sd``), in
        first-seen order.
    """
    keys = ("inflat", "optimism", "noise", "nested")
    seen = []
    for r in rows:
        for k in r:
            if k not in seen and any(t in k.lower() for t in keys):
                seen.append(k)
    return seen


def _extra_columns(rows: list) -> list:
    """Scalar columns beyond the standard ones (e.g. an audit's), first-seen order."""
    extra = []
    for r in rows:
        for k, v in r.items():
            if k in STANDARD_COLUMNS or k == "selected" or k in extra:
                continue
            if v is None or isinstance(v, (str, bool, int, float, np.integer, np.floating)):
                extra.append(k)
    return extra


def _clean(v):
    """JSON-ready scalar: NaN/inf to None, numpy scalars to Python."""
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        v = float(v)
        return v if math.isfinite(v) else None
    return v


def _mean_std(values) -> tuple:
    vals = np.asarray([v for v in values if v is not None and np.isfinite(v)], dtype=float)
    if vals.size == 0:
        return None, None
    std = float(vals.std(ddof=1)) if vals.size > 1 else None
    return float(vals.mean()), std


def score_vs_features_data(result) -> dict:
    """The points of the chart "test score against number of features".

    Parameters
    ----------
    result : ComparisonResult or SeedsComparison

    Returns
    -------
    data : dict
        ``metric``, ``greater_is_better``, ``n_features``, ``n_runs`` and
        ``points``: one dict per method (``method``, ``n_selected`` and
        ``test`` as the mean over seeds, ``n_selected_std`` and ``test_std``
        as the sample standard deviation over seeds, None for one seed).
        ``all`` is the point of the all-features baseline (None when it did
        not run); it is also drawn as a horizontal line.
    """
    runs = _runs(result)
    order = list(dict.fromkeys(r["method"] for run in runs for r in run.rows))
    points = []
    for m in order:
        rows = [r for run in runs for r in run.rows if r["method"] == m]
        n_mean, n_std = _mean_std([r["n_selected"] for r in rows])
        t_mean, t_std = _mean_std([r["test_score"] for r in rows])
        points.append({"method": m, "n_selected": n_mean, "n_selected_std": n_std,
                       "test": t_mean, "test_std": t_std, "n_runs": len(rows)})
    from ..models import greater_is_better

    base = next((p for p in points if p["method"] == "all"), None)
    return {
        "metric": runs[0].metric,
        "greater_is_better": bool(greater_is_better(runs[0].task)),
        "n_features": int(runs[0].n_features),
        "n_runs": len(runs),
        "points": [p for p in points if p["method"] != "all"],
        "all": base,
    }


def _table(result) -> dict:
    """Columns (key, header, css class) and formatted rows of the comparison table."""
    runs = _runs(result)
    if len(runs) == 1:
        rows = runs[0].rows
        extra = _extra_columns(rows)
        infl = set(inflation_columns(rows))
        keys = STANDARD_COLUMNS + extra
        cols = [{"key": k, "header": _HEADERS.get(k, k.replace("_", " ")),
                 "cls": "infl" if (k in infl or k == "gap") else ""} for k in keys]
        body = [[_fmt(r.get(k), k) for k in keys] for r in rows]
        return {"columns": cols, "rows": body, "multi": False}
    summary = result.summary()
    rows_all = [r for run in runs for r in run.rows]
    extra = _extra_columns(rows_all)
    for k in extra:  # the audit's numeric columns: mean over seeds
        vals = {m: _mean_std([r.get(k) for r in rows_all if r["method"] == m
                              and isinstance(r.get(k), (int, float, np.number))])[0]
                for m in summary["method"]}
        summary[f"{k}_mean"] = summary["method"].map(vals)
    cols, body = [], []
    spec = [("method", "method", ""), ("n_runs", "seeds", ""),
            ("n_selected", "n selected", ""),
            ("selection_score_mean", "selection's own number", ""),
            ("test", "test", ""), ("gap", "gap (optimism)", "infl"),
            ("seconds_mean", "seconds", ""), ("model_fits_mean", "model fits", "")]
    spec += [(f"{k}_mean", k.replace("_", " "),
              "infl" if k in inflation_columns(rows_all) else "") for k in extra]
    cols = [{"key": k, "header": h, "cls": c} for k, h, c in spec]
    for r in summary.to_dict(orient="records"):
        row = []
        for k, _, _ in spec:
            if k == "n_selected":
                row.append(_pm(r["n_selected_mean"], r["n_selected_std"], digits=3))
            elif k == "test":
                row.append(_pm(r["test_score_mean"], r["test_score_std"]))
            elif k == "gap":
                row.append(_pm(r["gap_mean"], r["gap_std"]))
            else:
                row.append(_fmt(r.get(k), k))
        body.append(row)
    return {"columns": cols, "rows": body, "multi": True}


def _fmt(v, key="") -> str:
    v = _clean(v)
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if key.startswith("seconds"):
            return f"{v:.2f}"
        if key.startswith("n_") or "fits" in key or "pool" in key:  # counts (or their means)
            return str(int(v)) if float(v).is_integer() and abs(v) < 1e9 else f"{v:.1f}"
        return f"{v:.4g}" if abs(v) >= 1000 else f"{v:.4f}"
    return str(v)


def _pm(mean, std, digits=4) -> str:
    mean, std = _clean(mean), _clean(std)
    if mean is None:
        return "–"
    text = f"{mean:.{digits}g}" if digits < 4 else _fmt(mean)
    return text if std is None else f"{text} ± {std:.2g}"


def report_data(result=None, *, title: str | None = None, tables: dict | None = None,
                notes=(), params: dict | None = None, command: str | None = None,
                fingerprint: dict | None = None, dataset: str | None = None) -> dict:
    """Everything the HTML report shows, as JSON-ready data (no images).

    This is also what ``featsieve compare --json`` writes: for a comparison
    the keys of ``ComparisonResult.to_dict()`` (or ``SeedsComparison.to_dict()``)
    come first, unchanged, then ``title``, ``verdict``, ``chart`` (the points of
    the score-against-features chart), ``inflation_columns``, ``tables``,
    ``notes``, ``command``, ``environment`` (package versions) and
    ``created`` (UTC time).

    Parameters
    ----------
    result : ComparisonResult, SeedsComparison, InflationResult, ReproduceResult or None
        An audit (``InflationResult``) contributes its verdict, estimates and
        noise-pool tables; a reproduce result its tables, notes and params.
    title : str or None, default=None
        Page title; derived from the result when None.
    tables : dict of str -> DataFrame, or None
        Extra tables (e.g. an audit's); shown after the comparison.
    notes : iterable of str, default=()
        Plain-language lines shown under "Notes".
    params : dict or None
        Extra run parameters (merged over the result's own).
    command : str or None
        The command line that produced the run.
    fingerprint : dict or None
        :func:`featsieve.io.data_fingerprint` of the data, for results that do
        not carry one (a comparison does).
    dataset : str or None
        Name of the data, likewise.

    Returns
    -------
    data : dict
    """
    out: dict = {}
    tables = dict(tables or {})
    notes = list(notes)
    run_params = {}
    if _is_comparison(result):
        out.update(result.to_dict())
        runs = _runs(result)
        run_params.update(runs[0].params)
        run_params["seeds"] = [r.random_state for r in runs]
        out["verdict"] = result.verdict()
        out["chart"] = score_vs_features_data(result)
        out["inflation_columns"] = inflation_columns([r for run in runs for r in run.rows])
        title = title or f"featsieve compare: {result.dataset}"
    elif _is_audit(result):
        out.update(result.to_dict())
        tables = {"Estimates": result.estimates(), **tables}
        if getattr(result, "noise", None) is not None:
            tables = {**tables, "Noise-pool inflation by k": result.noise.summary()}
        if getattr(result, "noise_note", ""):
            notes.append(result.noise_note)
        run_params["seeds"] = [result.random_state]
        title = title or f"featsieve audit: {result.name}"
    elif result is not None:  # a ReproduceResult
        tables = {**result.tables, **tables}
        notes = list(result.notes) + notes
        run_params.update(result.params)
        out["name"] = result.name
        out["figures"] = [str(f) for f in result.figures]
        title = title or f"featsieve reproduce: {result.name}"
    run_params.update(params or {})
    if fingerprint is not None and not out.get("fingerprint"):
        out["fingerprint"] = dict(fingerprint)
    if dataset is not None and not out.get("dataset"):
        out["dataset"] = dataset
    out["title"] = title or "featsieve report"
    out["tables"] = {k: _records(v) for k, v in tables.items()}
    out["notes"] = notes
    out["run_params"] = {k: _clean(v) for k, v in run_params.items()}
    out["command"] = command
    out["environment"] = package_versions()
    out["created"] = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    return out


def _records(df) -> list:
    import pandas as pd

    if not isinstance(df, pd.DataFrame):
        df = pd.DataFrame(df)
    return [{str(k): _clean(v) if not isinstance(v, (list, dict)) else v
             for k, v in row.items()} for row in df.to_dict(orient="records")]


# ---------------------------------------------------------------- drawing
def figure_to_base64(fig, *, dpi: int = 100) -> str:
    """PNG of a matplotlib figure, base64-encoded (for ``<img src="data:...">``)."""
    buf = _io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    _close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _close(fig) -> None:
    import sys

    plt = sys.modules.get("matplotlib.pyplot")  # only if the figure came from pyplot
    if plt is not None:
        plt.close(fig)


def score_vs_features_figure(result):
    """Test score against number of selected features, one point per method.

    Error bars are the standard deviation over seeds (both axes) when several
    seeds ran; the all-features score is a dashed horizontal line.

    Returns
    -------
    title : str
    fig : matplotlib.figure.Figure
    """
    from matplotlib.figure import Figure

    d = score_vs_features_data(result)
    fig = Figure(figsize=(9, 5.2), layout="constrained")
    ax = fig.add_subplot()
    pts = [p for p in d["points"] if p["test"] is not None]
    styles = _styles(len(pts))
    for p, (c, marker) in zip(pts, styles, strict=True):
        ax.errorbar(p["n_selected"], p["test"], xerr=p["n_selected_std"], yerr=p["test_std"],
                    fmt=marker, ms=7, color=c, mec="white", mew=0.6, capsize=2.5, elinewidth=1,
                    ecolor=(*c[:3], 0.45), zorder=3)
    base = d["all"]
    if base is not None and base["test"] is not None:
        ax.axhline(base["test"], color="0.3", ls="--", lw=1.2,
                   label=f"all {d['n_features']} features")
        if base["test_std"]:
            ax.axhspan(base["test"] - base["test_std"], base["test"] + base["test_std"],
                       color="0.5", alpha=0.12, lw=0)
    ax.margins(y=0.08)
    if d["n_features"] > 100:  # many columns: a log axis keeps small selections apart
        ax.set_xscale("log")
        ax.set_xlim(left=0.8, right=d["n_features"] * 1.3)
    else:
        ax.set_xlim(left=0, right=d["n_features"] * 1.05 + 1)
    ax.set_xlabel("number of selected features")
    better = "higher" if d["greater_is_better"] else "lower"
    ax.set_ylabel(f"test {d['metric']} ({better} is better)")
    ax.grid(True, alpha=0.3)
    if base is not None:
        ax.legend(fontsize=8, loc="lower right")
    _label_points(ax, pts, styles)
    seeds = f"mean ± sd over {d['n_runs']} seeds" if d["n_runs"] > 1 else "one seed"
    return (f"Test {d['metric']} against number of features ({seeds})", fig)


def _styles(n):
    """(colour, marker) per point: the ten dark tab10 colours, then a new marker shape."""
    from matplotlib import colormaps

    cmap = colormaps["tab10"]
    markers = "osD^vPX*"
    return [(cmap(i % 10), markers[(i // 10) % len(markers)]) for i in range(n)]


def _label_points(ax, pts, styles):
    """Label every point without printing labels over each other or over points.

    Points that coincide on screen (within 6 pixels) share one label ("a, b");
    each label then takes the first of a few positions around its point whose
    box overlaps no label placed before and no other point (greedy, in pixel
    space after the layout is fixed).
    """
    if not pts:
        return
    fig = ax.figure
    fig.draw_without_rendering()  # fix the layout so data -> pixel transforms are final
    xy = ax.transData.transform(np.column_stack(
        [[p["n_selected"] for p in pts], [p["test"] for p in pts]]).astype(float))
    groups: list = []
    for i in range(len(pts)):
        for g in groups:
            if np.all(np.abs(xy[i] - xy[g[0]]) < 6):
                g.append(i)
                break
        else:
            groups.append([i])
    fontsize = 8.5
    px = fontsize * fig.dpi / 72
    frame = ax.get_window_extent()
    marks = [(x - 6, y - 6, x + 6, y + 6) for x, y in xy]
    placed: list = []
    legend = ax.get_legend()
    if legend is not None:
        e = legend.get_window_extent()
        placed.append((e.x0, e.y0, e.x1, e.y1))

    def free(box, own):
        x0, y0, x1, y1 = box
        if x0 < frame.x0 + 2 or x1 > frame.x1 - 2 or y0 < frame.y0 + 2 or y1 > frame.y1 - 2:
            return False
        others = placed + [m for k, m in enumerate(marks) if k not in own]
        return not any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in others)

    for g in groups:
        text = ", ".join(pts[i]["method"] for i in g)
        w, h = 0.56 * px * len(text), 1.15 * px
        x, y = xy[g[0]]
        cands = [(7, 3), (7, -h - 3), (-7 - w, 3), (-7 - w, -h - 3), (-w / 2, 8),
                 (-w / 2, -h - 8), (7, h + 3), (7, -2 * h - 3), (-7 - w, h + 3),
                 (-7 - w, -2 * h - 3), (-w / 2, h + 10), (-w / 2, -2 * h - 10)]
        boxes = [(x + dx, y + dy, x + dx + w, y + dy + h) for dx, dy in cands]
        k = next((k for k, b in enumerate(boxes) if free(b, g)), 0)
        placed.append(boxes[k])
        first = pts[g[0]]
        ax.annotate(text, (first["n_selected"], first["test"]), textcoords="offset pixels",
                    xytext=cands[k], ha="left", va="bottom", fontsize=fontsize,
                    color=styles[g[0]][0])


def method_figures(result) -> tuple[list, list]:
    """Method-specific figures named by the method table (``MethodSpec.figures``).

    For each fitted selector (of the first seed when several ran), the
    ``"module:function"`` of its table row is imported on demand and called as
    ``function(method, selector)``. Methods not in the table give no figure.

    Returns
    -------
    figures : list of (method, title, Figure)
    problems : list of str
        One line per family module that failed while drawing (the report
        still gets written; the line is shown under "Notes").
    """
    runs = _runs(result)
    if not runs or not hasattr(runs[0], "selectors"):
        return [], []
    out, problems = [], []
    for method, sel in runs[0].selectors.items():
        from .._registry import get_method

        try:
            modname, _, fname = get_method(method).figures.partition(":")
        except (KeyError, AttributeError):
            continue
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as exc:
            if exc.name == modname:
                continue
            problems.append(f"figures for {method}: {modname} could not be imported ({exc}).")
            continue
        fn = getattr(mod, fname or "figures", None)
        if fn is None:
            continue
        try:
            figs = list(fn(method, sel))
        except Exception as exc:  # a family's plot must not cost the user the whole report
            problems.append(f"figures for {method} failed: {type(exc).__name__}: {exc}")
            continue
        for title, fig in figs:
            out.append((method, title, fig))
    return out, problems


# ---------------------------------------------------------------- writing
def _template():
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("featsieve.report", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined,
    )
    return env.get_template("report.html.j2")


def _png_file(path) -> str | None:
    try:
        return base64.b64encode(Path(path).read_bytes()).decode("ascii")
    except OSError:
        return None


def render_report(result=None, *, title: str | None = None, tables: dict | None = None,
                  notes=(), params: dict | None = None, command: str | None = None,
                  figures=(), fingerprint: dict | None = None, dataset: str | None = None) -> str:
    """The self-contained HTML page for a run (images embedded as base64 PNG).

    Parameters
    ----------
    result, title, tables, notes, params, command, fingerprint, dataset
        As for :func:`report_data`.
    figures : iterable of (title, Figure or path to a PNG), default=()
        Extra figures (e.g. a reproduction's saved PNGs); a ReproduceResult's
        own ``figures`` paths are embedded automatically.

    Returns
    -------
    html : str
        Sections (``<section id=...>``): ``summary``, ``comparison`` (the table),
        ``score-vs-features`` (chart), ``method-figures``, ``inflation`` (only
        when the rows carry inflation columns), ``tables``, ``figures``,
        ``notes``, ``run`` (parameters and seeds), ``data`` (fingerprint) and
        ``environment`` (package versions). Sections without content are left
        out, except ``run``, ``data`` and ``environment``.
    """
    data = report_data(result, title=title, tables=tables, notes=notes, params=params,
                       command=command, fingerprint=fingerprint, dataset=dataset)
    ctx = {"d": data, "table": None, "chart": None, "method_figs": [], "inflation": None,
           "runs_detail": [], "extra_figs": []}
    notes_out = list(data["notes"])
    if _is_comparison(result):
        ctx["table"] = _table(result)
        t, fig = score_vs_features_figure(result)
        ctx["chart"] = {"title": t, "png": figure_to_base64(fig, dpi=110),
                        "points": data["chart"]}
        figs, problems = method_figures(result)
        ctx["method_figs"] = [{"method": m, "title": t, "png": figure_to_base64(f)}
                              for m, t, f in figs]
        notes_out += problems
        runs = _runs(result)
        rows_all = [r for run in runs for r in run.rows]
        infl = data["inflation_columns"]
        if infl:
            ctx["inflation"] = {
                "help": [(k, COLUMN_HELP[k]) for k in ["gap"] + infl if k in COLUMN_HELP],
                "columns": ["method", "seed", "selection_score", "test_score", "gap"] + infl,
                "rows": [[r["method"], str(run.random_state)] + [_fmt(r.get(k), k) for k in
                          ["selection_score", "test_score", "gap"] + infl]
                         for run in runs for r in run.rows],
            }
            if len(runs) == 1:  # one seed: the seed is in the summary already
                ctx["inflation"]["columns"].pop(1)
                for row in ctx["inflation"]["rows"]:
                    row.pop(1)
        if len(runs) > 1:
            ctx["runs_detail"] = [
                {"seed": run.random_state,
                 "rows": [[r["method"], str(r["n_selected"]), _fmt(r["test_score"]),
                           _fmt(r.get("gap")), r.get("tuned") or ""] for r in run.rows]}
                for run in runs]
        ctx["selected"] = [{"method": r["method"], "columns": ", ".join(r["selected"])}
                           for r in runs[0].rows if r["method"] != "all"]
        del rows_all
    else:
        ctx["selected"] = []
        for f in data.get("figures", []):
            if str(f).lower().endswith(".png"):
                png = _png_file(f)
                if png:
                    ctx["extra_figs"].append({"title": Path(f).name, "png": png})
    for t, f in figures:
        png = _png_file(f) if isinstance(f, (str, os.PathLike)) else figure_to_base64(f)
        if png:
            ctx["extra_figs"].append({"title": t, "png": png})
    ctx["notes"] = notes_out
    ctx["facts"] = _facts(data)
    ctx["tables"] = {k: _frame_rows(v) for k, v in data["tables"].items()}
    return _template().render(**ctx)


def _facts(d: dict) -> list:
    """(label, value) pairs for the summary line, from whatever the result holds."""
    facts = []
    if d.get("dataset") is not None:
        facts.append(("data", d["dataset"]))
    if d.get("n_samples") is not None:
        facts.append(("rows × columns", f"{d['n_samples']} × {d['n_features']}"))
    for key in ("task", "metric"):
        if d.get(key):
            facts.append((key, d[key]))
    if "greater_is_better" in d:
        facts.append(("better", "higher" if d["greater_is_better"] else "lower"))
    if d.get("seeds"):
        facts.append(("seeds", ", ".join(map(str, d["seeds"]))))
    elif "random_state" in d:
        facts.append(("seed", d["random_state"]))
    if isinstance(d.get("split"), dict):
        facts.append(("split", " / ".join(f"{k} {v}" for k, v in d["split"].items())))
    return facts


def _frame_rows(records: list) -> dict:
    cols = list(dict.fromkeys(k for r in records for k in r))
    return {"columns": cols,
            "rows": [[_fmt(r.get(c), c) if not isinstance(r.get(c), (list, dict))
                      else str(r.get(c)) for c in cols] for r in records]}


def write_report(path, result=None, **kwargs) -> Path:
    """Write the HTML report to ``path`` (atomically: a temporary file, then a rename).

    Parameters
    ----------
    path : str or path-like
        Destination (``.html``); parent directories are created.
    result
        A ``ComparisonResult``, ``SeedsComparison``, ``ReproduceResult`` or None.
    **kwargs
        ``title``, ``tables``, ``notes``, ``params``, ``command``, ``figures``,
        ``fingerprint``, ``dataset``: see :func:`render_report`.

    Returns
    -------
    path : pathlib.Path

    Raises
    ------
    ValueError
        ``path`` is a directory.
    """
    out = Path(path)
    if out.is_dir():
        raise ValueError(f"{out} is a directory; give a file name such as report.html.")
    html = render_report(result, **kwargs)
    with atomic_write(out) as tmp:
        tmp.write_text(html, encoding="utf-8")
    return out
