"""The CLI on malformed tables: one line on stderr, exit code 2, never a traceback."""

import string

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from featsieve.cli import main


def _run(capsys, args):
    rc = main(args)
    out = capsys.readouterr()
    return rc, out.out, out.err


def _good(tmp_path, n=60):
    rng = np.random.default_rng(0)
    df = pd.DataFrame(rng.normal(size=(n, 4)), columns=list("abcd"))
    df["label"] = np.where(df["a"] > 0, "yes", "no")
    return df


@pytest.mark.parametrize("content,needle", [
    (b"", "empty"),
    (b"a,b,label\n", "no rows"),
    (b"a,a,label\n1,2,x\n3,4,y\n", "duplicate column"),
    (b"a,b,label\n1,2,x\n\xff\xfe,4,y\n", "UTF-8"),
    (b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "is a PNG image, not a table"),
    (b"%PDF-1.7\n" + bytes(range(256)), "is a PDF document"),
    (b"SQLite format 3\x00" + bytes(100), "SQLite database: export the table"),
    (b"<!DOCTYPE html>\n<html><body><table><tr><td>1</td></tr></table></body></html>\n",
     "is an HTML page, not a table"),
])
def test_malformed_files(tmp_path, capsys, content, needle):
    p = tmp_path / "bad.csv"
    p.write_bytes(content)
    rc, _, err = _run(capsys, ["select", str(p), "--target", "label", "--method", "cc", "-q"])
    assert rc == 2 and needle in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_excel_workbook_named_with_the_fix(tmp_path, capsys):
    import zipfile

    p = tmp_path / "book.csv"  # the content decides, not the name
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("xl/workbook.xml", "<workbook/>")
        z.writestr("[Content_Types].xml", "<Types/>")
    rc, _, err = _run(capsys, ["select", str(p), "--target", "label", "--method", "cc", "-q"])
    assert rc == 2 and "Excel workbook: save the sheet as CSV" in err


def test_json_zip_and_arrow_tables_read_like_the_csv(tmp_path, capsys):
    import zipfile

    df = _good(tmp_path)
    csv = tmp_path / "t.csv"
    df.to_csv(csv, index=False)
    df.to_json(tmp_path / "records.json", orient="records")
    df.to_json(tmp_path / "lines.jsonl", orient="records", lines=True)
    df.to_feather(tmp_path / "t.arrow")
    with zipfile.ZipFile(tmp_path / "t.zip", "w") as z:
        z.write(csv, "t.csv")
    outs = []
    for name in ("t.csv", "records.json", "lines.jsonl", "t.arrow", "t.zip"):
        rc, out, err = _run(capsys, ["select", str(tmp_path / name), "--target", "label",
                                     "--method", "cc", "-k", "2", "-q"])
        assert rc == 0, (name, err)
        outs.append(out.replace(name, "DATA"))
    assert all(o == outs[0] for o in outs)
    assert "  a " in outs[0]


def test_headers_differing_in_spaces_are_two_columns(tmp_path, capsys):
    p = tmp_path / "spaces.csv"
    df = _good(tmp_path).rename(columns={"b": "a "})  # 'a' and 'a ': not duplicates
    df.to_csv(p, index=False)
    from featsieve.io import read_table

    assert list(read_table(p).columns) == ["a", "a ", "c", "d", "label"]
    p.write_bytes(b"a, a,label\n1,2,x\n3,4,y\n")
    assert list(read_table(p).columns) == ["a", " a", "label"]


def test_semicolon_delimiter_is_read(tmp_path, capsys):
    p = tmp_path / "semi.csv"
    _good(tmp_path).to_csv(p, sep=";", index=False)
    rc, out, _ = _run(capsys, ["select", str(p), "--target", "label", "--method", "cc", "-k", "1",
                               "-q"])
    assert rc == 0 and "  a" in out


def test_mixed_types_column_named(tmp_path, capsys):
    df = _good(tmp_path).astype({"b": object})
    df.loc[3, "b"] = "oops"
    p = tmp_path / "mixed.csv"
    df.to_csv(p, index=False)
    # a stray word among numbers (at most 5% of the rows) is read as missing, and named
    rc, _, err = _run(capsys, ["select", str(p), "--target", "label", "--method", "cc"])
    assert rc == 0 and "'b'" in err and "'oops' (1 row)" in err


@pytest.mark.parametrize("target_values,needle", [
    (["same"] * 60, "one class"),
    ([np.nan] * 60, "missing"),
])
def test_bad_targets(tmp_path, capsys, target_values, needle):
    df = _good(tmp_path)
    df["label"] = target_values
    p = tmp_path / "t.csv"
    df.to_csv(p, index=False)
    rc, _, err = _run(capsys, ["compare", str(p), "--target", "label", "-q"])
    assert rc == 2 and needle in err


def test_output_written_atomically_and_input_kept(tmp_path, capsys):
    p = tmp_path / "in.csv"
    _good(tmp_path).to_csv(p, index=False)
    before = p.read_bytes()
    out = tmp_path / "sub" / "out.csv"
    rc, _, _ = _run(capsys, ["select", str(p), "--target", "label", "--method", "cc", "-k", "2",
                             "-o", str(out), "-q"])
    assert rc == 0 and p.read_bytes() == before
    assert [f.name for f in out.parent.iterdir()] == ["out.csv"]  # no temporary file left


cells = st.one_of(
    st.integers(-5, 5).map(str),
    st.floats(allow_nan=True, allow_infinity=True, width=32).map(repr),
    st.text(alphabet=string.ascii_letters + " ,;\"'\n", max_size=4),
    st.just(""),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    header=st.lists(st.sampled_from(["a", "b", "c", "label", "", "a"]), min_size=1, max_size=5),
    rows=st.lists(st.lists(cells, min_size=0, max_size=6), min_size=0, max_size=12),
    sep=st.sampled_from([",", ";", "\t"]),
)
def test_cli_never_tracebacks(tmp_path_factory, capsys, header, rows, sep):
    p = tmp_path_factory.mktemp("h") / "t.csv"
    text = sep.join(header) + "\n" + "\n".join(sep.join(r) for r in rows)
    p.write_text(text, encoding="utf-8")
    rc, _, err = _run(capsys, ["select", str(p), "--target", "label", "--method", "cc", "-q"])
    assert rc in (0, 2), err
    assert "Traceback" not in err


@pytest.mark.parametrize("args,needle", [
    (["compare", "{p}", "-t", "label", "-m", "cc", "--json", "{p}"], "Refusing to overwrite"),
    (["compare", "{p}", "-t", "label", "-m", "cc", "--report", "{p}"], "Refusing to overwrite"),
    (["audit", "{p}", "-t", "label", "--method", "cc", "--json", "{p}"], "Refusing to overwrite"),
    (["compare", "{p}", "-t", "label", "-m", "cc", "--json", "{d}/o", "--report", "{d}/o"],
     "same file"),
    (["compare", "{p}", "-t", "label", "-m", ""], "--methods is empty"),
    (["compare", "{p}", "-t", "label", "-m", "cc", "--n-jobs", "0"], "0 jobs"),
    (["audit", "{p}", "-t", "label", "--method", "cc", "--repeats", "0"], "--repeats"),
    (["audit", "{p}", "-t", "label", "--method", "cc", "--noise-features", "-5"],
     "--noise-features"),
    (["select", "{p}", "-t", "label", "--method", "cc", "-o", "{d}/out.xlsx"], ".csv.gz"),
])
def test_bad_options_fail_before_work_and_keep_the_input(tmp_path, capsys, args, needle):
    p = tmp_path / "in.csv"
    _good(tmp_path).to_csv(p, index=False)
    before = p.read_bytes()
    args = [a.format(p=p, d=tmp_path) for a in args]
    rc, _, err = _run(capsys, args + ["-q"])
    assert rc == 2 and needle in err and len(err.strip().splitlines()) == 1
    assert p.read_bytes() == before


def test_truncated_gzip_is_named(tmp_path, capsys):
    full = tmp_path / "full.csv.gz"
    _good(tmp_path, n=400).to_csv(full, index=False)
    cut = tmp_path / "cut.csv.gz"
    cut.write_bytes(full.read_bytes()[: full.stat().st_size // 2])
    rc, _, err = _run(capsys, ["select", str(cut), "-t", "label", "--method", "cc", "-q"])
    assert rc == 2 and "truncated or corrupt gzip" in err


def test_output_follows_its_extension_and_the_umask(tmp_path, capsys):
    import gzip
    import os

    p = tmp_path / "in.csv"
    _good(tmp_path).to_csv(p, index=False)
    for name in ("out.csv.gz", "out.tsv", "out.parquet"):
        out = tmp_path / name
        rc, _, _ = _run(capsys, ["select", str(p), "-t", "label", "--method", "cc", "-k", "2",
                                 "-o", str(out), "-q"])
        assert rc == 0
        if name.endswith(".gz"):
            header = gzip.open(out, "rt").readline().strip().split(",")
        elif name.endswith(".tsv"):
            header = out.read_text().splitlines()[0].split("\t")
        else:
            header = list(pd.read_parquet(out).columns)
        assert len(header) == 3 and header[0] == "a" and header[-1] == "label"
        umask = os.umask(0)
        os.umask(umask)
        assert out.stat().st_mode & 0o777 == 0o666 & ~umask
    out = tmp_path / "kept.csv"
    out.write_text("x\n")
    out.chmod(0o640)
    _run(capsys, ["select", str(p), "-t", "label", "--method", "cc", "-o", str(out), "-q"])
    assert out.stat().st_mode & 0o777 == 0o640


def test_huge_values_and_count_targets_get_clear_errors(tmp_path, capsys):
    df = _good(tmp_path)
    df["big"] = df["a"] * 1e300
    p = tmp_path / "big.csv"
    df.to_csv(p, index=False)
    rc, _, err = _run(capsys, ["select", str(p), "-t", "label", "--method", "cc", "-q"])
    assert rc == 2 and "'big'" in err and "1e38" in err
    df = _good(tmp_path, n=80)
    df["count"] = np.arange(80) % 13 + (np.arange(80) == 0) * 20
    df.drop(columns="label").to_csv(p, index=False)
    rc, _, err = _run(capsys, ["select", str(p), "-t", "count", "--method", "cc", "-q"])
    assert rc == 2 and "--task regression" in err
    rc, _, _ = _run(capsys, ["select", str(p), "-t", "count", "--method", "cc", "--task",
                             "regression", "-q"])
    assert rc == 0


def test_drop_leaves_columns_out_and_a_saved_index_is_flagged(tmp_path, capsys):
    p = tmp_path / "indexed.csv"
    _good(tmp_path).to_csv(p)  # pandas writes its index as a first, unnamed column
    rc, out, err = _run(capsys, ["select", str(p), "-t", "label", "--method", "cc", "-k", "2"])
    assert rc == 0 and "'Unnamed: 0'" in err and "--drop" in err
    rc, out, err = _run(capsys, ["select", str(p), "-t", "label", "--method", "cc", "-k", "2",
                                 "--drop", "Unnamed: 0", "--drop", "d"])
    assert rc == 0 and "Unnamed" not in err
    assert out.splitlines()[0] == "cc: kept 2 of 3 columns" and "  d" not in out
    for drop, needle in (("zz", "'zz' not found"), ("label", "is the target")):
        rc, _, err = _run(capsys, ["select", str(p), "-t", "label", "--method", "cc",
                                   "--drop", drop])
        assert rc == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_select_on_few_rows_warns(tmp_path, capsys):
    p = tmp_path / "few.csv"
    _good(tmp_path, n=8).to_csv(p, index=False)
    rc, _, err = _run(capsys, ["select", str(p), "-t", "label", "--method", "cc", "-k", "1"])
    assert rc == 0 and "only 8 rows" in err
    rc, _, err = _run(capsys, ["select", str(p), "-t", "label", "--method", "cc", "-k", "1", "-q"])
    assert rc == 0 and err == ""


def test_new_user_findings(tmp_path, capsys):
    import gzip

    good = _good(tmp_path)
    p = tmp_path / "good.csv"
    good.to_csv(p, index=False)
    # a count of seeds is bounded (each seed is a whole comparison)
    rc, _, err = _run(capsys, ["compare", str(p), "-t", "label", "-m", "cc", "--seeds",
                               "99999999999"])
    assert rc == 2 and "between 1 and 1000" in err
    # a file where a parent directory should be: one line, before any work
    rc, _, err = _run(capsys, ["select", str(p), "-t", "label", "--method", "cc",
                               "-o", str(p / "out.csv")])
    assert rc == 2 and "is a file, not a directory" in err and "Traceback" not in err
    # the format comes from the content, not the name
    (tmp_path / "gz.csv").write_bytes(gzip.compress(p.read_bytes()))
    good.to_parquet(tmp_path / "pq.csv")
    for name in ("gz.csv", "pq.csv"):
        rc, out, err = _run(capsys, ["select", str(tmp_path / name), "-t", "label",
                                     "--method", "cc", "-k", "2.0", "-q"])
        assert rc == 0 and out.startswith("cc: kept 2 of 4 columns"), (name, err)
    # --drop columns come back in the written table, first, for joins
    good.assign(id=np.arange(60) + 1000).to_csv(tmp_path / "id.csv", index=False)
    rc, _, _ = _run(capsys, ["select", str(tmp_path / "id.csv"), "-t", "label", "--method",
                             "cc", "-k", "1", "--drop", "id", "-o", str(tmp_path / "o.csv"), "-q"])
    written = pd.read_csv(tmp_path / "o.csv")
    assert rc == 0 and list(written.columns) == ["id", "a", "label"]
    assert written["id"].tolist() == list(range(1000, 1060))
    # only the target: a plain message; the target is named by its column
    good[["label"]].to_csv(tmp_path / "only.csv", index=False)
    rc, _, err = _run(capsys, ["select", str(tmp_path / "only.csv"), "-t", "label",
                               "--method", "cc"])
    assert rc == 2 and "no feature columns besides the target 'label'" in err
    good.assign(label="same").to_csv(tmp_path / "one.csv", index=False)
    rc, _, err = _run(capsys, ["select", str(tmp_path / "one.csv"), "-t", "label",
                               "--method", "cc"])
    assert rc == 2 and "'label'" in err and "'y'" not in err


def test_a_warning_is_shown_once_per_command(tmp_path, capsys):
    p = tmp_path / "copy.csv"
    _good(tmp_path).assign(k=lambda d: d["b"]).to_csv(p, index=False)  # a copy: a warning
    rc, _, err = _run(capsys, ["compare", str(p), "-t", "label", "-m", "cc,mi"])
    assert rc == 0 and err.count("'k'") == 1
    rc, _, err = _run(capsys, ["compare", str(p), "-t", "label", "-m", "cc"])
    assert err.count("'k'") == 1  # and again in the next command


def test_a_constant_column_is_named_once_in_the_notes(tmp_path, capsys):
    p = tmp_path / "const.csv"
    _good(tmp_path).assign(k=1.0).to_csv(p, index=False)
    rc, out, err = _run(capsys, ["compare", str(p), "-t", "label", "-m", "cc,mi"])
    assert rc == 0 and (out + err).count("'k'") + out.count(": k") == 1


def test_unknown_method_is_a_value_error_and_a_string_is_one_method():
    import featsieve
    from featsieve.evaluation import compare

    with pytest.raises(ValueError, match="Unknown method 'fastenr'"):
        featsieve.make_selector("fastenr", task="classification")
    with pytest.raises(KeyError):
        featsieve.make_selector("fastenr", task="classification")
    X, y = featsieve.datasets.load_sonar(return_X_y=True)
    res = compare(X, y, methods="cc", estimator="tree", random_state=0)
    assert [r["method"] for r in res.rows] == ["all", "baseline", "cc"]


def test_k_picks_the_front_item_of_a_pareto_search(capsys):
    rc, out, err = _run(capsys, ["select", "sonar", "--method", "fastener", "-k", "3",
                                 "--model", "tree"])
    n = int(out.split("kept ")[1].split()[0])
    assert rc == 0 and 1 <= n <= 3 and "not used" not in err
    rc, out, err = _run(capsys, ["select", "sonar", "--method", "gbmo", "-k", "3",
                                 "--model", "tree"])
    assert rc == 0 and "was not used" in err


def test_cli_restores_warning_display_and_clamps_n_jobs(capsys):
    import os
    import warnings

    from featsieve.cli import main

    before = warnings.showwarning
    cores = os.cpu_count() or 1
    assert main(["methods", "--task", "regression"]) == 0
    assert warnings.showwarning is before
    from featsieve.cli import _n_jobs

    assert _n_jobs(cores + 5) == cores and _n_jobs(-1) == -1
    assert f"using {cores}" in capsys.readouterr().err


def test_output_paths_devices_fifos_links_empty_and_stdout(tmp_path, capsys):
    import os

    import numpy as np
    import pandas as pd

    from featsieve.cli import main

    rng = np.random.default_rng(0)
    data = tmp_path / "d.csv"
    pd.DataFrame(rng.normal(size=(40, 4)), columns=list("abcd")).assign(
        t=rng.integers(0, 2, 40)).to_csv(data, index=False)
    args = ["select", str(data), "--target", "t", "--method", "cc", "-k", "2", "-q", "-o"]
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    target = tmp_path / "real.csv"
    target.write_text("keep me")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    for bad, why in ((os.devnull, "not a regular file"), (str(fifo), "not a regular file"),
                     (str(link), "symbolic link"), ("", "empty")):
        assert main(args + [bad]) == 2
        assert why in capsys.readouterr().err
    assert target.read_text() == "keep me" and link.is_symlink()  # the link and its target
    assert main(args + ["-"]) == 0
    out = capsys.readouterr()
    assert out.out.splitlines()[0] == "a,b,t" or out.out.splitlines()[0].endswith(",t")
    assert "kept 2 of 4" in out.err


@pytest.mark.parametrize("sig, code", [("SIGINT", 130), ("SIGTERM", 143)])
def test_an_interrupt_writes_the_finished_rows_marked_incomplete(tmp_path, sig, code):
    import json
    import signal
    import subprocess
    import sys

    out_json, report = tmp_path / "run.json", tmp_path / "run.html"
    proc = subprocess.Popen(
        [sys.executable, "-m", "featsieve", "compare", "sonar", "-m", "cc,forward",
         "--model", "tree", "--n-jobs", "1", "--repeats", "2", "--json", str(out_json),
         "--report", str(report)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    err = []
    for line in proc.stderr:  # progress lines: send the signal once cc's row has finished
        err.append(line)
        if "cc done" in line:
            proc.send_signal(getattr(signal, sig))
            break
    out, rest = proc.communicate(timeout=180)
    err = "".join(err) + rest
    assert proc.returncode == code, err
    assert "Traceback" not in err and "Traceback" not in out
    data = json.loads(out_json.read_text())
    assert data["complete"] is False and data["interrupted"] is True
    assert [r["method"] for r in data["results"]] == ["all", "cc"] and data["baseline"]
    assert any("interrupted" in n for n in data["notes"])
    assert report.exists() and "cc" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.html", "run.json"]  # no temp


def test_select_counts_name_the_constant_columns(tmp_path, capsys):
    """``kept k of M`` says how many of the M are constant (no method can keep them)."""
    rng = np.random.default_rng(0)
    df = pd.DataFrame(rng.normal(size=(100, 4)), columns=list("abcd"))
    df["flat"] = 3.0
    df["target"] = (df.a > 0).astype(int)
    path = tmp_path / "t.csv"
    df.to_csv(path, index=False)
    rc, out, err = _run(capsys, ["select", str(path), "-t", "target", "--method", "cc",
                                 "-k", "2"])
    assert rc == 0, err
    assert out.splitlines()[0] == ("cc: kept 2 of 5 columns (1 constant, which no method can "
                                   "keep: flat)")


def test_a_parquet_column_of_lists_is_refused_by_name(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    df = _good(tmp_path)
    df["lst"] = [[1, 2]] * len(df)  # read back from Parquet as NumPy arrays
    p = tmp_path / "lists.parquet"
    df.to_parquet(p)
    rc, _, err = _run(capsys, ["select", str(p), "--target", "label", "--method", "cc", "-q"])
    assert rc == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert "Column 'lst' holds ndarray values (first: array([1, 2]))" in err


def test_column_group_with_an_unknown_column_is_named_in_the_cli_words(tmp_path, capsys):
    p = tmp_path / "t.csv"
    _good(tmp_path).to_csv(p, index=False)
    rc, _, err = _run(capsys, ["select", str(p), "--target", "label", "--method", "cc",
                               "--column-group", "pair=a,bx", "-q"])
    assert rc == 2 and len(err.strip().splitlines()) == 1
    assert "--column-group pair: 'bx' is not a feature column of" in err
    assert "columns: a, b, c, d." in err


def test_select_writes_a_semicolon_csv_back_in_its_own_format(tmp_path, capsys):
    df = _good(tmp_path).round(3)
    src, out = tmp_path / "semi.csv", tmp_path / "out.csv"
    df.to_csv(src, sep=";", decimal=",", index=False)
    rc, _, err = _run(capsys, ["select", str(src), "--target", "label", "--method", "cc",
                               "-k", "1", "-o", str(out), "-q"])
    assert rc == 0, err
    lines = out.read_text().splitlines()
    assert lines[0] == "a;label"  # the input's separator, cells as written (decimal commas)
    assert lines[1] == f"{str(df['a'][0]).replace('.', ',')};{df['label'][0]}"
