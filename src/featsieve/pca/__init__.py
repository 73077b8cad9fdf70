"""PCLFS and PCLFS-ext (seed ``003_94dbcfb9c5faa87c.txt``)."""

from __future__ import annotations

from ..scores import pca_loading_scores
from ._pclfs import PCLFS, pclfs_extended_size

__all__ = ["pca_loading_scores", "pclfs_extended_size", "PCLFS"]
