"""The Python package against libconesim: names, views, errors, physics, and the CLI."""
import csv
import gc
import os
import subprocess

import numpy as np
import pytest

import conesim

SCENES = os.environ["CONESIM_SCENES"]
SPHERE = os.path.join(SCENES, "sphere_plane.xml")

BALL_3KG = """<mujoco model="ball3">
  <option timestep="0.002" cone="elliptic" solver="PGS"/>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 0.1"/>
    <body name="ball" pos="0 0 0.1"><freejoint/>
      <geom name="sphere" type="sphere" size="0.1" mass="3"/></body>
  </worldbody>
</mujoco>"""


def test_sizes_and_model_arrays():
    m = conesim.Model.from_xml_path(SPHERE)
    assert (m.nq, m.nv, m.nbody, m.ngeom) == (7, 6, 2, 2)
    assert m.body_mass.shape == (2,) and m.body_mass[1] == 2.0
    assert m.geom_size.shape == (2, 3) and m.geom_size[1, 0] == 0.1
    assert m.geom_type[0] == 0 and m.geom_type[1] == 2  # plane, sphere (mjtGeom)
    assert m.geom("floor").id == 0 and m.geom("sphere").id == 1
    assert m.body("ball").id == 1
    with pytest.raises(KeyError):
        m.geom("nothing")
    with pytest.raises(ValueError, match="read only"):  # structure: read only
        m.geom_type[1] = 3


MOCAP_KEYS = """<mujoco><worldbody><geom type="plane" size="1 1 0.1"/>
  <body name="target" mocap="true" pos="0 0 1"><geom size="0.05"/></body>
  <body name="b" pos="0 0 0.2"><freejoint/><geom size="0.1"/></body></worldbody>
  <keyframe><key qpos="0 0 0.3 1 0 0 0" mpos="0 1 1" mquat="1 0 0 0"/><key/></keyframe>
</mujoco>"""


def test_keyframe_mocap_poses_and_fluid_options():
    m = conesim.Model.from_xml_string(MOCAP_KEYS)
    assert m.key_mpos.shape == (2, 3) and list(m.key_mpos[0]) == [0, 1, 1]
    assert m.key_mquat.shape == (2, 4) and list(m.key_mquat[1]) == [1, 0, 0, 0]
    m.opt.viscosity = 0.5
    m.opt.wind = [1, 0, 0]
    assert m.opt.viscosity == 0.5 and list(m.opt.wind) == [1, 0, 0]


def test_copies_step_alike():
    import copy
    import pickle
    m = conesim.Model.from_xml_path(os.path.join(SCENES, "box_stack.xml"))
    d = conesim.Data(m)
    for _ in range(50):
        conesim.step(m, d)
    c, dc = copy.copy(d), copy.deepcopy(d)
    assert c.model is m and dc.model is not m
    for _ in range(200):
        conesim.step(m, d)
        conesim.step(m, c)
        conesim.step(dc.model, dc)
    assert d.qpos.tobytes() == c.qpos.tobytes() == dc.qpos.tobytes()
    assert d.qvel.tobytes() == c.qvel.tobytes() == dc.qvel.tobytes()
    m2 = copy.copy(m)
    m2.set("geom.0.friction[0]", 0.1)
    assert m.geom_friction[0, 0] != 0.1
    del m2, c, dc
    gc.collect()
    e = pickle.loads(pickle.dumps(d))
    assert e.model is not m and e.qpos.tobytes() == d.qpos.tobytes()


SLOPE = os.path.join(SCENES, "incline_slide.xml")


def _slide(args):
    """The box's pose after 0.4 s on a slope of friction mu (a worker's task)."""
    m, mu = args
    m.set("geom.slope.friction[0]", mu)
    d = conesim.Data(m)
    conesim.step(m, d, 200)
    return d.qpos.copy(), d.time


def test_pickled_model_keeps_source_edits_and_changes():
    import copy
    import pickle
    m = conesim.Model.from_xml_path(SLOPE, edits={"geom.box.size": "0.08 0.1 0.1"})
    m.set("body.box.mass", 2.5)          # a change by the setter (inverse weights follow)
    m.opt.timestep = 0.001
    m.opt.solver = "cg"
    m2 = pickle.loads(pickle.dumps(m))
    assert m2 is not m and m2.nbody == m.nbody and m2.body_names == m.body_names
    assert m2.geom("box").size[0] == 0.08 and m2.body("box").mass[0] == 2.5
    assert m2.opt.timestep == 0.001 and m2.opt.solver == m.opt.solver
    for name in ("body_invweight0", "dof_invweight0", "dof_M0", "geom_rbound", "qpos0"):
        assert getattr(m2, name).tobytes() == getattr(m, name).tobytes(), name
    d, d2 = conesim.Data(m), conesim.Data(m2)
    conesim.step(m, d, 150)
    conesim.step(m2, d2, 150)
    assert d.qpos.tobytes() == d2.qpos.tobytes()
    # a scene from a string, and a data: its model and state come along
    s = conesim.Model.from_xml_string(BALL_3KG)
    e = conesim.Data(s)
    e.qvel[0] = 0.5
    conesim.step(s, e, 60)
    e.ctrl[:] = 0
    e.xfrc_applied[1, 0] = 3.0
    f = pickle.loads(pickle.dumps(e))
    assert f.model.body_names == s.body_names and f.model is not s
    assert f.time == e.time and f.xfrc_applied[1, 0] == 3.0
    assert f.warning.tolist() == e.warning.tolist()
    assert f.ncon == e.ncon > 0  # results recomputed (forward)
    conesim.step(s, e, 100)
    conesim.step(f.model, f, 100)
    assert e.qpos.tobytes() == f.qpos.tobytes() and e.qvel.tobytes() == f.qvel.tobytes()
    # one model pickled once for several data
    a, b = pickle.loads(pickle.dumps((e, copy.copy(e))))
    assert a.model is b.model


def test_model_without_texels_steps_alike_and_pickles():
    import pickle
    path = os.path.join(os.path.dirname(__file__), "../../tests/data/good/visual.xml")
    a = conesim.Model.from_xml_path(path)
    b = conesim.Model.from_xml_path(path, textures=False)
    assert a.ntexdata == b.ntexdata > 0
    assert a.tex_data.any() and not b.tex_data.any()
    c = pickle.loads(pickle.dumps(b))
    assert not c.tex_data.any()
    da, db = conesim.Data(a), conesim.Data(c)
    conesim.step(a, da, 20)
    conesim.step(c, db, 20)
    assert da.qpos.tobytes() == db.qpos.tobytes()


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_multiprocessing_pool_of_two(method):
    import copy
    import multiprocessing
    m = conesim.Model.from_xml_path(SLOPE)
    m.set("body.box.mass", 1.5)
    local = [_slide((copy.copy(m), mu)) for mu in (0.3, 0.6)]
    with multiprocessing.get_context(method).Pool(2) as pool:
        # a timeout: a worker that dies unpickling must fail the test, not hang it
        got = pool.map_async(_slide, [(m, 0.3), (m, 0.6)]).get(timeout=120)
    assert len(got) == 2
    for (q, t), (ql, tl) in zip(got, local):
        assert q.tobytes() == ql.tobytes() and t == tl
    assert got[0][0][1] != got[1][0][1]  # the friction made a difference


def test_state_by_parts():
    m = conesim.Model.from_xml_path(os.path.join(SCENES, "box_stack.xml"))
    d, e = conesim.Data(m), conesim.Data(m)
    conesim.step(m, d, 40)
    s = conesim.get_state(m, d)
    assert s.shape == (1 + m.nq + m.nv + m.na,) and s[0] == d.time
    assert list(s[1:1 + m.nq]) == list(d.qpos)
    full = conesim.get_state(m, d, conesim.STATE_INTEGRATION)
    conesim.set_state(m, e, full, conesim.STATE_INTEGRATION)
    conesim.step(m, d, 100)
    conesim.step(m, e, 100)
    assert d.qpos.tobytes() == e.qpos.tobytes()
    with pytest.raises(ValueError):
        conesim.state_size(m, 1 << 12)
    with pytest.raises(ValueError):
        conesim.set_state(m, e, s, conesim.STATE_INTEGRATION)
    # rollouts with the mocap poses in the state
    k = conesim.Model.from_xml_string(MOCAP_KEYS)
    spec = conesim.STATE_FULLPHYSICS | conesim.STATE_MOCAP_POS
    s0 = np.tile(conesim.get_state(k, conesim.Data(k), spec), (2, 1))
    s0[1, -3:] = [0, 0, 5]
    out = conesim.rollout(k, s0, 3, spec=spec, nthread=1)
    assert out.shape == (2, 3, conesim.state_size(k, spec))
    assert list(out[1, -1, -3:]) == [0, 0, 5] and list(out[0, -1, -3:]) == [0, 0, 1]


def test_resting_ball_weighs_m_g():
    m = conesim.Model.from_xml_string(BALL_3KG)
    d = conesim.Data(m)
    conesim.step(m, d, 500)
    assert d.ncon == 1
    f = conesim.contact_force(m, d, 0)
    assert f.shape == (6,)
    weight = m.body_mass[m.body("ball").id] * np.linalg.norm(m.opt.gravity)
    assert f[0] == pytest.approx(weight, rel=1e-9)
    assert f[0] == pytest.approx(29.43, abs=1e-9)
    c = d.contact[0]
    assert {c.geom1, c.geom2} == {m.geom("floor").id, m.geom("sphere").id}
    assert c.dist < 0  # resting in the soft contact's slight penetration
    assert np.allclose(c.frame[:3], [0, 0, 1])  # the normal, floor to ball
    assert c.pos.shape == (3,) and abs(c.pos[2] - c.dist / 2) < 1e-12


def test_views_share_c_memory_and_outlive_nothing():
    m = conesim.Model.from_xml_path(SPHERE)
    d = conesim.Data(m)
    q = d.qpos
    q[2] = 0.5  # written through the view into cs_data
    conesim.forward(m, d)
    assert d.xpos[1, 2] == 0.5 and np.shares_memory(q, d.qpos)
    conesim.reset_data(m, d)
    assert d.time == 0 and np.array_equal(d.qpos, m.qpos0)
    # a view keeps its data (and the data its model) alive
    qvel = conesim.Data(conesim.Model.from_xml_path(SPHERE)).qvel
    gc.collect()
    qvel[:] = 1.0
    assert qvel.sum() == 6.0


def test_contact_views_stay_valid_across_steps():
    m = conesim.Model.from_xml_path(os.path.join(SCENES, "box_stack.xml"))
    d = conesim.Data(m)
    conesim.step(m, d, 1)
    pos = d.contact[0].pos  # a copy: the C array moves when it grows
    kept = np.array(pos)
    conesim.step(m, d, 200)
    assert d.ncon > 0
    assert np.array_equal(pos, kept) and not pos.flags.writeable  # still the user's
    assert np.array_equal(d.contact[0].pos, d.contact.pos[0])  # a new read: now's
    with pytest.raises(IndexError):
        d.contact[d.ncon]


def test_options_writable_until_data():
    m = conesim.Model.from_xml_path(SPHERE)
    m.opt.timestep = 0.001
    m.opt.gravity = [0, 0, -1.62]
    m.opt.cone = 0
    assert m.opt.timestep == 0.001 and m.opt.gravity[2] == -1.62 and m.opt.cone == 0
    with pytest.raises(ValueError):
        m.opt.timestep = -1
    with pytest.raises(TypeError):
        m.opt.iterations = None
    with pytest.raises(ValueError):
        m.opt.gravity = [0, 0]
    d = conesim.Data(m)
    conesim.step(m, d, 10)
    assert d.time == pytest.approx(0.01)
    m.opt.timestep = 0.002  # after a Data: through cs_set, and the data follows
    conesim.step(m, d, 10)
    assert d.time == pytest.approx(0.03)


def test_solver_cg_by_name_and_number():
    m = conesim.Model.from_xml_path(SPHERE)
    m.opt.solver = "cg"
    assert m.opt.solver == 1  # MuJoCo's mjSOL_CG
    m.opt.solver = 2
    m.opt.solver = "CG"
    d = conesim.Data(m)
    conesim.step(m, d, 50)
    assert d.ncon > 0


def test_energy_flag():
    m = conesim.Model.from_xml_path(SPHERE)
    d = conesim.Data(m)
    conesim.step(m, d, 5)
    assert list(d.energy) == [0, 0]
    m = conesim.Model.from_xml_path(SPHERE)
    m.opt.enableflags = 2  # MuJoCo's mjENBL_ENERGY
    d = conesim.Data(m)
    conesim.step(m, d, 5)
    assert d.energy.shape == (2,) and d.energy[1] > 0


def test_contact_model_option():
    # soft (MuJoCo's) by default; "coulomb" or 1 picks the Coulomb-exact model: a sphere
    # dropped on the plane then rests at the model's 1 um depth instead of the soft depth
    m = conesim.Model.from_xml_path(SPHERE)
    assert m.opt.contact == 0
    m.opt.contact = "coulomb"
    assert m.opt.contact == 1
    with pytest.raises(ValueError):
        m.opt.contact = "hard"
    d = conesim.Data(m)
    conesim.step(m, d, 1000)
    assert d.qvel[2] == pytest.approx(0, abs=1e-9)


def test_bad_scene_is_a_value_error_with_file_and_line(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text('<mujoco>\n<worldbody>\n<geom type="sphere" size="-1"/>\n</worldbody>\n</mujoco>\n')
    with pytest.raises(ValueError, match=r"bad\.xml:3: "):
        conesim.Model.from_xml_path(bad)
    with pytest.raises(ValueError, match=r"scene:1: "):
        conesim.Model.from_xml_string("<mujoco><nonsense/></mujoco>", "scene")
    with pytest.raises(ValueError):
        conesim.Model.from_xml_path(tmp_path / "missing.xml")


def test_wrong_types_and_shapes():
    m = conesim.Model.from_xml_path(SPHERE)
    d = conesim.Data(m)
    with pytest.raises(TypeError):
        conesim.Model.from_xml_path(3)
    with pytest.raises(TypeError):
        conesim.Data("model")
    with pytest.raises(TypeError):
        conesim.step(m, "data")
    with pytest.raises(TypeError):
        conesim.step(m, d, 1.5)
    with pytest.raises(ValueError):
        conesim.step(m, d, -1)
    with pytest.raises(ValueError):
        conesim.step(conesim.Model.from_xml_path(SPHERE), d)
    with pytest.raises(ValueError):
        d.qpos = np.zeros(3)
    with pytest.raises(TypeError):
        d.qvel = ["a"] * 6
    with pytest.raises(ValueError):
        conesim.contact_force(m, d, 5)
    with pytest.raises(TypeError):
        conesim.contact_force(m, d, "0")
    d.qvel = np.ones(6)
    assert d.qvel.sum() == 6


def test_python_and_cli_trajectories_are_identical(tmp_path):
    scene = os.path.join(SCENES, "incline_slide.xml")
    out = tmp_path / "traj.csv"
    subprocess.run([os.environ["CONESIM_EXE"], "run", scene, "--steps", "300", "--quiet",
                    "--record", str(out), "--threads", "1"], check=True)
    rows = [r for r in csv.DictReader(open(out)) if int(r["step"]) == 300]
    m = conesim.Model.from_xml_path(scene)
    m.opt.threads = 1
    d = conesim.Data(m)
    conesim.step(m, d, 300)
    assert len(rows) == m.njnt
    for f, r in enumerate(rows):
        cli = [float(r[k]) for k in ("x", "y", "z", "qw", "qx", "qy", "qz")]
        assert list(d.qpos[7 * f:7 * f + 7]) == cli  # bit for bit (%.17g round-trips)
        cli_v = [float(r[k]) for k in ("vx", "vy", "vz", "wx", "wy", "wz")]
        assert list(d.qvel[6 * f:6 * f + 6]) == cli_v


def test_cone_and_version():
    assert conesim.cone_capacity(2.0, 0.5, 0.5, 0.3) == pytest.approx(1.0)
    assert conesim.cone_capacity(1.0, 1.0, 0.5, np.pi / 2) == pytest.approx(0.5)
    assert conesim.version() == conesim.__version__ and conesim.__version__.count(".") == 2


def test_cone_calculator_worked_numbers():
    """docs/contact-math.md's worked numbers through conesim.cone."""
    c = conesim.cone.check(20, [0.8, 0.4], [9.6, 6.4])  # (9.6/16)^2 + (6.4/8)^2 = 1
    assert c["where"] == "boundary" and c["radius"] == pytest.approx(1.0)
    assert conesim.cone.check(20, [0.8, 0.4], [6, 8])["where"] == "outside"
    f, power = conesim.cone.slide(20, [0.8, 0.4], [1, 1])
    assert f == pytest.approx([-14.310835056, -3.577708764])
    assert power == pytest.approx(-17.888543820)
    q = conesim.cone.qcqp([[1, 0], [0, 4]], [-2, -2], [1, 0.5], 1)
    assert q["active"] and q["lambda"] == pytest.approx(np.sqrt(5) - 1)
    assert np.sum((q["x"] / [1, 0.5]) ** 2) == pytest.approx(1.0)
    zone, f, cost, hess = conesim.cone.soft([-0.5, 1], 1, [1])
    assert zone == "middle" and f == pytest.approx([0.75, -0.75])
    alpha, ok = conesim.cone.pyramid_encode(1, [1, 1], [0.5, 0])
    fn, back = conesim.cone.pyramid_decode([1, 1], alpha)
    assert ok and fn == pytest.approx(1) and back == pytest.approx([0.5, 0])
    with pytest.raises(ValueError):
        conesim.cone.qcqp([[1, 2], [2, 1]], [1, 1], [1, 1], 1)  # not positive definite
    with pytest.raises(ValueError):
        conesim.cone.slide(1, [1, 1], [1, 2, 3])


PENDULUM = """<mujoco>
  <option timestep="0.0005"/>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="swing" type="hinge" axis="0 1 0" range="-120 120"/>
      <geom type="sphere" size="0.01" pos="0.5 0 0" mass="1"/>
      <body name="tip" pos="0.5 0 0">
        <joint name="wrist" type="ball"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.1" size="0.01" mass="0.01"/>
      </body>
    </body>
  </worldbody>
</mujoco>"""


def test_joints_in_mujocos_layout():
    m = conesim.Model.from_xml_string(PENDULUM)
    assert (m.njnt, m.nq, m.nv) == (2, 5, 4)
    assert m.joint("swing").id == 0 and m.jnt("wrist").id == 1
    assert list(m.jnt_type) == [3, 1]  # hinge, ball (mjtJoint)
    assert list(m.jnt_qposadr) == [0, 1] and list(m.jnt_dofadr) == [0, 1]
    assert m.jnt_limited[0] == 1
    assert m.jnt_range[0] == pytest.approx([-2 * np.pi / 3, 2 * np.pi / 3])  # degrees by default
    assert list(m.dof_parent) == [-1, 0, 1, 2]
    d = conesim.Data(m)
    assert list(d.qpos) == [0, 1, 0, 0, 0]
    # released horizontal, a point mass on a massless rod swings down: at the bottom
    # (angle pi/2 about +y takes +x to -z) its speed is sqrt(2 g L)
    g, L, best = 9.81, 0.5, 0.0
    for _ in range(4000):
        conesim.step(m, d)
        best = max(best, abs(d.qvel[0]) * L)
    assert best == pytest.approx(np.sqrt(2 * g * L), rel=2e-2)


SERVO = """<mujoco>
  <option integrator="implicitfast" gravity="0 0 0"/>
  <worldbody>
    <body name="arm">
      <joint name="hinge" axis="0 0 1" range="-90 90"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.02" mass="1"/>
    </body>
  </worldbody>
  <actuator>
    <position name="servo" joint="hinge" kp="10" dampratio="1" inheritrange="0.5"/>
    <motor joint="hinge" gear="2"/>
  </actuator>
  <keyframe><key ctrl="0.3 0"/></keyframe>
</mujoco>"""


def test_actuators_in_mujocos_layout():
    m = conesim.Model.from_xml_string(SERVO)
    assert (m.nu, m.na) == (2, 0)
    assert m.actuator("servo").id == 0 and m.actuator(1).id == 1
    assert list(m.actuator_trnid[0]) == [0, -1]
    assert list(m.actuator_biastype) == [1, 0]  # affine, none (mjtBias)
    # inheritrange 0.5 of the joint's +-90 degrees
    assert m.actuator_ctrlrange[0] == pytest.approx([-np.pi / 4, np.pi / 4])
    # dampratio 1: kv = 2 sqrt(kp I), I = m L^2 / 3 plus the capsule's radius terms
    kv = -m.actuator_biasprm[0][2]
    assert kv == pytest.approx(2 * np.sqrt(10 * m.dof_M0[0]))
    assert m.actuator_gear[1][0] == 2 and m.key_ctrl.shape == (1, 2)
    d = conesim.Data(m)
    conesim.reset_data_keyframe(m, d, 0)
    assert list(d.ctrl) == [0.3, 0]
    d.ctrl[1] = 0.5  # writable: the motor adds gear * 0.5 = 1 N m
    conesim.forward(m, d)
    assert d.actuator_force[0] == pytest.approx(10 * 0.3)
    assert d.qfrc_actuator[0] == pytest.approx(3 + 2 * 0.5)
    d.ctrl[1] = 0
    conesim.step(m, d, 3000)  # critically damped: settles on the setpoint
    assert d.qpos[0] == pytest.approx(0.3, abs=1e-6)
    assert d.actuator_length[0] == pytest.approx(d.qpos[0])
    with pytest.raises(KeyError):
        m.actuator("nope")


def test_lookup_by_index_gives_the_name():
    m = conesim.Model.from_xml_string("""<mujoco><worldbody>
      <geom name="floor" type="plane" size="1 1 0.1"/>
      <body name="ball" pos="0 0 0.1"><freejoint name="free"/>
        <geom type="sphere" size="0.1"/></body>
      <body pos="1 0 0.1"><joint type="slide" axis="1 0 0"/><geom type="box" size=".1 .1 .1"/>
      </body>
      <body pos="2 0 0.1"><joint name="rail" type="slide" axis="1 0 0"/>
        <geom type="box" size=".1 .1 .1"/></body></worldbody>
      <actuator><motor name="push" joint="rail"/></actuator></mujoco>""")
    assert m.geom(0).name == "floor" and m.geom(np.int64(0)).name == "floor"
    assert m.geom(1).name == ""  # unnamed, as MuJoCo's bindings say it
    assert m.body(1).name == "ball" and m.body(2).name == ""
    assert m.joint(0).name == "free" and m.jnt(1).name == ""
    assert m.actuator(0).name == "push"
    for i in range(m.ngeom):  # by index and by name agree
        g = m.geom(i)
        if g.name:
            assert m.geom(g.name).id == i


def _run_joints(tmp_path, scene, *args):
    """qpos and qvel per step of `conesim run SCENE --joints` (%.17g: exact doubles)."""
    out = tmp_path / "j.csv"
    r = subprocess.run([os.environ["CONESIM_EXE"], "run", scene, "--joints", out, *args],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    qpos, qvel = {}, {}
    with open(out, newline="") as fh:
        for row in csv.DictReader(fh):
            k = int(row["step"])
            qpos.setdefault(k, []).extend(float(row[f"q{i}"]) for i in range(7) if row[f"q{i}"])
            qvel.setdefault(k, []).extend(float(row[f"v{i}"]) for i in range(6) if row[f"v{i}"])
    order = sorted(qpos)
    return np.array([qpos[k] for k in order]), np.array([qvel[k] for k in order]), r.stdout


def test_keyframe_zero_reproduces_conesim_run_bit_for_bit(tmp_path):
    # `conesim run` starts from the scene's first <key> ("roll": 1 m/s, 10 rad/s) and says so;
    # Data(m) starts from qpos0 at rest; with reset_data_keyframe(m, d, 0) the two agree exactly
    scene = os.path.join(SCENES, "ball_roll.xml")
    cli_q, cli_v, summary = _run_joints(tmp_path, scene, "--steps", "500")
    assert 'from key 0 "roll"' in summary.splitlines()[0]
    m = conesim.Model.from_xml_path(scene)

    def steps(d):
        q, v = [d.qpos.copy()], [d.qvel.copy()]
        for _ in range(500):
            conesim.step(m, d)
            q.append(d.qpos.copy())
            v.append(d.qvel.copy())
        return np.array(q), np.array(v)

    d = conesim.Data(m)
    assert np.array_equal(d.qvel, np.zeros(m.nv))  # the reference pose, no keyframe
    q, _ = steps(d)
    assert not np.array_equal(q, cli_q)
    d = conesim.Data(m)
    conesim.reset_data_keyframe(m, d, 0)
    q, v = steps(d)
    assert q.shape == cli_q.shape == (501, 7) and v.shape == cli_v.shape == (501, 6)
    assert np.array_equal(q, cli_q) and np.array_equal(v, cli_v)
    # and `--key none` is where Data(m) starts
    cli_q0, _, summary = _run_joints(tmp_path, scene, "--steps", "5", "--key", "none")
    assert "from reference pose (qpos0)" in summary.splitlines()[0]
    assert np.array_equal(cli_q0[0], conesim.Data(m).qpos)


def test_data_docstring_says_where_it_starts():
    doc = conesim.Data.__doc__
    assert "qpos0" in doc and "reset_data_keyframe(m, d, 0)" in doc
