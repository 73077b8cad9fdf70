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
    "score_distribution_data",
    "score_distribution_figure",
    "score_vs_features_data",
    "score_vs_features_figure",
    "selection_frequency_data",
    "selection_frequency_figure",
    "write_report",
]

# the columns of the comparison table, in display order (from ComparisonResult.to_frame)
STANDARD_COLUMNS = ["method", "n_selected", "test_mean", "diff_vs_all",
                    "p_value_adj", "vs_all", "stability", "selection_score", "gap", "seconds",
                    "model_fits", "tuned"]
_HEADERS = {
    "method": "method", "n_selected": "columns: mean (range)",
    "test_mean": "test (95% interval)", "diff_vs_all": "minus all features (95% interval)",
    "p_value_adj": "p (Holm)", "vs_all": "vs all", "stability": "stability (95% interval)",
    "selection_score": "selection's own number", "gap": "gap (optimism)", "seconds": "seconds",
    "model_fits": "model fits", "tuned": "tuned",
}
# row keys that are not table columns (lists, dicts, per-repeat details)
_NOT_SHOWN = {"selected", "n_selected_range", "test_ci", "test_halfwidth", "test_se", "test_scores", "diff_ci", "p_value",
              "stability_ci", "selection_frequency", "repeats", "constant_model", "test_score",
              "strategy", "n_selected_mean",
              "diff_test", "k_at_top"}  # strategies, sign tests, k at the top: in the notes
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


def _is_comparison(result) -> bool:
    return result is not None and hasattr(result, "rows") and hasattr(result, "seeds")


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
            if k in STANDARD_COLUMNS or k in _NOT_SHOWN or k in extra:
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


def score_vs_features_data(result) -> dict:
    """The points of the chart "test score against number of features".

    Parameters
    ----------
    result : ComparisonResult

    Returns
    -------
    data : dict
        ``metric``, ``greater_is_better``, ``n_features``, ``n_repeats`` and
        ``points``: one dict per method (``method``, ``n_selected`` (mean over
        repeats), ``n_range`` ([min, max]), ``test`` (mean), ``test_ci`` (95%
        interval, corrected resampled t), ``vs_all``). ``all`` is the
        all-features point (drawn as a line with its interval as a band);
        the baseline is drawn as a dotted line (``baseline``).
    """
    points = []
    for r in result.rows:
        points.append({"method": r["method"], "n_selected": _clean(r["n_selected"]),
                       "n_range": list(r["n_selected_range"]), "test": _clean(r["test_mean"]),
                       "test_ci": [_clean(v) for v in r["test_ci"]],
                       "vs_all": r.get("vs_all")})
    by = {p["method"]: p for p in points}
    return {
        "metric": result.metric,
        "greater_is_better": bool(result.greater_is_better),
        "n_features": int(result.n_features),
        "n_repeats": int(result.n_repeats),
        "points": [p for p in points if p["method"] not in ("all", "baseline")],
        "all": by.get("all"),
        "baseline": by.get("baseline"),
    }


def selection_frequency_data(result, *, max_columns: int = 40) -> dict:
    """Columns x methods: the share of repeats in which each method kept each column.

    Parameters
    ----------
    result : ComparisonResult
    max_columns : int, default=40
        Show at most this many columns: those most often selected (by their
        highest share over methods, then their mean share); the rest are
        counted in ``n_hidden``.

    Returns
    -------
    data : dict
        ``methods`` (list, selection methods only), ``columns`` (list, the
        most often kept first: by mean share over methods, then highest share),
        ``frequency`` (ndarray of shape (n_columns, n_methods), in [0, 1]),
        ``stability`` (one per method, None when undefined), ``n_hidden``
        (columns selected by some method but not shown), ``n_repeats``.
    """
    rows = [r for r in result.rows if r["method"] not in ("all", "baseline")]
    cols = list(dict.fromkeys(c for r in rows for c in r["selection_frequency"]))
    freq = np.array([[r["selection_frequency"].get(c, 0.0) for r in rows] for c in cols],
                    dtype=float).reshape(len(cols), len(rows))
    # most often kept first (mean share over methods, then the highest share)
    order = np.lexsort((np.arange(len(cols)), -freq.max(axis=1), -freq.mean(axis=1)))
    hidden = max(0, len(cols) - max_columns)
    order = order[:max_columns]
    cols, freq = [cols[i] for i in order], freq[order]
    return {"methods": [r["method"] for r in rows], "columns": cols, "frequency": freq,
            "stability": [_clean(r.get("stability")) for r in rows], "n_hidden": hidden,
            "n_repeats": int(result.n_repeats)}


def score_distribution_data(result) -> dict:
    """Every repeat's test score per method, and the all-features reference.

    Returns
    -------
    data : dict
        ``methods`` (list), ``scores`` (list of lists, one score per repeat),
        ``vs_all`` (list), ``all`` (the all-features scores, or None),
        ``all_mean``, ``metric``, ``greater_is_better``.
    """
    rows = [r for r in result.rows if r["method"] != "all"]
    base = next((r for r in result.rows if r["method"] == "all"), None)
    return {"methods": [r["method"] for r in rows],
            "scores": [[float(v) for v in r["test_scores"]] for r in rows],
            "vs_all": [r.get("vs_all") for r in rows],
            "all": None if base is None else [float(v) for v in base["test_scores"]],
            "all_mean": None if base is None else _clean(base["test_mean"]),
            "metric": result.metric, "greater_is_better": bool(result.greater_is_better)}


def _table(result) -> dict:
    """Columns (key, header, css class) and formatted rows of the comparison table."""
    rows = result.rows
    extra = _extra_columns(rows)
    infl = set(inflation_columns(rows))
    keys = STANDARD_COLUMNS + extra
    # interval cells may break before their interval and ``tuned`` between its words, so
    # the table fits a 1280-pixel window (it scrolls inside its own box when it cannot)
    cols = [{"key": k, "header": _HEADERS.get(k, k.replace("_", " ")),
             "cls": "infl" if (k in infl or k == "gap") else (
                 "ci" if k in ("test_mean", "diff_vs_all", "stability") else
                 "tuned" if k == "tuned" else "")} for k in keys]
    body = []
    for r in rows:
        cells = []
        for k in keys:
            v = r.get(k)
            if k == "test_mean":
                cells.append(_ci(v, r["test_ci"]))
            elif k == "diff_vs_all":
                cells.append(_ci(v, r["diff_ci"], sign=True))
            elif k == "stability":
                cells.append(_ci(v, r["stability_ci"], digits=2))
            elif k == "n_selected":
                lo, hi = r["n_selected_range"]
                cells.append(f"{v:g}" if lo == hi else f"{v:.3g} ({lo}–{hi})")
            elif k == "p_value_adj":
                cells.append("–" if _clean(v) is None else f"{v:.3g}")
            elif k == "method" and r.get("constant_model", 0) * 2 > result.n_repeats:
                cells.append(f"{v} (constant model)")
            else:
                cells.append(_fmt(v, k))
        body.append({"cells": cells, "verdict": r.get("vs_all") or ""})
    return {"columns": cols, "rows": body}


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


def _ci(mean, ci, *, digits=4, sign=False) -> str:
    """``mean [lo, hi]`` (an interval of zero width or none: the mean alone)."""
    mean = _clean(mean)
    if mean is None:
        return "–"
    lo, hi = (_clean(v) for v in (ci or (None, None)))

    def f(v):
        v = v + 0.0 if abs(v) >= 5 * 10.0 ** -(digits + 1) else 0.0  # no "-0.00"
        return (f"{v:+.{digits - 1}f}" if sign else f"{v:.{digits}f}") if digits < 4 else (
            (f"{v:+.3f}" if abs(v) < 1000 else f"{v:+.4g}") if sign else _fmt(v))

    if lo is None or hi is None or lo == hi:
        return f(mean)
    return f"{f(mean)} [{f(lo)},\u00a0{f(hi)}]"  # breaks only before the interval


def report_data(result=None, *, title: str | None = None, tables: dict | None = None,
                notes=(), params: dict | None = None, command: str | None = None,
                fingerprint: dict | None = None, dataset: str | None = None) -> dict:
    """Everything the HTML report shows, as JSON-ready data (no images).

    This is also what ``featsieve compare --json`` writes: for a comparison
    the keys of ``ComparisonResult.to_dict()``
    come first, unchanged, then ``title``, ``verdict``, ``chart`` (the points of
    the score-against-features chart), ``inflation_columns``, ``tables``,
    ``notes``, ``command``, ``environment`` (package versions) and
    ``created`` (UTC time).

    Parameters
    ----------
    result : ComparisonResult, InflationResult, ReproduceResult or None
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
        run_params.update(result.params)
        run_params["seeds"] = list(result.seeds)
        out["verdict"] = result.verdict()
        out["chart"] = score_vs_features_data(result)
        out["inflation_columns"] = inflation_columns(result.rows)
        notes = list(result.notes) + notes
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

    Vertical bars are the 95% interval of the test mean over repeats
    (corrected resampled t); horizontal bars the range of the number of
    columns selected. The all-features mean is a dashed line with its
    interval as a grey band; the baseline (no column) a dotted line. Methods
    better than all features are drawn filled, worse ones hollow with a cross.

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
        lo, hi = p["test_ci"]
        yerr = None if lo is None else [[p["test"] - lo], [hi - p["test"]]]
        xerr = [[p["n_selected"] - p["n_range"][0]], [p["n_range"][1] - p["n_selected"]]]
        hollow = p["vs_all"] == "worse"
        ax.errorbar(p["n_selected"], p["test"], xerr=xerr, yerr=yerr, fmt=marker, ms=7,
                    color=c, mfc="white" if hollow else c, mec=c if hollow else "white",
                    mew=1.2 if hollow else 0.6, capsize=2.5, elinewidth=1,
                    ecolor=(*c[:3], 0.45), zorder=3)
    base = d["all"]
    if base is not None and base["test"] is not None:
        ax.axhline(base["test"], color="0.3", ls="--", lw=1.2,
                   label=f"all {d['n_features']} features (band: 95% interval)")
        lo, hi = base["test_ci"]
        if lo is not None and lo != hi:
            ax.axhspan(lo, hi, color="0.5", alpha=0.12, lw=0)
    if d["baseline"] is not None and d["baseline"]["test"] is not None:
        ax.axhline(d["baseline"]["test"], color="0.5", ls=":", lw=1.2,
                   label="baseline: no column (majority class / mean)")
    ax.margins(y=0.08)
    if d["n_features"] > 100:  # many columns: a log axis keeps small selections apart
        ax.set_xscale("log")
        ax.set_xlim(left=0.8, right=d["n_features"] * 1.3)
    else:
        ax.set_xlim(left=0, right=d["n_features"] * 1.05 + 1)
    ax.set_xlabel("number of selected features (mean over repeats; bars: range)")
    better = "higher" if d["greater_is_better"] else "lower"
    ax.set_ylabel(f"test {d['metric']} ({better} is better)")
    ax.grid(True, alpha=0.3)
    if base is not None:
        ax.legend(fontsize=8, loc="lower right")
    _label_points(ax, pts, styles)
    reps = (f"mean and 95% interval over {d['n_repeats']} repeats" if d["n_repeats"] > 1
            else "one repeat")
    return (f"Test {d['metric']} against number of features ({reps})", fig)


def selection_frequency_figure(result):
    """Heat map: columns (rows of the map) x methods, the share of repeats selecting each.

    Returns
    -------
    title : str
    fig : matplotlib.figure.Figure
    """
    from matplotlib.figure import Figure

    d = selection_frequency_data(result)
    n_c, n_m = len(d["columns"]), len(d["methods"])
    fig = Figure(figsize=(max(5.0, 1.5 + 0.42 * n_m), max(2.6, 1.6 + 0.2 * n_c)),
                 layout="constrained")
    ax = fig.add_subplot()
    if n_c == 0 or n_m == 0:
        ax.text(0.5, 0.5, "no method selected any column", ha="center", va="center")
        ax.set_axis_off()
        return ("Selection frequency", fig)
    im = ax.imshow(d["frequency"], aspect="auto", cmap="Blues", vmin=0, vmax=1,
                   interpolation="nearest")
    ax.set_yticks(range(n_c), d["columns"], fontsize=7)
    labels = [m if s is None else f"{m}\n{s + 0.0 if abs(s) >= 0.005 else 0.0:.2f}" for m, s in
              zip(d["methods"], d["stability"], strict=True)]
    ax.set_xticks(range(n_m), labels, fontsize=7.5, rotation=90)
    ax.xaxis.tick_top()
    ax.set_xlabel("method (and the stability of its selection)", fontsize=8)
    ax.xaxis.set_label_position("top")
    cb = fig.colorbar(im, ax=ax, shrink=min(1.0, 12 / max(n_c, 1)), aspect=15, pad=0.02,
                      anchor=(0.0, 1.0))
    cb.set_label(f"share of {d['n_repeats']} repeats selecting the column", fontsize=8)
    more = f"; {d['n_hidden']} less often selected columns not shown" if d["n_hidden"] else ""
    return (f"Selection frequency: how often each method kept each column{more}", fig)


def score_distribution_figure(result):
    """Each method's test score in every repeat, with all features as a reference line.

    Returns
    -------
    title : str
    fig : matplotlib.figure.Figure
    """
    from matplotlib.figure import Figure

    d = score_distribution_data(result)
    n = len(d["methods"])
    fig = Figure(figsize=(9, max(2.6, 0.9 + 0.28 * n)), layout="constrained")
    ax = fig.add_subplot()
    ypos = np.arange(n)[::-1]
    colors = {"better": "tab:green", "worse": "tab:red"}
    for y, sc, v in zip(ypos, d["scores"], d["vs_all"], strict=True):
        c = colors.get(v, "tab:blue")
        ax.scatter(sc, np.full(len(sc), y), s=22, color=c, alpha=0.75, zorder=3, lw=0)
        ax.plot([np.mean(sc)], [y], marker="|", ms=14, mew=2, color=c, zorder=4)
    if d["all_mean"] is not None:
        ax.axvline(d["all_mean"], color="0.3", ls="--", lw=1.2,
                   label="all features (mean over repeats)")
        ax.legend(fontsize=8, loc="lower right", bbox_to_anchor=(1.0, 1.0), frameon=False)
    ax.set_yticks(ypos, d["methods"], fontsize=8)
    better = "higher" if d["greater_is_better"] else "lower"
    ax.set_xlabel(f"test {d['metric']} in each repeat ({better} is better; tick: mean)")
    ax.grid(True, axis="x", alpha=0.3)
    ax.set_ylim(-0.7, n - 0.3)
    return ("Test scores per repeat (green: better than all features, red: worse, "
            "blue: not distinguishable)", fig)


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

    For each fitted selector of the first repeat, the ``"module:function"`` of
    its table row is imported on demand and called as
    ``function(method, selector, support=..., cut=...)``: ``support`` is the
    selection of that repeat (after tuning on model-val; the table's ``tuned``
    column gives every repeat's) and ``cut`` the chosen value
    (``{"n_features": 10}``, ``{"slack": 0.01}``; None without tuning), so the
    figure shows what was tuned, not the selector's own default; captions say
    "repeat 1". A function that takes neither is called as
    ``function(method, selector)``. Methods not in the table give no figure.

    Returns
    -------
    figures : list of (method, title, Figure)
    problems : list of str
        One line per family module that failed while drawing (the report
        still gets written; the line is shown under "Notes").
    """
    if not hasattr(result, "selectors"):
        return [], []
    out, problems = [], []
    supports = getattr(result, "supports", {})
    cuts = getattr(result, "tuned_cuts", {})
    for method, sel in result.selectors.items():
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
        kw = {}
        params = _parameters(fn)
        if "support" in params and method in supports:
            kw["support"] = np.asarray(supports[method], bool)
        if "cut" in params:
            kw["cut"] = cuts.get(method)
        try:
            figs = list(fn(method, sel, **kw))
        except Exception as exc:  # a family's plot must not cost the user the whole report
            problems.append(f"figures for {method} failed: {type(exc).__name__}: {exc}")
            continue
        for title, fig in figs:
            out.append((method, title, fig))
    return out, problems


def _parameters(fn) -> set:
    import inspect

    try:
        return set(inspect.signature(fn).parameters)
    except (TypeError, ValueError):  # pragma: no cover
        return set()


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
        ``score-vs-features`` (chart), ``score-distribution`` (every repeat's
        test score), ``selection-frequency`` (heat map), ``method-figures``, ``inflation`` (only
        when the rows carry inflation columns), ``tables``, ``figures``,
        ``notes``, ``run`` (parameters and seeds), ``data`` (fingerprint) and
        ``environment`` (package versions). Sections without content are left
        out, except ``run``, ``data`` and ``environment``.
    """
    data = report_data(result, title=title, tables=tables, notes=notes, params=params,
                       command=command, fingerprint=fingerprint, dataset=dataset)
    ctx = {"d": data, "table": None, "chart": None, "method_figs": [], "inflation": None,
           "runs_detail": None, "extra_figs": [], "heatmap": None, "distribution": None}
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
        t, fig = selection_frequency_figure(result)
        ctx["heatmap"] = {"title": t, "png": figure_to_base64(fig, dpi=100)}
        t, fig = score_distribution_figure(result)
        ctx["distribution"] = {"title": t, "png": figure_to_base64(fig, dpi=100)}
        infl = data["inflation_columns"]
        if infl:
            keys = ["selection_score", "test_mean", "gap"] + infl
            ctx["inflation"] = {
                "help": [(k, COLUMN_HELP[k]) for k in ["gap"] + infl if k in COLUMN_HELP],
                "columns": ["method"] + keys,
                "rows": [[r["method"]] + [_fmt(r.get(k), k) for k in keys]
                         for r in result.rows],
            }
        ctx["runs_detail"] = {
            "seeds": list(result.seeds),
            "rows": [[r["method"]] + [f"{_fmt(x['test_score'])} ({x['n_selected']}"
                                      f"{', ' + x['tuned'] if x['tuned'] else ''})"
                                      for x in r["repeats"]] for r in result.rows]}
        ctx["selected"] = [{"method": r["method"], "columns": ", ".join(r["selected"]) or "–"}
                           for r in result.rows if r["method"] not in ("all", "baseline")]
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
    if d.get("n_repeats"):
        facts.append(("repeats", str(d["n_repeats"])))
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
        A ``ComparisonResult``, ``InflationResult``, ``ReproduceResult`` or None.
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
