import os

import pytest

# keep the suite fast and deterministic on 2 cores
os.environ.setdefault("OMP_NUM_THREADS", "1")


@pytest.fixture
def sonar():
    from featsieve.datasets import load_sonar

    return load_sonar(return_X_y=True)
