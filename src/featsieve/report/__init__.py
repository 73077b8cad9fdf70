"""Reports: figures computed as data first, drawn with matplotlib (imported lazily), and
written as self-contained HTML by the front ends.

Convention for method families: ``featsieve.report._<family>`` (``_mask``, ``_kernel``,
``_genetic``, ``_pca``, ``_classic``, where ``<family>`` is the last part of the selector's
module name) exposes ``figures(method, selector) -> list[tuple[str, Figure]]``; the data behind
each figure comes from a pure function in the same module (``*_plot_data``).
"""
