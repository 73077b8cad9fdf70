"""Render a featsieve HTML report to PNG in headless Chromium (Debian's ``chromium``).

Usage::

    python benchmarks/render_report.py                      # compare on Sonar, then render
    python benchmarks/render_report.py --report r.html      # render an existing report
    python benchmarks/render_report.py --seeds 5 --out docs/report-sonar.png

Without ``--report`` it runs ``featsieve compare`` on bundled Sonar (default
methods, or ``--methods``), writes ``<out>.html`` next to the PNG, and renders
it. The page is self-contained, so Chromium runs with networking off. The PNG
is what a reviewer looks at; ``--chart`` also saves the score-against-features
chart alone (the image the README embeds).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def screenshot(html, png, *, width: int = 1280, height: int = 4000, timeout: int = 180) -> Path:
    """Render ``html`` (a file) to ``png`` with headless Chromium; return the PNG path.

    Raises
    ------
    FileNotFoundError
        No ``chromium`` on PATH (``apt-get install -y chromium``).
    RuntimeError
        Chromium ran but wrote no PNG (its stderr is in the message).
    """
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        raise FileNotFoundError("chromium not found: apt-get install -y chromium")
    html, png = Path(html).resolve(), Path(png).resolve()
    png.parent.mkdir(parents=True, exist_ok=True)
    if png.exists():
        png.unlink()
    with tempfile.TemporaryDirectory() as profile:
        cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu",
               "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--hide-scrollbars",
               f"--user-data-dir={profile}", f"--screenshot={png}",
               f"--window-size={width},{height}", html.as_uri()]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if not png.exists():
        raise RuntimeError(f"chromium wrote no PNG (exit {proc.returncode}): "
                           f"{proc.stderr.strip()[-500:]}")
    return png


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--report", help="An existing report to render (skip the compare run).")
    ap.add_argument("--out", default="report-sonar.png", help="PNG to write.")
    ap.add_argument("--methods", default=None, help="Methods for compare (default: all default).")
    ap.add_argument("--model", default="lightgbm")
    ap.add_argument("--seeds", default=None, help="As featsieve compare --seeds.")
    ap.add_argument("--repeats", type=int, default=None, help="As featsieve compare --repeats.")
    ap.add_argument("--n-jobs", type=int, default=None)
    ap.add_argument("--height", type=int, default=4000)
    ap.add_argument("--chart", default=None, help="Also save the score-vs-features chart here.")
    args = ap.parse_args(argv)

    out = Path(args.out)
    if args.report:
        html = Path(args.report)
    else:
        html = out.with_suffix(".html")
        result = _compare(args)
        from featsieve.report import write_report

        cmd = "featsieve compare" + (f" --methods {args.methods}" if args.methods else "") + \
            f" --model {args.model}" + (f" --seeds {args.seeds}" if args.seeds else "") + \
            (f" --repeats {args.repeats}" if args.repeats else "")
        write_report(html, result, command=cmd)
        print(result.verdict())
        if args.chart:
            from featsieve.report import score_vs_features_figure

            _, fig = score_vs_features_figure(result)
            Path(args.chart).parent.mkdir(parents=True, exist_ok=True)
            fig.savefig(args.chart, dpi=110, bbox_inches="tight")
            print(f"chart -> {args.chart}")
    png = screenshot(html, out, height=args.height)
    print(f"rendered {html} -> {png} ({png.stat().st_size} bytes)")
    return 0


def _compare(args):
    """The comparison on bundled Sonar, in-process (one run serves page and chart)."""
    import featsieve
    from featsieve.cli import _parse_seeds
    from featsieve.datasets import load_sonar

    X, y = load_sonar(return_X_y=True)
    methods = args.methods.split(",") if args.methods else None
    return featsieve.compare(X, y, methods=methods, estimator=args.model, dataset="sonar",
                             n_jobs=args.n_jobs, progress=True, random_state=0,
                             seeds=_parse_seeds(args.seeds, 0), n_repeats=args.repeats)


if __name__ == "__main__":
    sys.exit(main())
