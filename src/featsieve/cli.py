"""The ``featsieve`` command line: a thin layer over the public library.

Parse arguments, call the library, print and write results, return an exit
code. Bad input gives one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import sys
import warnings
from contextlib import contextmanager
from pathlib import Path

import click

from ._warnings import DataWarning
from .models import MODEL_NAMES

EXIT_BAD_INPUT = 2
EXIT_PARTIAL = 3  # compare/audit ran, but at least one method failed (its row says why)
MAX_SEEDS = 1000  # --seeds: each seed is a whole comparison


class BadInput(click.ClickException):
    exit_code = EXIT_BAD_INPUT

    def show(self, file=None):
        click.echo(f"featsieve: error: {self.format_message()}", err=True)


def _fail(exc: BaseException):
    msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
    msg = " ".join(str(msg).split())
    raise BadInput(msg or type(exc).__name__) from None


def _parse_k(text):
    """``-k``: a whole number is a count ("3", "2.0", "1e3"), else a fraction ("0.5", "1.0").

    Raises BadInput (exit 2) for anything else: text, 0, a negative number, a
    fraction above 1 that is not a whole number.
    """
    if text is None:
        return None
    bad = BadInput(f"-k/--n-features must be a positive count (1, 2, ...) or a fraction in "
                   f"(0, 1]; got {text!r}.")
    try:
        value = int(text) if text.strip().lstrip("+-").isdigit() else float(text)
    except ValueError:
        raise bad from None
    if not value > 0 or (value > 1 and not float(value).is_integer()):
        raise bad
    # "2.0" and "1e3" are counts; fractions are in (0, 1]
    return int(value) if value > 1 else value


def _write_text(path, text):
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(text)


def _n_jobs(value):
    """``--n-jobs``: -1 is every core; more than the machine's cores is clamped, with a note."""
    if value == 0:
        raise click.BadParameter("0 jobs cannot run anything; give a positive count, or -1 "
                                 "for all cores.")
    import os

    cores = os.cpu_count() or 1
    if value is not None and value > cores:
        click.echo(f"featsieve: note: --n-jobs {value} is more than this machine's {cores} "
                   f"cores; using {cores}.", err=True)
        return cores
    return value


def _method_list(text):
    """``--methods``: comma-separated names, in order, each once."""
    if text is None:
        return None
    names = list(dict.fromkeys(m.strip() for m in text.split(",") if m.strip()))
    if not names:
        raise BadInput("--methods is empty; give method names (see `featsieve methods`) or "
                       "leave it out for every method.")
    return names


_shown_warnings: set = set()  # emptied by main(): each warning once per command


def _show_warning(message, category, filename, lineno, file=None, line=None):
    text = " ".join(str(message).split())
    if text in _shown_warnings:  # e.g. the same constant column, met by every method
        return
    _shown_warnings.add(text)
    click.echo(f"featsieve: warning: {text}", err=True)


def _progress_on(quiet: bool) -> bool:
    return not quiet and sys.stderr.isatty()


def _progress_or_lines(quiet: bool) -> bool:
    """Bars on a terminal; elsewhere the loops that print lines do (compare's methods)."""
    return not quiet


def _fmt(v, digits=4):
    if v is None:
        return "-"
    if isinstance(v, float):
        if v != v:
            return "-"
        return f"{v:.{digits}g}" if abs(v) >= 1000 else f"{v:.{digits}f}"
    return str(v)


def _echo_table(headers, rows, err=False):
    """Print rows of strings under headers: first column left-aligned, the rest right."""
    widths = [max([len(h)] + [len(row[i]) for row in rows]) for i, h in enumerate(headers)]

    def fmt(cells):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True)))

    line = fmt(headers)
    click.echo(line, err=err)
    click.echo("-" * len(line), err=err)
    for row in rows:
        click.echo(fmt(row), err=err)


def _pm(mean, half, digits=4, sign=False, repeats=None):
    """``mean ± half``; an interval of zero width over several repeats (every value
    equal: no interval, see the notes) is ``mean (all equal)``, not ``± 0``."""
    if mean is None or mean != mean:
        return "-"
    mean = float(mean) + 0.0 if abs(mean) >= 0.5 * 10.0 ** -digits else 0.0  # no "-0.00"
    text = (f"{mean:+.3f}" if abs(mean) < 1000 else f"{mean:+.{digits}g}") if sign \
        else _fmt(mean, digits)
    if half is not None and half == half and abs(half) < 1e-12:  # rounding, not a spread
        half = 0.0
    if half == 0 and repeats is not None:
        return f"{text} (all equal)" if repeats > 1 else text
    return text if half is None or half != half else f"{text} ± {half:.2g}"


def _half(ci, mean):
    lo, hi = ci if ci is not None else (None, None)
    if lo is None or hi is None or mean is None:
        return None
    return (hi - lo) / 2


def _stability_cell(st, ci):
    """``st ± half``, or ``st [lo, hi]`` when the interval was clipped to the measure's range
    (an interval reaching past 1 or below ``-1/(M-1)``) and is no longer symmetric."""
    lo, hi = ci if ci is not None else (None, None)
    if lo is None or hi is None or abs((hi - st) - (st - lo)) < 5e-3:
        return _pm(st, _half(ci, st), digits=2)
    return f"{_pm(st, None, digits=2)} [{lo:.2f}, {hi:.2f}]"


def _print_table(result):
    """The comparison table: one row per method (the columns of ``to_frame()``)."""
    df = result.to_frame()
    if "failed" in df.columns:  # printed below, as "failed: why"
        df = df[df["failed"].isna()].drop(columns="failed")
    headers = ["method", "n_sel", "range", "test (95% CI)", "vs all (95% CI)", "p_adj",
               "verdict", "stability", "gap", "seconds", "fits", "tuned"]
    rows = []
    for r in df.itertuples():
        lo, hi = r.n_selected_range
        st = None if r.stability is None or r.stability != r.stability else r.stability
        rows.append([
            str(r.method) + (" (!)" if r.constant_model * 2 > result.n_repeats else ""),
            f"{r.n_selected:.3g}", str(lo) if lo == hi else f"{lo}-{hi}",
            _pm(r.test_mean, r.test_halfwidth, repeats=result.n_repeats),
            _pm(r.diff_vs_all, _half(r.diff_ci, r.diff_vs_all), sign=True,
                repeats=result.n_repeats)
            if r.method != "all" else "-",
            "-" if r.p_value_adj is None or r.p_value_adj != r.p_value_adj
            else f"{r.p_value_adj:.3g}",
            r.vs_all if isinstance(r.vs_all, str) else "-",
            "-" if st is None else _stability_cell(st, r.stability_ci),
            _fmt(r.gap, 3), f"{r.seconds:.2f}", str(r.model_fits), str(r.tuned or "")])
    if "nested_cv" in df.columns:  # compare --audit
        headers += ["noise infl", "± se", "pool", "nested cv", "± sd"]
        for row, r in zip(rows, df.itertuples(), strict=True):
            row += [_fmt(r.noise_inflation, 3), _fmt(r.noise_se, 3),
                    "-" if r.noise_pool is None or r.noise_pool != r.noise_pool
                    else str(int(r.noise_pool)), _fmt(r.nested_cv), _fmt(r.nested_cv_sd, 3)]
    _echo_table(headers, rows)
    width = max([len(headers[0])] + [len(r[0]) for r in rows])
    for f in getattr(result, "failed", ()):  # a method that raised: a row that says why
        click.echo(f"{f['method']:<{width}}  failed: {f['failed']}")
    if any(r.constant_model * 2 > result.n_repeats for r in df.itertuples()):
        click.echo("(!) the refit model predicted one value for every test row in most repeats")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="featsieve")
def cli():
    """featsieve: supervised feature selection, compared honestly."""


_common = [
    click.option("--target", "-t", default=None, help="Target column (optional for bundled data)."),
    click.option("--drop", multiple=True, metavar="COLUMN",
                 help="Leave this column out of the features (an identifier, a saved index); "
                      "repeat for several."),
    click.option("--task", type=click.Choice(["auto", "classification", "regression"]),
                  default="auto", show_default=True),
    click.option("--model", type=click.Choice(MODEL_NAMES), default="lightgbm",
                 show_default=True, help="Model used inside wrappers and for scoring."),
    click.option("--seed", type=int, default=0, show_default=True, help="Random seed."),
    click.option("--n-jobs", type=int, default=None, callback=lambda ctx, param, v: _n_jobs(v),
                 help="Parallel jobs (joblib; -1: all cores)."),
    click.option("--quiet", "-q", is_flag=True, help="No progress bars or warnings."),
    click.option("--categorical", multiple=True, metavar="COLUMN",
                 help="Read this column as categories whatever its values (codes, zip codes); "
                      "repeat for several."),
    click.option("--numeric", multiple=True, metavar="COLUMN",
                 help="Read this column as numbers (text parsed; other values missing). Also "
                      "keeps a column that looks like an ID; repeat for several."),
]


def common(f):
    for opt in reversed(_common):
        f = opt(f)
    return f


@cli.command()
@click.argument("data", required=False)
@common
@click.option("--methods", "-m", default=None,
              help="Comma-separated methods (default: the default set for the task, sized to the "
                   "table; methods left out are named with the reason): "
                   "names, 'comparators' for all comparators, or module:Class import paths "
                   "of your own selectors.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None,
              help="Write the results as JSON here (the same data as --report).")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None,
              help="Write a self-contained HTML report here (table, charts, run details).")
@click.option("--repeats", type=click.IntRange(min=1), default=None,
              help="Honest splits to run (one seed each, --seed, --seed+1, ...; default: 5 "
                   "below 10,000 rows, 3 below 100,000, else 2).")
@click.option("--seeds", default=None, metavar="N|S1,S2,...",
              help="The repeats' seeds: N seeds starting at --seed, or a comma-separated list.")
@click.option("--metric", default=None, metavar="SCORER",
              help="Any scikit-learn scorer name (balanced_accuracy, f1, roc_auc, r2, "
                   "neg_mean_absolute_error, ...) for tuning and test scores. Default: "
                   "accuracy (balanced_accuracy when a class is under 20% of rows); mse.")
@click.option("--groups", "groups_col", default=None, metavar="COL",
              help="Rows sharing a value of COL stay in one part of every split (COL is not "
                   "a feature).")
@click.option("--time", "time_col", default=None, metavar="COL",
              help="Split in time order of COL: train before selection-val before model-val "
                   "before test (COL is not a feature).")
@click.option("--k-grid", default=None, metavar="K1,K2,...",
              help="Numbers of columns to try for methods tuned on k (counts, or fractions "
                   "below 1); default: 1, 2, 4, ... up to half the columns, plus M/6, M/5, "
                   "M/4.")
@click.option("--time-budget", type=click.FloatRange(min=0, min_open=True), default=None,
              metavar="SECONDS",
              help="Start no repeat after SECONDS (the first always runs); says how many ran.")
@click.option("--backend", type=click.Choice(["loky", "threading", "dask", "ray"]), default=None,
              help="joblib backend for the parallel work (dask/ray: run on a cluster).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Cluster address for --backend dask (tcp://HOST:PORT) or ray "
                   "(ray://HOST:PORT or auto); default: start a local cluster.")
@click.option("--audit", is_flag=True,
              help="Add the selection-audit columns: noise-pool inflation (mean and standard "
                   "error) and nested-CV score of each method (slower).")
def compare(data, target, drop, task, model, seed, n_jobs, quiet, categorical, numeric, methods,
            json_path, report_path,
            repeats, seeds, metric, groups_col, time_col, k_grid, time_budget, backend, scheduler,
            audit):
    """Compare selectors on DATA (a CSV, Parquet, Arrow or JSON table or a bundled name; default: sonar).

    Every method runs on the same repeated honest splits; the table gives each
    method's test mean with a 95% interval, its paired difference to all
    features (corrected resampled t-test, Holm-adjusted) and the stability of
    its selection across repeats. Repeats run in parallel on every core unless
    --n-jobs says otherwise.
    """
    from . import evaluation, io

    with warnings.catch_warnings():
        if quiet:
            warnings.simplefilter("ignore")
        try:
            seed_list = _parse_seeds(seeds, seed)
            if seed_list is not None and repeats is not None:
                raise ValueError("Give --repeats or --seeds, not both (--seeds N is --repeats N "
                                 "from --seed).")
            names = _method_list(methods)
            grid = _parse_k_grid(k_grid)
            io.check_output_paths({"--json": json_path, "--report": report_path},
                                  protect=[data])
            special = [c for c in (groups_col, time_col) if c]
            try:
                X, y, name, dropped = io.load_data(data, target, tuple(drop) + tuple(special),
                                                   return_dropped=True, categorical=categorical,
                                                   numeric=numeric)
            except ValueError as exc:  # name the option the user gave, not --drop
                msg = str(exc)
                for opt, col in (("--groups", groups_col), ("--time", time_col)):
                    if col and msg.startswith(f"--drop: column {col!r}"):
                        raise ValueError(opt + msg[len("--drop"):]) from None
                raise
            with _parallel_backend(backend, scheduler):
                result = evaluation.compare(
                    X, y, methods=names, estimator=model, task=task, scoring=metric,
                    n_repeats=repeats, seeds=seed_list, random_state=seed,
                    groups=None if groups_col is None else dropped[groups_col],
                    time=None if time_col is None else dropped[time_col],
                    k_grid=grid, time_budget=time_budget,
                    n_jobs=-1 if n_jobs is None else n_jobs,
                    progress=_progress_or_lines(quiet), dataset=name, audit=audit,
                    categorical=list(categorical) or None, numeric=list(numeric) or None)
            result.params.update(groups=groups_col, time=time_col)
        except (ValueError, KeyError, FileNotFoundError, NotImplementedError) as exc:
            _fail(exc)
    seeds_txt = (f"seed {result.seeds[0]}" if result.n_repeats == 1 else
                 f"{result.n_repeats} repeats (seeds {_seed_range(result.seeds)})")
    click.echo(f"{result.dataset}: {result.n_samples} rows x {result.n_features} columns, "
               f"{result.task}, metric {result.metric} "
               f"({'higher' if result.greater_is_better else 'lower'} is better), "
               f"{seeds_txt}, split {result.split} per repeat")
    for note in result.notes:
        click.echo(f"note: {note}")
    _print_table(result)
    click.echo("")
    click.echo(result.verdict())
    _write_outputs(result, json_path, report_path, click.get_current_context())
    if result.interrupted:  # the rows that finished are written, marked incomplete
        click.echo(f"featsieve: {_interrupt_word()}; the table above is what finished (the "
                   "notes say what is missing)", err=True)
        raise click.exceptions.Exit(_interrupt_code())
    if result.failed:
        raise click.exceptions.Exit(EXIT_PARTIAL)


def _seed_range(seeds):
    if len(seeds) > 2 and list(seeds) == list(range(seeds[0], seeds[0] + len(seeds))):
        return f"{seeds[0]}-{seeds[-1]}"
    return ", ".join(map(str, seeds))


def _parse_k_grid(text):
    """``--k-grid``: comma-separated counts (whole numbers) or fractions below 1."""
    if text is None:
        return None
    values = []
    for t in (p.strip() for p in str(text).split(",") if p.strip()):
        try:
            v = float(t)
        except ValueError:
            raise ValueError(f"--k-grid takes counts or fractions separated by commas "
                             f"(e.g. 1,2,5,10); got {text!r}.") from None
        if not v > 0 or (v >= 1 and not v.is_integer()):  # NaN too
            raise ValueError(f"--k-grid: {t} is neither a count (1, 2, ...) nor a fraction "
                             "in (0, 1).")
        values.append(int(v) if v >= 1 else v)
    if not values:
        raise ValueError("--k-grid is empty; give counts such as 1,2,5,10.")
    return values


def _parse_seeds(text, first: int):
    """``--seeds``: None, a count N (seeds first..first+N-1) or a comma-separated list."""
    if text is None:
        return None
    parts = [t.strip() for t in str(text).split(",") if t.strip()]
    try:
        values = [int(t) for t in parts]
    except ValueError:
        raise ValueError(f"--seeds must be a number of seeds or a comma-separated list of "
                         f"integers; got {text!r}.") from None
    if not values:
        raise ValueError("--seeds is empty; give a count such as 5 or a list such as 0,1,2.")
    if "," not in str(text):
        if not 1 <= values[0] <= MAX_SEEDS:
            raise ValueError(f"--seeds {values[0]}: the number of seeds must be between 1 and "
                             f"{MAX_SEEDS}.")
        return [first + i for i in range(values[0])]
    if len(values) > MAX_SEEDS:
        raise ValueError(f"--seeds lists {len(values)} seeds; at most {MAX_SEEDS}.")
    return values


def _command_line(ctx) -> str:
    """The command as typed, rebuilt from the parsed options (for the report)."""
    parts = [ctx.command_path]
    for p in ctx.command.params:
        v = ctx.params.get(p.name)
        if v is None or v is False or v == p.default or (
                isinstance(v, (tuple, list)) and not v):
            continue
        if isinstance(p, click.Argument):
            parts.append(shlex.quote(str(v)))
        elif v is True:
            parts.append(p.opts[0])
        elif isinstance(v, dict):  # --param KEY=VALUE pairs
            parts += [f"{p.opts[0]} " + shlex.quote(f"{k}={json.dumps(x, separators=(',', ':'))}")
                      for k, x in v.items()]
        elif isinstance(v, (tuple, list)):  # a repeatable option: once per value
            parts += [f"{p.opts[0]} {shlex.quote(str(x))}" for x in v]
        else:
            parts += [p.opts[0], shlex.quote(str(v))]
    return " ".join(parts)


def _write_outputs(result, json_path, report_path, ctx):
    """Write --json and --report (the same data; the report adds the figures)."""
    if not (json_path or report_path):
        return
    from .report import report_data, write_report

    command = _command_line(ctx)
    try:
        if json_path:
            data = report_data(result, command=command)
            _write_text(json_path, json.dumps(data, indent=2, default=str))
        if report_path:
            write_report(report_path, result, command=command)
    except (OSError, ValueError) as exc:
        _fail(exc)
    for path in (json_path, report_path):
        if path:
            click.echo(f"wrote {path}")


@contextmanager
def _parallel_backend(backend, scheduler):
    """joblib's ``parallel_config`` around a library call; dask/ray connect to a cluster.

    The library sends every independent evaluation through joblib, so the
    distributed engine is the user's: Dask through ``distributed.Client`` and
    joblib's ``"dask"`` backend, Ray through ``ray.util.joblib``.
    """
    if backend is None:
        if scheduler:
            raise ValueError("--scheduler needs --backend dask or --backend ray.")
        yield
        return
    from joblib import parallel_config

    if backend == "dask":
        try:
            from distributed import Client
        except ImportError:
            raise ValueError("--backend dask needs dask.distributed: "
                             "pip install 'featsieve[dask]'.") from None
        try:
            client = Client(scheduler, timeout="15s") if scheduler else Client(
                processes=True, dashboard_address=None)
        except (OSError, TimeoutError) as exc:
            raise ValueError(f"Cannot connect to the Dask scheduler {scheduler}: {exc}") from None
        try:
            with parallel_config(backend="dask"):
                yield
        finally:
            client.close()
    elif backend == "ray":
        try:
            import ray
            from ray.util.joblib import register_ray
        except ImportError:
            raise ValueError("--backend ray needs ray: pip install 'featsieve[ray]'.") from None
        register_ray()
        started = not ray.is_initialized()
        if started:
            try:
                ray.init(address=scheduler, include_dashboard=False, log_to_driver=False)
            except (ConnectionError, RuntimeError) as exc:
                raise ValueError(f"Cannot connect to the Ray cluster {scheduler}: {exc}") from None
        try:
            with parallel_config(backend="ray"):
                yield
        finally:
            if started:
                ray.shutdown()
    else:
        if scheduler:
            raise ValueError(f"--scheduler is for --backend dask or ray, not {backend}.")
        with parallel_config(backend=backend):
            yield


@cli.command()
@click.argument("data")
@common
@click.option("--method", required=True, help="A registered method name (see `featsieve methods`).")
@click.option("--n-features", "-k", type=str, default=None,
              help="Number (or fraction) of columns to keep, for methods that take it.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Write the reduced table (--drop and ID-like columns, selected columns, "
                   "target) here. From a CSV file, a CSV output has every cell as the "
                   "file has it, a Parquet output the ID-like columns as text.")
@click.option("--column-group", "column_group", multiple=True, metavar="NAME=COL1,COL2,...",
              help="Make these columns one unit, kept or dropped together (a one-hot block, "
                   "the parts of a date, a sensor's channels); repeat for several.")
@click.option("--scores", "scores_path", type=click.Path(dir_okay=False), default=None,
              help="Write every feature column's kind, score, rank and whether it was kept "
                   "(CSV), the ID-like and constant columns it left out included (--drop "
                   "columns are no features: not listed).")
def select(data, target, drop, task, model, seed, n_jobs, quiet, categorical, numeric, method,
           n_features, output, column_group, scores_path):
    """Select columns of DATA with one method and write the reduced table."""
    import numpy as np
    import pandas as pd

    from . import io
    from ._registry import make_selector, resolve_method
    from ._validation import detect_task
    from .models import make_model
    from .protocol import MIN_SAMPLES

    with warnings.catch_warnings():
        if quiet:
            warnings.simplefilter("ignore")
        try:
            outputs = {"--output": output, "--scores": scores_path}
            io.check_output_paths(outputs, protect=[data])
            if output:
                io.check_table_path(output, protect=[data])
            groups = _parse_groups(column_group)
            X, y, _, dropped = io.load_data(data, target, drop, return_dropped=True,
                                            categorical=categorical, numeric=numeric)
            for gname, members in (groups or {}).items():  # in the CLI's words, before work
                unknown = [c for c in members if c not in X.columns]
                if unknown:
                    cols = ", ".join(map(str, list(X.columns)[:12]))
                    more = "" if X.shape[1] <= 12 else f", ... ({X.shape[1]} columns)"
                    raise ValueError(
                        f"--column-group {gname}: {_names_line([repr(c) for c in unknown])} "
                        f"{'is' if len(unknown) == 1 else 'are'} not a feature column of "
                        f"{data}; columns: {cols}{more}.")
            if len(X) < MIN_SAMPLES:
                warnings.warn(f"only {len(X)} rows: a selection made from so few rows is "
                              f"mostly chance (compare needs {MIN_SAMPLES}).",
                              DataWarning, stacklevel=1)
            resolved = detect_task(y.dropna(), task)
            k = _parse_k(n_features)
            est = make_model(model, resolved, random_state=seed)
            sel = make_selector(method, task=resolved, estimator=est, n_features_to_select=k,
                                random_state=seed, n_jobs=n_jobs)
            params = sel.get_params() if sel is not None else {}
            tuning = resolve_method(method).tuning
            cut = k is not None and "n_features_to_select" not in params and (
                tuning is not None and tuning.cut == "n_features")
            table, ids, const = None, [], []
            if sel is None:
                kept = list(X.columns)
            else:
                if "task" in sel.get_params():
                    sel.set_params(task=resolved)
                sel.fit(X, y, categorical=list(categorical) or None,
                        numeric=list(numeric) or None, column_groups=groups)
                support = sel.get_support()
                if cut:  # one fit, several supports (e.g. a Pareto front): the cut at k
                    support = sel.support_at(n_features=k if isinstance(k, int) else
                                             max(1, int(round(k * X.shape[1]))))
                kept = [X.columns[i] for i in np.flatnonzero(support)]
                table = sel.scores_table(support)
                ids = [X.columns[i] for i in np.flatnonzero(sel.columns_.left_out)]
                const = [X.columns[i] for i in np.flatnonzero(
                    getattr(sel, "constant_features_", np.zeros(X.shape[1], bool)))
                    if X.columns[i] not in ids]
            if output:  # the --drop and ID-like columns (identifiers) come back, first,
                # unchanged, so the reduced table can be joined to the source
                tname = target if target is not None else y.name
                reduced = pd.concat([dropped, X[ids], X[kept]], axis=1)
                reduced[tname] = y.to_numpy()
                # a CSV's cells as they were written: "0526301100" stays so, not 526301100
                # (a Parquet output keeps the parsed types but for the ID-like columns)
                text = io.read_text_columns(data, list(reduced.columns))
                if text is not None and len(text) == len(reduced):
                    parquet = output != "-" and io.check_table_path(output)[0]
                    for c in ids if parquet else reduced.columns:
                        reduced[c] = text[c].to_numpy()
                sep = io.csv_separator(data) if text is not None else None  # the input's
                if output == "-":  # standard output; the listing goes to standard error
                    reduced.to_csv(sys.stdout, index=False, sep=sep or ",")
                else:
                    io.write_table_atomic(reduced, output, protect=[data], sep=sep)
            if scores_path and table is not None:
                io.write_table_atomic(table, scores_path, protect=[data])
        except (ValueError, KeyError, OSError, NotImplementedError) as exc:
            _fail(exc)
    err = output == "-"  # the table went to standard output
    click.echo(f"{method}: kept {len(kept)} of {X.shape[1] - len(ids)} columns"
               + (f" ({len(const)} constant, which no method can keep: "
                  f"{_names_line(const)})" if const else ""), err=err)
    if ids:
        back = "; written back to the output, first" if output else ""
        click.echo(f"ID-like, left out of the selection{back}: "
                   f"{', '.join(map(str, ids))}", err=err)
    if table is not None and not kept:  # no empty listing: why, and what to try
        click.echo(_nothing_kept(method, model, len(X)), err=err)
    elif table is None:
        for c in kept:
            click.echo(f"  {c}", err=err)
    else:
        shown = table[table["selected"]]
        cols = [c for c in ("score", "rank") if shown[c].notna().any()]
        _echo_table(["  column", *cols],
                    [[f"  {r['column']}", *(_fmt(r[c]) if c == "score" else str(int(r[c]))
                                          for c in cols)] for _, r in shown.iterrows()],
                    err=err)
    for path in (output, scores_path if table is not None else None):
        if path and path != "-":
            click.echo(f"wrote {path}", err=err)


SMALL_TABLE_HINT = "the table is too small for it (try --model tree or logistic/linear)"
"""compare's words for a model that cannot learn from the table (its verdict says them too)."""


def _nothing_kept(method, model, n_rows) -> str:
    """``select``'s line when the method kept no column: why, and what to try."""
    from ._registry import resolve_method

    if resolve_method(method).takes_model:
        return (f"No column was selected: {method} chose nothing with --model {model} on "
                f"{n_rows} rows; {SMALL_TABLE_HINT}.")
    return f"No column was selected: {method} found nothing to keep on {n_rows} rows."


def _names_line(names, most=5) -> str:
    """Up to ``most`` column names, then how many more."""
    head = ", ".join(map(str, names[:most]))
    return head + (f" and {len(names) - most} more" if len(names) > most else "")


def _parse_groups(items):
    """``--column-group NAME=a,b,c`` (repeated) -> ``{NAME: [a, b, c]}``."""
    groups = {}
    for item in items:
        name, sep, cols = item.partition("=")
        members = [c.strip() for c in cols.split(",") if c.strip()]
        if not sep or not name.strip() or len(members) < 2:
            raise ValueError(f"--column-group {item!r}: write NAME=COL1,COL2 (two columns or "
                             "more).")
        if name.strip() in groups:
            raise ValueError(f"--column-group: the name {name.strip()!r} is given twice.")
        groups[name.strip()] = members
    return groups or None


@cli.command()
@click.argument("data", required=False)
@common
@click.option("--method", required=True, help="A registered method name (see `featsieve methods`).")
@click.option("--noise-features", type=click.IntRange(min=0), default=1200, show_default=True,
              help="Columns in the noise pool (seed 002 FS21: 1,200); 0 skips the test.")
@click.option("--repeats", type=click.IntRange(min=1), default=5, show_default=True,
              help="Noise-pool repeats (each with its own noise, split and seeds).")
@click.option("--max-noise-fits", type=click.IntRange(min=0), default=3000, show_default=True,
              help="Shrink the pool of a costly wrapper to about this many model fits "
                   "(0: no cap).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None,
              help="Write the measurements as JSON here.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None,
              help="Write a self-contained HTML report (estimates, noise pool, run) here.")
def audit(data, target, drop, task, model, seed, n_jobs, quiet, categorical, numeric, method,
          noise_features, repeats, max_noise_fits, json_path, report_path):
    """How much does METHOD's selection inflate its own number on DATA (default: sonar)?"""
    import pandas as pd

    from . import evaluation, io

    with warnings.catch_warnings():
        if quiet:
            warnings.simplefilter("ignore")
        try:
            io.check_output_paths({"--json": json_path, "--report": report_path},
                                  protect=[data])
            X, y, name = io.load_data(data, target, drop, categorical=categorical,
                                      numeric=numeric)
            res = evaluation.audit_method(
                method, X, y, estimator=model, task=task, random_state=seed, n_jobs=n_jobs,
                noise_features=noise_features, n_repeats=repeats,
                max_noise_fits=max_noise_fits or None, progress=_progress_or_lines(quiet))
        except (ValueError, KeyError, FileNotFoundError, NotImplementedError) as exc:
            _fail(exc)
    click.echo(f"{name}: {res.n_samples} rows x {res.n_features} columns, {res.task}, metric "
               f"{res.metric} ({'higher' if res.task == 'classification' else 'lower'} is "
               f"better), split {res.split}, model {model}, seed {seed}")
    click.echo(f"{method}: kept {res.own['n_selected']} columns: "
               f"{', '.join(res.own['selected'][:12])}"
               f"{' ...' if res.own['n_selected'] > 12 else ''}")
    with pd.option_context("display.width", 160, "display.max_columns", 30):
        click.echo("\n== Estimates")
        click.echo(res.estimates().to_string(index=False, float_format=lambda v: f"{v:.4f}",
                                             na_rep="-"))
        if res.noise is not None:
            click.echo(f"\n== Noise pool: {res.noise.n_noise} noise columns, selected from the "
                       "training rows only vs from all rows; model refit on the training rows")
            summ = res.noise.summary()
            click.echo(summ.to_string(index=False, float_format=lambda v: f"{v:.4f}",
                                      na_rep="-"))
            if (summ["kept"] < summ["k"] - 1e-9).any():
                click.echo(f"(kept < k: {method} chose fewer noise columns than k; rows with "
                           "the same kept are the same selections)")
            if res.noise_note:
                click.echo(f"({res.noise_note}; --max-noise-fits 0 for the full pool)")
    click.echo("")
    click.echo(res.verdict())
    fingerprint = io.data_fingerprint(X, y)  # compare's, for the same table
    if json_path:
        try:
            _write_text(json_path, json.dumps({**res.to_dict(), "fingerprint": fingerprint},
                                              indent=2, default=str))
        except OSError as exc:
            _fail(exc)
        click.echo(f"wrote {json_path}")
    if report_path:
        from .report import write_report

        try:
            write_report(report_path, res, command=_command_line(click.get_current_context()),
                         params={"method": method, "model": model,
                                 "noise_features": noise_features, "repeats": repeats},
                         fingerprint=fingerprint, dataset=name)
        except (OSError, ValueError) as exc:
            _fail(exc)
        click.echo(f"wrote {report_path}")


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the manifest as JSON.")
def datasets(as_json):
    """List the bundled datasets: shape, classes, source and licence."""
    from .datasets import data_home, list_datasets

    table = list_datasets()
    if as_json:
        click.echo(table.to_json(orient="records", indent=1))
        return
    for r in table.itertuples():
        what = r.classes if r.task == "classification" else f"regression ({r.target})"
        click.echo(f"{r.name:<21} {r.rows:>5} x {r.features:<6} {what:<30} {r.used_by}")
        click.echo(f"{'':<21} source: {r.source}")
        click.echo(f"{'':<21} licence: {r.licence}")
    home = data_home()
    where = f"$FEATSIEVE_DATA={home}" if home is not None else "the copies inside the package"
    click.echo(f"scikit-feature sets are read from {where}.")


@cli.command(name="methods")
@click.option("--task", type=click.Choice(["classification", "regression"]), default=None)
def list_methods(task):
    """List the registered selection methods."""
    from ._registry import get_method
    from ._registry import methods as names

    for n in names(task):
        spec = get_method(n)
        note = "" if spec.available else (
            f"  (not installed: pip install 'featsieve[{spec.extra}]')" if spec.extra else
            f"  (not installed: pip install {' '.join(spec.requires)})")
        click.echo(f"{n:<12} {spec.summary}  [{spec.source}]{note}")


def _param(ctx, param, values):
    """``--param KEY=VALUE`` pairs as keyword arguments (values read as JSON when they parse)."""
    out = {}
    for text in values:
        key, sep, raw = text.partition("=")
        if not sep or not key.isidentifier():
            raise click.BadParameter(f"{text!r}: expected KEY=VALUE, e.g. n_splits=2.")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


def _run_info(ctx, seconds: float) -> dict:
    """Command, versions and machine recorded with a reproduction's results."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    versions = {"python": platform.python_version()}
    for pkg in ("featsieve", "numpy", "scipy", "scikit-learn", "pandas", "lightgbm", "joblib"):
        try:
            versions[pkg] = version(pkg)
        except PackageNotFoundError:
            versions[pkg] = None
    return {"command": _command_line(ctx), "versions": versions,
            "machine": f"{platform.machine()}, {os.cpu_count()} CPU(s), {platform.system()} "
                       f"{platform.release()}, {platform.processor() or 'processor unknown'}",
            "runtime_seconds": round(seconds, 1)}


@cli.command()
@click.argument("name")
@click.option("--full", is_flag=True, help="The full experiment (slow); default is a quick run.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out-dir", type=click.Path(file_okay=False), default="featsieve-reproduce",
              show_default=True, help="Where figures are written.")
@click.option("--results", "results_dir", type=click.Path(file_okay=False), default=None,
              help="Cache of finished units (data set x split x method); a rerun resumes from "
                   "it. Default with --full: ./featsieve-results; quick runs keep none.")
@click.option("--n-jobs", type=int, default=None, callback=lambda c, p, v: _n_jobs(v)
              if v is not None else v, help="joblib workers over units (default 1).")
@click.option("--param", "-p", "params", multiple=True, callback=_param, metavar="KEY=VALUE",
              help="Override an experiment parameter (e.g. -p n_splits=2); the run is then "
                   "recorded as reduced, not full.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None)
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None,
              help="Write a self-contained HTML report (tables, notes, figures) here.")
@click.option("--quiet", "-q", is_flag=True)
def reproduce(name, full, seed, out_dir, results_dir, n_jobs, params, json_path, report_path,
              quiet):
    """Reproduce a seed's experiments: gbmo, hsic, fastener, pclfs or lesson."""
    import time

    import pandas as pd

    from . import io
    from . import reproduce as rep

    if results_dir is None and full:
        from .reproduce._units import DEFAULT_RESULTS_DIR

        results_dir = DEFAULT_RESULTS_DIR
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        if quiet:
            warnings.simplefilter("ignore")
        try:
            io.check_output_paths({"--json": json_path, "--report": report_path})
            res = rep.run(name, full=full, random_state=seed, progress=_progress_on(quiet),
                          out_dir=out_dir, results_dir=results_dir, n_jobs=n_jobs, **params)
        except (ValueError, KeyError, FileNotFoundError, NotImplementedError) as exc:
            _fail(exc)
        except TypeError as exc:
            _fail(ValueError(f"--param: {exc}"))
    ctx = click.get_current_context()
    # "full" only when the full protocol ran unchanged and every unit is there
    changed = {k: v for k, v in params.items() if k != "only_cached"}
    units = res.params.get("units", {})
    res.params.update(full=bool(full and not changed and units.get("done") == units.get("total")),
                      overrides=changed, **_run_info(ctx, time.perf_counter() - t0))
    if not full:  # say so before the numbers, which otherwise read like a failed reproduction
        click.echo(rep.quick_line(name))
    with pd.option_context("display.width", 160, "display.max_columns", 30,
                           "display.max_colwidth", 60):
        for title, table in res.tables.items():
            if title.startswith("per-"):
                continue  # raw rows: in --json only
            click.echo(f"\n== {title}")
            click.echo(table.to_string(index=False))
    for note in res.notes:
        click.echo(f"- {note}")
    for fig in res.figures:
        click.echo(f"figure: {fig}")
    if json_path:
        try:
            _write_text(json_path, json.dumps(res.to_dict(), indent=1, default=str))
        except OSError as exc:
            _fail(exc)
        click.echo(f"wrote {json_path}")
    if report_path:
        from .report import write_report

        try:
            write_report(report_path, res, command=_command_line(ctx))
        except (OSError, ValueError) as exc:
            _fail(exc)
        click.echo(f"wrote {report_path}")


_interrupt: list = []  # the signal that stopped the command (SIGINT, SIGTERM)


def _on_signal(signum, frame):
    """SIGINT and SIGTERM stop the command the same way: a KeyboardInterrupt, once."""
    if _interrupt:  # a second signal while the finished rows are written: let them finish
        return
    _interrupt.append(signum)
    raise KeyboardInterrupt


def _interrupt_code() -> int:
    """128 + the signal: 130 for Ctrl-C (SIGINT), 143 for SIGTERM."""
    return 128 + (_interrupt[0] if _interrupt else signal.SIGINT)


def _interrupt_word() -> str:
    return "terminated" if _interrupt and _interrupt[0] == signal.SIGTERM else "interrupted"


@contextmanager
def _signals():
    """SIGINT/SIGTERM handlers for the command's duration (main thread only), restored after."""
    _interrupt.clear()
    saved = {}
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            saved[sig] = signal.signal(sig, _on_signal)
    except ValueError:  # not the main thread: the caller's handlers stay
        pass
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def main(argv=None) -> int:
    """Entry point of the ``featsieve`` console script; returns the exit code.

    SIGINT (Ctrl-C) and SIGTERM stop a command with exit code 130 / 143;
    ``compare`` first writes the rows that finished (``--json`` says
    ``"complete": false``, ``"interrupted": true``). The caller's warning
    display and signal handlers are restored on return.
    """
    previous = warnings.showwarning
    warnings.showwarning = _show_warning  # one line per warning, no source paths
    _shown_warnings.clear()
    try:
        with _signals():
            return _run(argv)
    finally:  # a caller's own warning display comes back (the CLI is also called in-process)
        warnings.showwarning = previous


def _run(argv) -> int:
    try:
        code = cli.main(args=argv, prog_name="featsieve", standalone_mode=False)
        if isinstance(code, int) and code:  # click returns an Exit's code here
            return code
    except click.ClickException as exc:
        if isinstance(exc, BadInput):
            exc.show()
        else:
            click.echo(f"featsieve: error: {exc.format_message()}", err=True)
        return EXIT_BAD_INPUT
    except (click.exceptions.Abort, KeyboardInterrupt):  # nothing had finished
        click.echo(f"featsieve: {_interrupt_word()} before any result was complete; no "
                   "output was written", err=True)
        return _interrupt_code()
    except click.exceptions.Exit as exc:
        return exc.exit_code
    return 0
