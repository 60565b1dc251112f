"""conesim.sweep and rollout, here and on a Dask cluster of two worker processes."""
import csv
import multiprocessing
import os
import subprocess
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import conesim

HERE = os.path.dirname(os.path.abspath(__file__))
BLOCK = os.path.join(HERE, "..", "..", "tests", "data", "good", "block_tilt.xml")
EXE = os.environ["CONESIM_EXE"]
# the floor's friction lowered so that the block's counts (MuJoCo mixes by the larger)
GRID = {"geom.block.friction[0]": "0.3:0.6:2", "option.gravity[0]": [2.0, 4.5, 7.0]}
SET = {"geom.floor.friction[0]": 0.1}


@pytest.fixture(scope="module")
def local_rows():
    return conesim.sweep(BLOCK, GRID, duration=0.5, set=SET)


def test_rows_are_the_commands(local_rows, tmp_path):
    out = tmp_path / "s.csv"
    subprocess.run([EXE, "sweep", BLOCK, "--vary", "geom.block.friction[0]=0.3:0.6:2",
                    "--vary", "option.gravity[0]=2:7:3", "--duration", "0.5",
                    "--set", "geom.floor.friction[0]=0.1", "--out", str(out)], check=True)
    with open(out) as f:
        table = list(csv.DictReader(f))
    assert len(table) == len(local_rows) == 6
    for want, got in zip(table, local_rows):
        assert set(want) == set(got)
        for k, v in want.items():
            assert (v if k == "verdict" else float(v)) == got[k], k


def test_stick_below_mu_g_slide_above(local_rows):
    # mu 0.3: mu g = 2.943; mu 0.6: 5.886 (g_z 9.81)
    verdicts = [(r["geom.block.friction[0]"], r["option.gravity[0]"], r["verdict"])
                for r in local_rows]
    for mu, gx, v in verdicts:
        assert v == ("slide" if gx > mu * 9.81 else "stick"), (mu, gx, v)


def test_dask_cluster_gives_the_same_rows_and_rollouts(local_rows):
    import distributed  # Debian's python3-distributed (scripts/setup installs it)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        rows = conesim.sweep(BLOCK, GRID, duration=0.5, set=SET, client=client)
        assert rows == local_rows
        m = conesim.Model.from_xml_path(BLOCK)
        s0 = np.tile(conesim.get_state(m, conesim.Data(m)), (5, 1))
        s0[:, 3] += np.linspace(0.0, 0.2, 5)  # [time, qpos]: each drops from its own height
        here = conesim.rollout(m, s0, 60)
        there = conesim.rollout(m, s0, 60, client=client)
        assert there.shape == here.shape
        assert np.array_equal(here, there)
        assert not np.array_equal(here[0], here[4])  # the batch did differ


def test_executor_and_errors(local_rows):
    # spawned workers: a forked one inherits the state of every thread the earlier tests left
    # (Dask's event loop), and a lock one of them held can never be released in the child
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as ex:
        assert conesim.sweep(BLOCK, GRID, duration=0.5, set=SET, client=ex) == local_rows
    with pytest.raises(KeyError):
        conesim.sweep(BLOCK, {"option.nosuch": [1.0]}, steps=2)
    with pytest.raises(ValueError):
        conesim.sweep(BLOCK, {"option.impratio": "1:2"}, steps=2)
    with pytest.raises(ValueError):
        conesim.sweep(BLOCK, {"option.impratio": [1.0]}, steps=2, metrics=["speed"])
    # a varied size is recompiled: a block of half-height 0.2 m at 0.1 m starts 0.1 m deep
    rows = conesim.sweep(BLOCK, {"geom.block.size[2]": [0.1, 0.2]}, steps=1,
                         metrics=["max_penetration"])
    assert rows[0]["max_penetration"] < 1e-3
    assert abs(rows[1]["max_penetration"] - 0.1) < 1e-3
