"""Distributed runs: a real local dask.distributed cluster (2 worker processes on
loopback) gives the same results as n_jobs=1, and the work does reach the cluster."""

import json

import numpy as np
import pytest

import featsieve

distributed = pytest.importorskip("distributed", reason="dask.distributed not installed "
                                                        "(pip install 'featsieve[dask]')")
from joblib import parallel_config  # noqa: E402


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           host="127.0.0.1", dashboard_address=None, protocol="tcp")
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def small_sonar():
    from featsieve.datasets import load_sonar

    X, y = load_sonar(return_X_y=True)
    return X.iloc[:, :20], y


def _strip(rows):
    return [{k: v for k, v in r.items() if k not in ("seconds", "repeats")} for r in rows]


def _tasks(stream) -> int:
    return len(stream.data)


def test_compare_on_dask_equals_n_jobs_1(client, small_sonar):
    X, y = small_sonar
    kw = dict(methods=["cc", "forward", "rfecv"], estimator="tree", n_repeats=1)
    ref = featsieve.compare(X, y, n_jobs=1, **kw)
    with distributed.get_task_stream(client) as ts, parallel_config(backend="dask"):
        got = featsieve.compare(X, y, **kw)
    assert _tasks(ts) > 0  # forward's candidates and RFECV's folds ran on the workers
    assert _strip(got.rows) == _strip(ref.rows)
    assert got.fingerprint == ref.fingerprint


def test_seeds_on_dask_equal_n_jobs_1(client, small_sonar):
    X, y = small_sonar
    kw = dict(methods=["cc", "embedded"], estimator="tree", seeds=[3, 4, 5])
    ref = featsieve.compare(X, y, n_jobs=1, **kw)
    with distributed.get_task_stream(client) as ts, parallel_config(backend="dask", n_jobs=3):
        got = featsieve.compare(X, y, **kw)
    assert _tasks(ts) >= 3  # one repeat per seed on the cluster
    assert got.seeds == [3, 4, 5]
    assert _strip(got.rows) == _strip(ref.rows)


def test_cli_backend_dask_scheduler(client, tmp_path, capsys):
    from featsieve.cli import main

    address = client.scheduler.address
    assert address.startswith("tcp://127.0.0.1:")
    out_a, out_b = tmp_path / "a.json", tmp_path / "b.json"
    args = ["compare", "--methods", "cc,forward", "--model", "tree", "-q"]
    assert main(args + ["--n-jobs", "1", "--json", str(out_a)]) == 0
    with distributed.get_task_stream(client) as ts:
        rc = main(args + ["--backend", "dask", "--scheduler", address, "--json", str(out_b)])
    assert rc == 0, capsys.readouterr().err
    assert _tasks(ts) > 0
    a, b = json.loads(out_a.read_text()), json.loads(out_b.read_text())
    assert _strip(a["results"]) == _strip(b["results"])


def test_cli_bad_scheduler_is_one_line(capsys):
    from featsieve.cli import main

    rc = main(["compare", "--methods", "cc", "--backend", "loky", "--scheduler",
               "tcp://127.0.0.1:1", "-q"])
    err = capsys.readouterr().err
    assert rc == 2 and "--scheduler" in err and len(err.strip().splitlines()) == 1


def test_fastener_on_dask_equals_n_jobs_1(client, small_sonar):
    genetic = pytest.importorskip("featsieve.genetic", reason="FASTENER not written yet")
    if not hasattr(genetic, "FASTENER"):
        pytest.skip("featsieve.genetic has no FASTENER yet")
    from sklearn.tree import DecisionTreeClassifier

    X, y = small_sonar

    def make():
        return genetic.FASTENER(DecisionTreeClassifier(max_depth=4, random_state=0),
                                n_generations=3, random_state=0)

    ref = make().set_params(n_jobs=1).fit(X, y)
    with distributed.get_task_stream(client) as ts, parallel_config(backend="dask"):
        got = make().fit(X, y)
    assert _tasks(ts) > 0
    np.testing.assert_array_equal(got.support_, ref.support_)
    assert got.pareto_front_[["size", "score"]].equals(ref.pareto_front_[["size", "score"]])
    assert got.n_evaluations_ == ref.n_evaluations_


def test_compare_on_ray_equals_n_jobs_1(small_sonar):
    ray = pytest.importorskip("ray", reason="ray not installed (pip install 'featsieve[ray]')")
    from ray.util.joblib import register_ray

    X, y = small_sonar
    kw = dict(methods=["cc", "forward"], estimator="tree", n_repeats=1)
    ref = featsieve.compare(X, y, n_jobs=1, **kw)
    register_ray()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        with parallel_config(backend="ray"):
            got = featsieve.compare(X, y, **kw)
    finally:
        ray.shutdown()
    assert _strip(got.rows) == _strip(ref.rows)
