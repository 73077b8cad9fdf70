"""Bundled real datasets (UCI tables and the scikit-feature sets) and synthetic problems."""

from ._eo import make_eo_synthetic
from ._loaders import (
    BUNDLED,
    SCIKIT_FEATURE,
    data_home,
    list_datasets,
    load_dataset,
    load_german_numeric,
    load_ionosphere,
    load_musk1,
    load_residential_building,
    load_scikit_feature,
    load_sonar,
    load_spectf,
    load_subscribers,
)
from ._messy import MESSY, load_auto_mpg, load_messy, load_penguins
from ._synthetic import (
    make_gbmo_synthetic,
    make_hsic_additive,
    make_hsic_nonadditive,
    make_pclfs_classification,
)

__all__ = [
    "BUNDLED",
    "MESSY",
    "load_auto_mpg",
    "load_messy",
    "load_penguins",
    "SCIKIT_FEATURE",
    "data_home",
    "list_datasets",
    "load_dataset",
    "load_german_numeric",
    "load_ionosphere",
    "load_musk1",
    "load_residential_building",
    "load_scikit_feature",
    "load_sonar",
    "load_spectf",
    "load_subscribers",
    "make_eo_synthetic",
    "make_gbmo_synthetic",
    "make_hsic_additive",
    "make_hsic_nonadditive",
    "make_pclfs_classification",
]
