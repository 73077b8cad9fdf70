"""PCLFS and PCLFS-ext (seed ``003_94dbcfb9c5faa87c.txt``).

Real tables: missing values are imputed (training median; a categorical column's
missing rows are a category of their own, ``BaseSelector``); the PCA runs on the
standardized matrix with every categorical column one-hot encoded, and a
column's loading score is the sum over its dummies; the F1 grid's model sees
category codes.
"""

from __future__ import annotations

from ..scores import pca_loading_scores
from ._pclfs import PCLFS, pclfs_extended_size

__all__ = ["pca_loading_scores", "pclfs_extended_size", "PCLFS"]
