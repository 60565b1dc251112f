"""conesim.plot and conesim.figures, from Python and through `conesim plot` / `conesim figure`:
every figure renders with content, its numbers are cone-math's worked numbers, a recorded
run plots, and bad input gets the documented exit codes."""
import csv
import math
import os
import subprocess

import numpy as np
import pytest

pytest.importorskip("matplotlib")

import conesim.figures  # noqa: E402
import conesim.plot  # noqa: E402

EXE = os.environ["CONESIM_EXE"]
SCENES = os.environ["CONESIM_SCENES"]


def _cli(*args):
    # the program finds its own package and library: none of the test's settings leak in
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CONESIM_LIBRARY")}
    return subprocess.run([EXE, *map(str, args)], capture_output=True, text=True, env=env,
                          timeout=120)


def _assert_drawn(path, min_colours=20):
    """A valid PNG with a real picture on it: many colours, much of it not background."""
    with open(path, "rb") as fh:
        assert fh.read(8) == b"\x89PNG\r\n\x1a\n"
    from matplotlib.image import imread
    img = imread(path)
    assert img.ndim == 3 and img.shape[0] > 200 and img.shape[1] > 200
    rgb = np.round(img[..., :3] * 255).astype(np.uint8).reshape(-1, 3)
    colours = np.unique(rgb, axis=0)
    assert len(colours) >= min_colours, f"{path}: only {len(colours)} colours"
    inked = np.mean(np.any(rgb < 240, axis=1))
    assert inked > 0.03, f"{path}: {inked:.1%} of the pixels drawn"


def _data(path):
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["name", "value"]
    out = {}
    for name, value in rows[1:]:
        try:
            out[name] = float(value)
        except ValueError:
            out[name] = value
    return out


@pytest.mark.parametrize("name", conesim.figures.NAMES)
def test_every_figure_renders_from_the_command(tmp_path, name):
    out, data = tmp_path / f"{name}.png", tmp_path / f"{name}.csv"
    r = _cli("figure", name, "--out", out, "--data", data)
    assert r.returncode == 0, r.stderr
    _assert_drawn(out)
    assert len(_data(data)) >= 5


def test_cone_data_boundary_point_and_semi_axes(tmp_path):
    d = tmp_path / "cone.csv"
    assert _cli("figure", "cone", "--out", tmp_path / "c.png", "--data", d).returncode == 0
    v = _data(d)
    assert (v["fn"], v["mu1"], v["mu2"]) == (20, 0.8, 0.4)
    assert (v["f1"], v["f2"]) == (9.6, 6.4) and v["where"] == "boundary"
    assert v["radius"] == pytest.approx(1, abs=1e-12)  # 0.36 + 0.64 = 1
    assert (v["section4.semi_axis1"], v["section4.semi_axis2"]) == pytest.approx((16, 8))
    assert (v["section2.semi_axis1"], v["section2.semi_axis2"]) == pytest.approx((8, 4))


def test_select_data_maximum_dissipation(tmp_path):
    d = tmp_path / "select.csv"
    assert _cli("figure", "select", "--out", tmp_path / "s.png", "--data", d).returncode == 0
    v = _data(d)
    assert v["where"] == "boundary"
    assert v["slide_f1"] == pytest.approx(-14.310835056, abs=1e-8)
    assert v["slide_f2"] == pytest.approx(-3.577708764, abs=1e-8)
    assert v["slide_power"] == pytest.approx(-20 * math.sqrt(0.8), abs=1e-9)
    assert v["slide_angle_deg"] == pytest.approx(-165.96, abs=0.01)
    assert v["minus_v_angle_deg"] == pytest.approx(-135)


def test_select_outside_force_and_other_velocity(tmp_path):
    d = tmp_path / "select.csv"
    r = _cli("figure", "select", "--f", "16,8", "--v", "1,0", "--out", tmp_path / "s.png",
             "--data", d)
    assert r.returncode == 0, r.stderr
    v = _data(d)
    assert v["where"] == "outside"  # (16/0.8)^2 + (8/0.4)^2 = 2 f_n^2
    assert (v["slide_f1"], v["slide_f2"]) == pytest.approx((-16, 0), abs=1e-12)  # -mu1 f_n


def test_qcqp_data_multiplier(tmp_path):
    d = tmp_path / "qcqp.csv"
    assert _cli("figure", "qcqp", "--out", tmp_path / "q.png", "--data", d).returncode == 0
    v = _data(d)
    assert v["lambda"] == pytest.approx(math.sqrt(5) - 1, abs=1e-10)
    assert (v["x1"], v["x2"]) == pytest.approx((2 / math.sqrt(5), 0.5 / math.sqrt(5)), abs=1e-9)
    assert (v["unconstrained_x1"], v["unconstrained_x2"]) == pytest.approx((2, 0.5))
    assert v["active"] == 1


def test_zones_data_borders_and_slopes(tmp_path):
    d = tmp_path / "zones.csv"
    assert _cli("figure", "zones", "--out", tmp_path / "z.png", "--data", d).returncode == 0
    v = _data(d)
    assert (v["top_border_jn"], v["bottom_border_jn"]) == (1, -1)
    assert v["fn_at_bottom_border"] == pytest.approx(1, abs=1e-12)
    assert v["fn_at_0"] == pytest.approx(0.5, abs=1e-12)
    assert v["slope_middle"] == pytest.approx(-0.5, abs=1e-6)
    assert v["slope_bottom"] == pytest.approx(-1, abs=1e-6)
    assert v["fn_top"] == 0


def test_pyramid_round_trip_and_mujoco_encoding(tmp_path):
    rows = dict(conesim.figures.pyramid(tmp_path / "p.png", fn=1, mu=(1, 1), f=(0.8, 0)))
    assert rows["representable"] == 1
    assert (rows["decoded_fn"], rows["decoded_f1"], rows["decoded_f2"]) == pytest.approx((1, 0.8, 0))
    assert all(rows[f"alpha{k}"] >= 0 for k in ("1+", "1-", "2+", "2-"))
    # MuJoCo's encoding is not exact here although the force is inside the diamond
    assert rows["mujoco_decoded_f1"] == pytest.approx(0.5)
    _assert_drawn(tmp_path / "p.png")


@pytest.mark.parametrize("ext, magic", [(".svg", b"<?xml"), (".pdf", b"%PDF")])
def test_format_follows_the_extension(tmp_path, ext, magic):
    out = tmp_path / f"cone{ext}"
    assert _cli("figure", "cone", "--out", out).returncode == 0
    assert out.read_bytes()[:len(magic)] == magic


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A block sliding down an incline of friction 0.5, recorded with its contacts."""
    d = tmp_path_factory.mktemp("run")
    t, c = d / "t.csv", d / "c.csv"
    r = subprocess.run([EXE, "run", os.path.join(SCENES, "incline_slide.xml"), "--record", t,
                        "--contacts", c, "--quiet"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return t, c


def test_plot_of_a_recorded_run(tmp_path, recorded):
    t, c = recorded
    out = tmp_path / "run.png"
    r = _cli("plot", t, "--contacts", c, "--out", out)
    assert r.returncode == 0, r.stderr
    _assert_drawn(out)


def test_plot_from_python_panels_and_body(tmp_path, recorded):
    t, c = recorded
    out = tmp_path / "run.png"
    what = conesim.plot.trajectory(t, c, what="vel,friction,slip", body="box", out=out)
    assert what == ["vel", "friction", "slip"]
    _assert_drawn(out)
    assert conesim.plot.trajectory(t, out=tmp_path / "t.png") == ["pos", "vel"]


def test_estimated_bound_is_the_scene_friction(recorded):
    # the block slides on friction 0.5: its sliding contacts sit on the cone |f_t| = 0.5 f_n
    contacts = conesim.plot.read_contacts(recorded[1])
    assert conesim.plot.estimate_mu(contacts) == pytest.approx(0.5, abs=0.01)


def test_bad_command_lines_exit_2(tmp_path, recorded):
    t, c = recorded
    assert _cli("figure", "nothing", "--out", tmp_path / "x.png").returncode == 2
    assert _cli("figure", "cone", "--out", tmp_path / "x.gif").returncode == 2
    assert _cli("figure", "zones", "--fn", "3", "--out", tmp_path / "x.png").returncode == 2
    assert _cli("figure", "cone").returncode == 2  # no --out
    r = _cli("plot", t, "--what", "pos,colour", "--out", tmp_path / "x.png")
    assert r.returncode == 2 and "colour" in r.stderr
    assert _cli("plot", t, "--what", "slip", "--out", tmp_path / "x.png").returncode == 2
    assert not (tmp_path / "x.png").exists()


def test_bad_input_files_exit_3_with_file_and_line(tmp_path, recorded):
    t, c = recorded
    bad = tmp_path / "bad.csv"
    lines = t.read_text().splitlines()
    lines[3] = lines[3].replace(lines[3].split(",")[4], "oops", 1)
    bad.write_text("\n".join(lines) + "\n")
    r = _cli("plot", bad, "--out", tmp_path / "x.png")
    assert r.returncode == 3 and f"{bad}:4:" in r.stderr, r.stderr
    r = _cli("plot", c, "--out", tmp_path / "x.png")  # a contacts file is not a trajectory
    assert r.returncode == 3 and f"{c}:1:" in r.stderr
    assert _cli("plot", tmp_path / "none.csv", "--out", tmp_path / "x.png").returncode == 3
    r = _cli("plot", t, "--body", "nobody", "--out", tmp_path / "x.png")
    assert r.returncode == 3 and "nobody" in r.stderr


def test_unwritable_output_exits_4(tmp_path, recorded):
    r = _cli("figure", "cone", "--out", tmp_path / "no" / "dir" / "x.png")
    assert r.returncode == 4 and "cannot write" in r.stderr
    r = _cli("plot", recorded[0], "--out", tmp_path / "no" / "x.png")
    assert r.returncode == 4


def test_missing_matplotlib_is_named(tmp_path):
    fake = tmp_path / "matplotlib"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('no matplotlib here')\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CONESIM_LIBRARY")}
    env["PYTHONPATH"] = str(tmp_path)
    r = subprocess.run([EXE, "figure", "cone", "--out", tmp_path / "x.png"], env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 5 and "matplotlib is missing" in r.stderr, r.stderr


def test_python_lookup_skips_one_without_the_modules(tmp_path):
    # a python3 first on PATH that cannot import numpy (no site packages) is passed over
    # for one that can; CONESIM_PYTHON is taken as given, and its lack is named
    bindir = tmp_path / "bin"
    bindir.mkdir()
    fake = bindir / "python3"
    fake.write_text("#!/bin/sh\nexec /usr/bin/python3 -S \"$@\"\n")
    fake.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CONESIM_LIBRARY",
                                                             "CONESIM_PYTHON")}
    env["PATH"] = f"{bindir}:{env.get('PATH', '/usr/bin')}"
    r = subprocess.run([EXE, "figure", "zones", "--out", tmp_path / "z.png"], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    _assert_drawn(tmp_path / "z.png")
    env["CONESIM_PYTHON"] = str(fake)
    r = subprocess.run([EXE, "figure", "zones", "--out", tmp_path / "y.png"], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 5 and "numpy is missing" in r.stderr, r.stderr


def test_help(tmp_path):
    r = _cli("help", "figure")
    assert r.returncode == 0 and "qcqp" in r.stdout
    r = _cli("plot", "--help")
    assert r.returncode == 0 and "--contacts" in r.stdout


def test_contact_panels_drop_to_zero_where_there_is_no_contact(recorded):
    # the block starts above the slope and bounces: steps with no contact row are in the
    # series with no force (a line across them would hide the flight)
    t, c = recorded
    traj = conesim.plot.read_trajectory(t)
    contacts = conesim.plot.read_contacts(c)
    s = conesim.plot.contact_series(traj, contacts)
    traj_steps = sorted({int(r["step"]) for r in traj})
    assert list(s["step"]) == traj_steps
    with_contact = {int(r["step"]) for r in contacts}
    gaps = np.array([k not in with_contact for k in s["step"]])
    assert gaps.sum() >= 100 and (~gaps).sum() >= 100  # incline_slide: 146 of 500 steps
    assert np.all(s["ncon"][gaps] == 0)
    assert np.all(s["normal"][gaps] == 0) and np.all(s["friction"][gaps] == 0)
    assert np.all(s["penetration"][gaps] == 0) and np.all(np.isnan(s["slip"][gaps]))
    assert np.all(s["normal"][~gaps] > 0) and not np.any(np.isnan(s["slip"][~gaps]))
    # a step in contact sums its contacts
    k = sorted(with_contact)[0]
    i = traj_steps.index(k)
    assert s["normal"][i] == pytest.approx(sum(r["fn"] for r in contacts if r["step"] == k))
    assert s["time"][i] == next(r["time"] for r in traj if r["step"] == k)


def test_plotted_lines_are_the_series_with_the_gaps(tmp_path, recorded, monkeypatch):
    # what reaches matplotlib: the normal line has a point on every step, 0 in the gaps
    t, c = recorded
    captured = {}
    real_save = conesim.plot.save

    def grab(fig, out):
        captured["fig"] = fig
        real_save(fig, out)
    monkeypatch.setattr(conesim.plot, "save", grab)
    conesim.plot.trajectory(t, c, what="normal,slip", out=tmp_path / "n.png",
                            scene=os.path.join(SCENES, "incline_slide.xml"))
    fig = captured["fig"]
    normal, slip = (ax.get_lines()[0] for ax in fig.axes)
    s = conesim.plot.contact_series(conesim.plot.read_trajectory(t),
                                    conesim.plot.read_contacts(c))
    assert np.array_equal(normal.get_ydata(), s["normal"])
    assert np.sum(normal.get_ydata() == 0) >= 100
    assert np.sum(np.isnan(slip.get_ydata())) >= 100
    assert fig._suptitle.get_text() == "incline_slide.xml: body box"


def test_title_names_the_scene_and_bodies_not_the_file(tmp_path, recorded):
    t, c = recorded
    out = tmp_path / "run.svg"
    r = _cli("plot", t, "--contacts", c, "--scene", os.path.join(SCENES, "incline_slide.xml"),
             "--out", out)
    assert r.returncode == 0, r.stderr
    svg = out.read_text()
    assert "incline_slide.xml: body box" in svg and "t.csv" not in svg
    assert conesim.plot.title(None, ["box"]) == "body box"
    assert conesim.plot.title("a/b.xml", [f"b{i}" for i in range(7)]) == \
        "b.xml: bodies b0, b1, b2, b3, b4 and 2 more"
