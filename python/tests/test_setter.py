"""Changing the model between steps (m.set / conesim.set over cs_set), scenes edited before
they compile (from_xml_path(edits=...)), and the CLI's CSVs and sweep metrics written from a
Python loop by the same C code: byte for byte and number for number."""
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import conesim

SCENES = os.environ["CONESIM_SCENES"]
EXE = os.environ["CONESIM_EXE"]
STICK = os.path.join(SCENES, "incline_stick.xml")
SLIDE = os.path.join(SCENES, "incline_slide.xml")


def along(m, d):
    return float(np.linalg.norm(d.joint(0).qvel[:3]))


def test_friction_between_steps_stick_to_slide():
    # tan(gamma) = 0.45 < mu = 0.5 sticks; at mu = 0.3 the box slides with
    # a = g (sin gamma - mu cos gamma), in the same data, without reloading
    m = conesim.Model.from_xml_path(STICK)
    d = conesim.Data(m)
    conesim.step(m, d, 250)
    assert along(m, d) < 0.005
    conesim.set(m, "geom.slope.friction[0]", 0.3)
    m.set("geom.box.friction", [0.3, 0.005, 0.0001])
    assert m.geom("box").friction[0] == 0.3 and m.get("geom.slope.friction[0]") == 0.3
    conesim.step(m, d, 50)
    v0, t0 = along(m, d), d.time
    conesim.step(m, d, 250)
    g = math.atan(0.45)
    a = 9.81 * (math.sin(g) - 0.3 * math.cos(g))
    assert (along(m, d) - v0) / (d.time - t0) == pytest.approx(a, rel=0.05)


def test_set_refuses_and_reads_back():
    m = conesim.Model.from_xml_path(STICK)
    with pytest.raises(KeyError, match="no geom named 'nope'"):
        m.set("geom.nope.friction[0]", 1)
    with pytest.raises(KeyError, match="cannot be set"):
        m.set("geom.box.type", 1)
    with pytest.raises(ValueError, match="must not be negative"):
        m.set("geom.box.friction[0]", -1)
    with pytest.raises(ValueError, match="expects 3 values"):
        m.set("geom.box.friction", [1, 2])
    assert m.geom("box").friction[0] == 0.5  # unchanged
    m.set("option.solver", "pgs")
    assert m.opt.solver == 0 and m.get("opt.solver") == 0
    m.set("opt.gravity[0]", 1.5)
    assert list(m.get("option.gravity")) == [1.5, 0, -9.81]
    m.set("body.box.mass", 2)
    assert m.body("box").mass[0] == 2
    assert m.body_invweight0[m.body("box").id, 0] == pytest.approx(0.5)
    with pytest.raises(ValueError, match="read only"):  # computed: not set by hand
        m.body_invweight0[1, 0] = 0.1


def test_edits_recompile():
    # the incline's angle through its frame's euler: the box's orientation follows exactly
    scene = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "good",
                         "incline_frame.xml")
    m = conesim.Model.from_xml_path(scene, edits={"frame.ramp.euler[0]": 30})
    half = math.radians(15)
    assert m.qpos0[3:7] == pytest.approx([math.cos(half), math.sin(half), 0, 0], abs=1e-12)
    with pytest.raises(ValueError, match='no <frame name="nope">'):
        conesim.Model.from_xml_path(scene, edits={"frame.nope.euler[0]": 30})


def start(m):
    d = conesim.Data(m)
    if m.nkey:  # `conesim run` starts from the first keyframe
        conesim.reset_data_keyframe(m, d, 0)
    return d


def test_csv_and_metrics_equal_the_cli(tmp_path):
    n = 300
    cli = tmp_path / "cli"
    cli.mkdir()
    subprocess.run([EXE, "run", SLIDE, "--steps", str(n), "--quiet",
                    "--record", str(cli / "t.csv"), "--contacts", str(cli / "c.csv"),
                    "--joints", str(cli / "j.csv"), "--summary", str(cli / "s.csv")],
                   check=True, stdout=subprocess.DEVNULL)
    m = conesim.Model.from_xml_path(SLIDE)
    d = start(m)
    with conesim.Recorder(m, d, tmp_path / "t.csv", "trajectory") as traj, \
            conesim.Recorder(m, d, tmp_path / "c.csv", "contacts") as con, \
            conesim.Recorder(m, d, tmp_path / "j.csv", "joints") as jnt:
        met = conesim.Metrics(m, d, n)
        traj.write(0)
        jnt.write(0)
        for k in range(n):
            conesim.step(m, d)
            con.write(k)
            met.step()
            traj.write(k + 1)
            jnt.write(k + 1)
    for name in ("t.csv", "c.csv", "j.csv"):
        assert (tmp_path / name).read_bytes() == (cli / name).read_bytes(), name
    assert (tmp_path / "c.csv").read_text().count("\n") > n  # contacts were recorded
    got = met.end()
    assert got["verdict"] == "slide" and got["max_slip"] > 0.1
    text = met.text()
    header, row = (cli / "s.csv").read_text().splitlines()[:2]
    cols = dict(zip(header.split(","), row.split(",")))
    for name in ("displacement", "max_slip", "verdict", "max_penetration", "mean_contacts",
                 "mean_iterations"):
        assert text[name] == cols[name], name
    # and the sweep's row for the same run (a one-value --vary of an unchanged parameter)
    subprocess.run([EXE, "sweep", SLIDE, "--steps", str(n), "--out", str(cli / "w.csv"),
                    "--vary", "option.impratio=%r:%r:1" % (m.opt.impratio, m.opt.impratio)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    header, row = (cli / "w.csv").read_text().splitlines()[:2]
    cols = dict(zip(header.split(","), row.split(",")))
    for name in ("displacement", "max_slip", "verdict", "max_penetration"):
        assert text[name] == cols[name], name


def test_plot_without_importing_the_submodule():
    pytest.importorskip("matplotlib")
    code = "import conesim; print(callable(conesim.plot.trajectory))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "True"
