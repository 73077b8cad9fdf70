"""Reports: figures computed as data first, drawn with matplotlib (imported lazily), and
written as self-contained HTML by the front ends.

Each row of the method table names the function that draws its figures
(``MethodSpec.figures``, e.g. ``featsieve.report._mask:figures``):
``figures(method, selector) -> list[tuple[str, Figure]]``; the data behind each figure comes
from a pure function in the same module (``*_plot_data``).

The page itself: :func:`write_report` (used by ``featsieve compare --report``, and callable
from ``audit`` and ``reproduce``) renders ``templates/report.html.j2`` with Jinja2; every image
is a base64 PNG inside the page, so it opens without network. :func:`report_data` returns the
same content as JSON-ready data (what ``--json`` writes). Importing this package imports
neither matplotlib nor Jinja2.

Examples
--------
>>> import featsieve
>>> from featsieve.datasets import load_sonar
>>> from featsieve.report import write_report
>>> X, y = load_sonar(return_X_y=True)
>>> result = featsieve.compare(X, y, methods=["cc"], estimator="tree", n_repeats=2)
>>> path = write_report("report.html", result)  # doctest: +SKIP
"""

from ._core import (
    STANDARD_COLUMNS,
    figure_to_base64,
    inflation_columns,
    method_figures,
    package_versions,
    render_report,
    report_data,
    score_distribution_data,
    score_distribution_figure,
    score_vs_features_data,
    score_vs_features_figure,
    selection_frequency_data,
    selection_frequency_figure,
    write_report,
)

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
