"""The ``featsieve`` command line: a thin layer over the public library.

Parse arguments, call the library, print and write results, return an exit
code. Bad input gives one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import click

from .models import MODEL_NAMES

EXIT_BAD_INPUT = 2


class BadInput(click.ClickException):
    exit_code = EXIT_BAD_INPUT

    def show(self, file=None):
        click.echo(f"featsieve: error: {self.format_message()}", err=True)


def _fail(exc: BaseException):
    msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
    msg = " ".join(str(msg).split())
    raise BadInput(msg or type(exc).__name__) from None


def _progress_on(quiet: bool) -> bool:
    return not quiet and sys.stderr.isatty()


def _fmt(v, digits=4):
    if v is None:
        return "-"
    if isinstance(v, float):
        if v != v:
            return "-"
        return f"{v:.{digits}g}" if abs(v) >= 1000 else f"{v:.{digits}f}"
    return str(v)


def _print_table(result):
    df = result.to_frame()
    headers = ["method", "n_selected", "selection", "test", "gap", "seconds", "fits", "tuned"]
    rows = [[str(r.method), str(r.n_selected), _fmt(r.selection_score), _fmt(r.test_score),
             _fmt(r.gap, 3), f"{r.seconds:.2f}", str(r.model_fits), str(r.tuned or "")]
            for r in df.itertuples()]
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in
                     enumerate(zip(headers, widths)))
    click.echo(line)
    click.echo("-" * len(line))
    for row in rows:
        click.echo("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                             enumerate(zip(row, widths))))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="featsieve")
def cli():
    """featsieve: supervised feature selection, compared honestly."""


_common = [
    click.option("--target", "-t", default=None, help="Target column (optional for bundled data)."),
    click.option("--task", type=click.Choice(["auto", "classification", "regression"]),
                  default="auto", show_default=True),
    click.option("--model", type=click.Choice(MODEL_NAMES), default="lightgbm",
                 show_default=True, help="Model used inside wrappers and for scoring."),
    click.option("--seed", type=int, default=0, show_default=True, help="Random seed."),
    click.option("--n-jobs", type=int, default=None, help="Parallel jobs (joblib)."),
    click.option("--quiet", "-q", is_flag=True, help="No progress bars or warnings."),
]


def common(f):
    for opt in reversed(_common):
        f = opt(f)
    return f


@cli.command()
@click.argument("data", required=False)
@common
@click.option("--methods", "-m", default=None,
              help="Comma-separated method names (default: every registered method for the task).")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None,
              help="Write the results as JSON here.")
def compare(data, target, task, model, seed, n_jobs, quiet, methods, json_path):
    """Compare selectors on DATA (a CSV/Parquet path or a bundled name; default: sonar)."""
    from . import evaluation, io

    with warnings.catch_warnings():
        if quiet:
            warnings.simplefilter("ignore")
        try:
            X, y, name = io.load_data(data, target)
            names = [m.strip() for m in methods.split(",") if m.strip()] if methods else None
            result = evaluation.compare(X, y, methods=names, estimator=model, task=task,
                                        random_state=seed, n_jobs=n_jobs,
                                        progress=_progress_on(quiet), dataset=name)
        except (ValueError, KeyError, FileNotFoundError, NotImplementedError) as exc:
            _fail(exc)
    click.echo(f"{result.dataset}: {result.n_samples} rows x {result.n_features} columns, "
               f"{result.task}, metric {result.metric} "
               f"({'higher' if result.task == 'classification' else 'lower'} is better), "
               f"split {result.split}, seed {seed}")
    _print_table(result)
    click.echo("")
    click.echo(result.verdict())
    if json_path:
        Path(json_path).write_text(json.dumps(result.to_dict(), indent=2))


@cli.command()
@click.argument("data")
@common
@click.option("--method", required=True, help="A registered method name (see `featsieve methods`).")
@click.option("--n-features", "-k", type=float, default=None,
              help="Number (or fraction) of columns to keep, for methods that take it.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="Write the reduced table (selected columns + target) here.")
def select(data, target, task, model, seed, n_jobs, quiet, method, n_features, output):
    """Select columns of DATA with one method and write the reduced table."""
    from . import io
    from ._registry import make_selector
    from ._validation import detect_task
    from .models import make_model

    with warnings.catch_warnings():
        if quiet:
            warnings.simplefilter("ignore")
        try:
            X, y, _ = io.load_data(data, target)
            resolved = detect_task(y, task)
            k = None if n_features is None else (
                int(n_features) if float(n_features).is_integer() else n_features)
            est = make_model(model, resolved, random_state=seed)
            sel = make_selector(method, task=resolved, estimator=est, n_features_to_select=k,
                                random_state=seed, n_jobs=n_jobs)
            if sel is None:
                kept = list(X.columns)
            else:
                if "task" in sel.get_params():
                    sel.set_params(task=resolved)
                sel.fit(X, y)
                kept = [X.columns[i] for i in sel.get_support(indices=True)]
            if output:
                tname = target if target is not None else y.name
                reduced = X[kept].copy()
                reduced[tname] = y.to_numpy()
                io.write_table_atomic(reduced, output, protect=[data])
        except (ValueError, KeyError, FileNotFoundError, NotImplementedError) as exc:
            _fail(exc)
    click.echo(f"{method}: kept {len(kept)} of {X.shape[1]} columns")
    for c in kept:
        click.echo(f"  {c}")
    if output:
        click.echo(f"wrote {output}")


@cli.command()
def datasets():
    """List the bundled datasets."""
    from .datasets import BUNDLED

    for name, (_, target, descr) in BUNDLED.items():
        t = target if isinstance(target, str) else "/".join(target)
        click.echo(f"{name:<22} target={t:<30} {descr.split(':')[0]}")


@cli.command(name="methods")
@click.option("--task", type=click.Choice(["classification", "regression"]), default=None)
def list_methods(task):
    """List the registered selection methods."""
    from ._registry import get_method, methods as names

    for n in names(task):
        spec = get_method(n)
        click.echo(f"{n:<12} {spec.summary}  [{spec.source}]")


@cli.command()
@click.argument("name")
@click.option("--full", is_flag=True, help="The full experiment (slow); default is a quick run.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--out-dir", type=click.Path(file_okay=False), default="featsieve-reproduce",
              show_default=True, help="Where figures are written.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None)
@click.option("--quiet", "-q", is_flag=True)
def reproduce(name, full, seed, out_dir, json_path, quiet):
    """Reproduce a seed's experiments: gbmo, hsic, fastener, pclfs or lesson."""
    import pandas as pd

    from . import reproduce as rep

    with warnings.catch_warnings():
        if quiet:
            warnings.simplefilter("ignore")
        try:
            res = rep.run(name, full=full, random_state=seed, progress=_progress_on(quiet),
                          out_dir=out_dir)
        except (ValueError, KeyError, FileNotFoundError, NotImplementedError) as exc:
            _fail(exc)
    with pd.option_context("display.width", 160, "display.max_columns", 30,
                           "display.max_colwidth", 60):
        for title, table in res.tables.items():
            click.echo(f"\n== {title}")
            click.echo(table.to_string(index=False))
    for note in res.notes:
        click.echo(f"- {note}")
    for fig in res.figures:
        click.echo(f"figure: {fig}")
    if json_path:
        Path(json_path).write_text(json.dumps(res.to_dict(), indent=2, default=str))


def main(argv=None) -> int:
    """Entry point of the ``featsieve`` console script; returns the exit code."""
    try:
        cli.main(args=argv, prog_name="featsieve", standalone_mode=False)
    except click.ClickException as exc:
        if isinstance(exc, BadInput):
            exc.show()
        else:
            click.echo(f"featsieve: error: {exc.format_message()}", err=True)
        return EXIT_BAD_INPUT
    except click.exceptions.Abort:
        click.echo("featsieve: aborted", err=True)
        return 1
    except click.exceptions.Exit as exc:
        return exc.exit_code
    return 0
