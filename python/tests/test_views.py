"""Named views, contacts as arrays, warnings and solver statistics, kept views, rollouts."""
import os

import numpy as np
import pytest

import conesim

SCENES = os.environ["CONESIM_SCENES"]
SPHERE = os.path.join(SCENES, "sphere_plane.xml")

ARM = """<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1" friction="0.7 0.01 0.002"/>
    <body name="arm" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0" range="-60 45"/>
      <geom name="rod" type="capsule" fromto="0 0 0 0.5 0 0" size="0.02" mass="1"/>
      <body name="tip" pos="0.5 0 0">
        <joint type="ball"/>
        <geom type="sphere" size="0.03" mass="0.2"/>
      </body>
    </body>
    <body name="box" pos="1 0 0.3">
      <freejoint name="free"/>
      <geom name="cube" type="box" size="0.05 0.05 0.05" mass="1.5"/>
    </body>
  </worldbody>
  <actuator><motor name="drive" joint="hinge" gear="3"/></actuator>
</mujoco>"""


@pytest.fixture
def arm():
    m = conesim.Model.from_xml_string(ARM)
    return m, conesim.Data(m)


def test_model_views_by_name_and_id(arm):
    m, _ = arm
    box = m.body("box")
    assert box.id == 3 and box.name == "box"
    assert box.mass.shape == (1,) and box.mass[0] == pytest.approx(1.5)
    assert np.array_equal(m.body(3).mass, box.mass)
    assert list(m.geom("floor").friction) == [0.7, 0.01, 0.002]
    assert m.joint("hinge").range == pytest.approx(np.radians([-60, 45]))
    assert m.joint("hinge").type[0] == 3 and m.jnt(2).type[0] == 0  # hinge, free
    assert m.actuator("drive").gear[0] == 3
    assert m.geom(2).name == "" and m.geom(1).name == "rod" and m.joint(1).name == ""
    assert m.body(0).name == "world"


def test_names_lists_and_dir(arm):
    m, d = arm
    assert m.body_names == ("world", "arm", "tip", "box")
    assert m.geom_names == ("floor", "rod", "", "cube")
    assert m.joint_names == ("hinge", "", "free")
    assert m.actuator_names == ("drive",)
    fields = dir(m.body("box"))
    assert {"mass", "pos", "quat", "inertia", "id", "name"} <= set(fields)
    assert {"range", "qposadr", "axis"} <= set(dir(m.joint(0)))
    assert {"qpos", "qvel", "xanchor"} <= set(dir(d.joint(0)))
    assert {"body_mass", "geom_friction"} <= set(dir(m))
    assert {"qpos", "ctrl", "warning", "solver_niter"} <= set(dir(d))
    assert "settable" in conesim.ModelView.__doc__
    assert m.body.__doc__ and d.joint.__doc__ and conesim.rollout.__doc__


def test_model_views_write_only_settable_fields(arm):
    m, _ = arm
    with pytest.raises(AttributeError, match="settable fields: .*mass"):
        m.body("box").parent = 2
    with pytest.raises(ValueError, match="read only.*geom_friction"):
        m.body("box").rootid[0] = 2
    m.geom("floor").friction[:] = 0.5  # settable: written in place
    assert np.all(m.geom_friction[0] == 0.5)
    assert m.body_mass[3] == pytest.approx(1.5)
    with pytest.raises(KeyError):
        m.body("nothing")
    with pytest.raises(IndexError):
        m.geom(4)
    with pytest.raises(AttributeError):
        m.body("box").nothing


def test_data_views_are_views(arm):
    m, d = arm
    conesim.forward(m, d)
    assert np.array_equal(d.body("box").xpos, [1, 0, 0.3])
    assert np.shares_memory(d.body("box").xpos, d.xpos)
    assert np.array_equal(d.geom("cube").xpos, d.geom_xpos[3])
    with pytest.raises(ValueError):
        d.geom("cube").xpos[0] = 1  # the step computes geom poses
    # a joint's slices: hinge 1, ball 4 (quaternion), free 7 / 6
    assert d.joint("hinge").qpos.shape == (1,) and d.joint(1).qpos.shape == (4,)
    assert d.joint("free").qpos.shape == (7,) and d.joint("free").qvel.shape == (6,)
    assert np.array_equal(d.joint(1).qpos, [1, 0, 0, 0])
    d.joint("hinge").qpos[0] = 0.25
    assert d.qpos[0] == 0.25
    d.joint("free").qvel = [0, 0, 0, 0, 0, 2.0]
    assert d.qvel[4 + 5] == 2.0 and d.qvel[:4].tolist() == [0] * 4
    d.body("box").xfrc_applied = [0, 0, 5, 0, 0, 0]
    assert d.xfrc_applied[3, 2] == 5
    d.actuator("drive").ctrl = [0.5]
    assert d.ctrl[0] == 0.5
    conesim.forward(m, d)
    assert d.actuator("drive").force[0] == pytest.approx(0.5)
    assert d.joint("hinge").qfrc_actuator[0] == pytest.approx(1.5)
    assert d.actuator("drive").moment[0] == pytest.approx(3)  # the gear on the hinge's dof
    with pytest.raises(ValueError):
        d.joint("free").qpos = [1, 2, 3]
    with pytest.raises(AttributeError):
        d.joint("free").nothing = 1


def test_contacts_as_arrays():
    m = conesim.Model.from_xml_path(SPHERE)
    d = conesim.Data(m)
    assert d.contact.pos.shape == (d.ncon, 3)
    conesim.step(m, d, 300)
    n = d.ncon
    assert n == 1 and len(d.contact) == 1
    c = d.contact
    assert c.pos.shape == (1, 3) and c.frame.shape == (1, 9) and c.force.shape == (1, 6)
    assert c.dist.shape == (1,) and c.geom1.dtype == np.intc
    assert np.array_equal(c.pos[0], d.contact[0].pos)
    assert c.dist[0] == d.contact[0].dist and c.geom2[0] == d.contact[0].geom2
    assert c.frame[0, :3] == pytest.approx([0, 0, 1])  # the normal, floor to sphere
    assert c.force[0, 0] == pytest.approx(2 * 9.81, rel=1e-3)
    assert {int(c.geom1[0]), int(c.geom2[0])} == {0, 1}
    with pytest.raises(ValueError):
        c.pos[0, 0] = 1
    with pytest.raises(AttributeError):
        c.nothing
    assert m.nu == 0 and d.ctrl.shape == (0,)
    d.ctrl[:] = np.zeros(0)  # no actuators: writing nothing is fine
    d.qpos[2] = 1.0  # lifted clear: no contacts after the next step
    conesim.step(m, d)
    assert d.ncon == 0 and d.contact.pos.shape == (0, 3) and d.contact.force.shape == (0, 6)


BOXES = """<mujoco>
  <size nconmax="2"/>
  <worldbody>
    <geom type="plane" size="1 1 0.1"/>
    <body pos="0 0 0.049"><freejoint/><geom type="box" size="0.05 0.05 0.05" mass="1"/></body>
  </worldbody>
</mujoco>"""


def test_warnings_and_solver_statistics():
    m = conesim.Model.from_xml_string(BOXES)
    d = conesim.Data(m)
    conesim.step(m, d, 5)
    # a box on a plane has 4 contacts: 2 fit, the rest are counted as dropped each step
    assert d.ncon == 2
    assert d.warning[conesim.WARN_CONTACTFULL] >= 5
    assert d.warning[conesim.WARN_NOMEM] == 0 and d.warning[conesim.WARN_BADQACC] == 0
    assert d.solver_niter > 0 and d.solver_nisland == 1 and d.solver_at_limit in (0, 1)
    # counts of contacts: 2 dropped by Data(m)'s forward, then 2 a step
    assert d.warning[conesim.WARN_CONTACTFULL] == 2 * 6
    conesim.reset_data(m, d)  # zeroes the counts, then its forward drops 2
    assert d.warning.tolist() == [2, 0, 0, 0]
    with pytest.raises(AttributeError):
        d.solver_niter = 3
    free = conesim.Model.from_xml_path(SPHERE)
    fd = conesim.Data(free)
    fd.qpos[2] = 1.0
    conesim.step(free, fd)
    assert fd.ncon == 0 and fd.solver_nisland == 0


# a spring far too stiff for the time step: explicit integration blows up in 17 steps
# (without gravity, a rod at rest stays at rest)
STIFF = """<mujoco><option timestep="0.01" gravity="0 0 0"/><worldbody>
  <body name="rod"><joint name="hinge" axis="0 1 0" stiffness="1e12"/>
    <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.02" mass="0.1"/></body>
</worldbody></mujoco>"""


def test_divergence_warns_once_naming_step_and_body():
    import warnings
    m = conesim.Model.from_xml_string(STIFF)
    d = conesim.Data(m)
    d.qpos[0] = 0.1
    with pytest.warns(RuntimeWarning) as rec:
        conesim.step(m, d, 100)
    msgs = [str(w.message) for w in rec if w.category is RuntimeWarning]
    assert len(msgs) == 1, msgs
    assert "diverged" in msgs[0] and "body 'rod'" in msgs[0]
    assert "step 17 of 100" in msgs[0] and "t = 0.17" in msgs[0]
    assert not np.isfinite(d.qpos[0])
    # the C counts (steps after the first non-finite one), by index and by name
    assert d.warning.badqacc == d.warning["badqacc"] == d.warning[conesim.WARN_BADQACC] > 0
    assert d.warning.contactfull == 0 and "badqacc" in dir(d.warning)
    assert f"badqacc={d.warning.badqacc}" in repr(d.warning)
    assert d.warning.sum() == d.warning.badqacc and np.ndim(d.warning.sum()) == 0
    assert type(d.warning + 0) is np.ndarray  # arithmetic gives plain arrays
    with pytest.raises(AttributeError):
        d.warning.bogus
    # no new warning while it stays diverged ...
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        conesim.step(m, d, 3)
    # ... a new one after a reset and a second divergence, one step at a time
    conesim.reset_data(m, d)
    d.qpos[0] = 0.1
    with pytest.warns(RuntimeWarning, match="step 1 of 1"):
        for _ in range(30):
            conesim.step(m, d)
    # a rollout names the batch and the step
    s0 = np.tile(conesim.get_state(m, conesim.Data(m)), (2, 1))
    s0[1, 1] = 0.1  # the second starts away from rest and diverges
    with pytest.warns(RuntimeWarning, match=r"rollout 1 .*step 17"):
        out = conesim.rollout(m, s0, 20, nthread=1)
    assert np.isfinite(out[0]).all() and not np.isfinite(out[1, -1]).all()


def test_views_are_kept_and_stay_valid(arm):
    m, d = arm
    q, v, c = d.qpos, d.qvel, d.ctrl
    assert d.qpos is q and d.qvel is v and d.ctrl is c and m.body_mass is m.body_mass
    conesim.step(m, d, 50)
    conesim.reset_data(m, d)
    q[0] = 0.1
    c[0] = 1.0
    conesim.step(m, d)
    assert d.qpos is q and q[0] != 0.1 and d.ctrl[0] == 1.0  # the step moved the kept view
    d.qpos = np.zeros(m.nq)
    assert d.qpos is q and not q.any()
    d.time = 2.5
    assert d.time == 2.5
    pos = d.contact.pos  # a copy: the contact array moves when it grows
    conesim.step(m, d, 3)
    assert not pos.flags.writeable and np.isfinite(pos).all()
    assert d.contact.pos.shape == (d.ncon, 3)


def test_state_round_trip(arm):
    m, d = arm
    assert conesim.state_size(m) == 1 + m.nq + m.nv + m.na
    conesim.step(m, d, 10)
    s = conesim.get_state(m, d)
    d2 = conesim.Data(m)
    conesim.set_state(m, d2, s)
    assert np.array_equal(conesim.get_state(m, d2), s)
    with pytest.raises(ValueError):
        conesim.set_state(m, d2, s[:-1])


def _initial(m, nbatch, rng):
    d = conesim.Data(m)
    s = np.tile(conesim.get_state(m, d), (nbatch, 1))
    s[:, 1 + 0] = rng.uniform(-0.8, 0.6, nbatch)   # the hinge
    s[:, 1 + 5] += rng.uniform(0, 0.2, nbatch)      # the box's x
    s[:, 1 + m.nq + 0] = rng.normal(0, 1, nbatch)   # the hinge's speed
    return s


def test_rollout_same_for_any_thread_count_and_as_by_hand(arm):
    m, _ = arm
    rng = np.random.default_rng(3)
    nbatch, nstep = 7, 150
    s0 = _initial(m, nbatch, rng)
    ctrl = rng.normal(0, 2, (nbatch, nstep, m.nu))
    out = {n: conesim.rollout(m, s0, nstep, ctrl, nthread=n) for n in (1, 2, 3)}
    assert out[1].shape == (nbatch, nstep, conesim.state_size(m))
    assert np.array_equal(out[1], out[2]) and np.array_equal(out[1], out[3])
    # the box fell onto the floor (contacts were made) and the controls were used
    assert (out[1][:, -1, 1 + 7] < 0.06).all()
    assert not np.array_equal(out[1], conesim.rollout(m, s0, nstep, nthread=2))
    # by hand, on one data reused across the batch, as the rollout does
    d = conesim.Data(m)
    for b in (0, 4, 6):
        conesim.reset_data(m, d)
        conesim.set_state(m, d, s0[b])
        for t in range(nstep):
            d.ctrl[:] = ctrl[b, t]
            conesim.step(m, d)
            assert np.array_equal(conesim.get_state(m, d), out[3][b, t]), (b, t)
    assert out[1][0, -1, 0] == pytest.approx(nstep * m.opt.timestep)


def test_rollout_arguments(arm):
    m, _ = arm
    s0 = _initial(m, 2, np.random.default_rng(1))
    one = conesim.rollout(m, s0[0], 20, nthread=1)
    assert one.shape == (1, 20, conesim.state_size(m))
    assert np.array_equal(one[0], conesim.rollout(m, s0, 20, nthread=2)[0])
    shared = np.full((20, m.nu), 0.7)
    a = conesim.rollout(m, s0, 20, shared)
    b = conesim.rollout(m, s0, 20, np.broadcast_to(shared, (2, 20, m.nu)))
    assert np.array_equal(a, b)
    assert conesim.rollout(m, s0, 0).shape == (2, 0, conesim.state_size(m))
    with pytest.raises(ValueError):
        conesim.rollout(m, s0[:, :-1], 5)
    with pytest.raises(ValueError):
        conesim.rollout(m, s0, 5, np.zeros((4, m.nu)))
    with pytest.raises(ValueError):
        conesim.rollout(m, s0, -1)
    with pytest.raises(ValueError):
        conesim.rollout(m, s0, 5, nthread=0)


def test_mujoco_idioms(arm):
    m, d = arm
    # a plain number into a one-value view, as MuJoCo takes it
    d.joint("hinge").qpos = 0.3
    d.actuator("drive").ctrl = -1
    assert d.qpos[0] == 0.3 and d.ctrl[0] == -1.0
    d.joint("free").qvel = 0   # a number fills the slice
    assert not d.qvel[4:].any()
    with pytest.raises(ValueError):
        d.joint("free").qpos = [1, 2, 3]
    with pytest.raises(TypeError):
        d.joint("hinge").qpos = "0.3"
    # no actuators: says so rather than giving an empty range
    s = conesim.Model.from_xml_path(SPHERE)
    sd = conesim.Data(s)
    with pytest.raises(IndexError, match="no actuators"):
        sd.actuator(0)
    with pytest.raises(KeyError, match="no actuators"):
        s.actuator("knee")
    with pytest.raises(IndexError, match=r"0\.\.1"):
        s.geom(2)
    # dir() of the options and of a contact lists their fields; contacts have a repr
    assert {"timestep", "gravity", "solver", "cone", "integrator"} <= set(dir(m.opt))
    conesim.step(s, sd, 50)
    c = sd.contact[0]
    assert {"pos", "frame", "dist", "geom1", "geom2", "force"} <= set(dir(c))
    r = repr(c)
    assert r.startswith("<Contact 0") and "'floor'" in r and "'sphere'" in r and "dist" in r
    assert "1 contact" in repr(sd.contact)
    # a keyword option reads back what was set: its word, and MuJoCo's number
    for word, number in (("pgs", 0), ("cg", 1), ("newton", 2)):
        s.opt.solver = word
        assert s.opt.solver == word and s.opt.solver == number and str(s.opt.solver) == word
        assert int(s.opt.solver) == number
    s.opt.solver = 1
    assert s.opt.solver == "cg" and s.opt.solver != "pgs"
    s.opt.integrator = "implicitfast"
    assert s.opt.integrator == 3 and s.opt.integrator == "implicitfast"
    assert s.opt.cone in ("pyramidal", "elliptic") and "solver" in repr(s.opt)
    s.opt.cone = s.opt.cone  # taken back as it reads
    # the package's namespace: no internal modules
    for name in ("np", "os", "ctypes", "builtins", "lib"):
        assert not hasattr(conesim, name), name
    assert set(conesim.__all__) <= set(dir(conesim))
    public = {n for n in dir(conesim) if not n.startswith("_")}
    modules = {"cone", "record", "renderer", "plot", "figures", "viewer"}  # submodules
    assert public - modules <= set(conesim.__all__), public - modules - set(conesim.__all__)


SENSORS = """<mujoco>
  <worldbody>
    <geom name="floor" type="plane" size="2 2 0.1"/>
    <body name="ball" pos="0 0 0.1">
      <freejoint/>
      <geom size="0.1" mass="2"/>
      <site name="zone" type="box" size="0.2 0.2 0.2"/>
    </body>
    <body name="arm" pos="1 0 1">
      <joint name="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.02" mass="1"/>
    </body>
  </worldbody>
  <sensor>
    <touch name="touch" site="zone"/>
    <jointpos name="q" joint="hinge" user="4 5"/>
    <framepos objtype="xbody" objname="arm"/>
    <clock name="clock"/>
  </sensor>
</mujoco>"""


def test_sensor_views():
    m = conesim.Model.from_xml_string(SENSORS)
    d = conesim.Data(m)
    assert m.nsensor == 4 and m.nsensordata == 6
    assert m.sensor_names == ("touch", "q", "", "clock")
    assert m.sensor("q").id == 1 and m.sensor(1).name == "q"
    assert m.sensor("q").dim[0] == 1 and m.sensor("q").adr[0] == 1
    assert list(m.sensor("q").user) == [4, 5]
    assert list(m.sensor_dim) == [1, 1, 3, 1]
    for _ in range(300):
        conesim.step(m, d)
    # the ball at rest: touch reads its weight; after a forward pass, the views read the
    # current state (after a step, the state the step started from, as in MuJoCo)
    conesim.forward(m, d)
    assert d.sensor("touch").data[0] == pytest.approx(2 * 9.81, rel=1e-4)
    assert d.sensor("q").data[0] == d.qpos[7]
    assert np.array_equal(d.sensor(2).data, d.xpos[2])
    assert d.sensordata.shape == (6,)
    with pytest.raises(KeyError):
        d.sensor("nope")


def test_rollout_sensors():
    m = conesim.Model.from_xml_string(SENSORS)
    d = conesim.Data(m)
    s0 = conesim.get_state(m, d)
    states, sens = conesim.rollout(m, s0, 5, nthread=1, sensors=True)
    assert states.shape == (1, 5, s0.size) and sens.shape == (1, 5, 6)
    # step t's sensors are those of the state before it, as stepping by hand reads them
    for t in range(5):
        conesim.step(m, d)
        assert np.array_equal(sens[0, t], d.sensordata)
    assert sens[0, 0, 5] == 0 and sens[0, 4, 5] == pytest.approx(4 * m.opt.timestep)


PID = """<mujoco>
  <option timestep="0.002" gravity="0 0 0"/>
  <worldbody>
    <body name="arm"><joint name="hinge" axis="0 -1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.02" mass="1"/></body>
    <body name="arm2" pos="0 1 0"><joint name="hinge2" axis="0 -1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.02" mass="1"/></body>
  </worldbody>
  <actuator>
    <motor name="m" joint="hinge2"/>
    <pid name="p" joint="hinge" kp="20" kv="2" input="pos vel ff" velrange="-1 1"/>
  </actuator>
</mujoco>"""


def test_actuator_of_several_controls():
    """An actuator's views hold its block of controls; B has a column per control, and the
    ff column's effect on the next velocity is dt / I (the force enters unscaled)."""
    m = conesim.Model.from_xml_string(PID)
    d = conesim.Data(m)
    assert (m.nactuator, m.nu) == (2, 4)
    assert m.ctrl_names == ("m", "p/pos", "p/vel", "p/ff")
    assert m.actuator("p").ctrlrange.shape == (3, 2)
    assert m.actuator("p").ctrlrange[1].tolist() == [-1, 1]
    assert m.actuator("p").ctrllimited.tolist() == [0, 1, 0]
    d.actuator("p").ctrl = [0.3, 0.2, 0.1]
    assert d.ctrl.tolist() == [0, 0.3, 0.2, 0.1]
    conesim.forward(m, d)
    assert d.actuator("p").force[0] == pytest.approx(20 * 0.3 + 2 * 0.2 + 0.1)
    _, B, _, _ = conesim.transition_fd(m, d, centered=True)
    assert B.shape == (2 * m.nv + m.na, 4)
    inertia = 1 * 0.5 ** 2 / 3 + 1 * 0.02 ** 2 / 4  # about the hinge, to within the caps
    dqvel_dff = B[m.nv + 0, 3]
    assert dqvel_dff == pytest.approx(0.002 / inertia, rel=0.05)
    assert B[m.nv + 0, 2] == pytest.approx(2 * dqvel_dff, rel=1e-6)  # kv per unit vel setpoint


ORIENT = """<mujoco>
  <option gravity="0 0 0"/>
  <worldbody>
    <body><joint name="ball" type="ball"/><geom type="box" size=".07 .09 .05"/></body>
  </worldbody>
  <actuator>
    <orientation name="o" joint="ball" kp="2" input="quat"/>
  </actuator>
  <sensor><actuatorfrc actuator="o"/></sensor>
</mujoco>"""


def test_orientation_outputs():
    """An orientation servo: 4 controls (reset to the identity quaternion), 3 force outputs,
    its views' rows, a sensor of 3; a target a quarter turn about y gives the torque
    kp * pi/2 about y."""
    m = conesim.Model.from_xml_string(ORIENT)
    d = conesim.Data(m)
    assert (m.nactuator, m.nu, m.nout) == (1, 4, 3)
    assert m.ctrl_names == ("o/qw", "o/qx", "o/qy", "o/qz")
    assert d.ctrl.tolist() == [1, 0, 0, 0]
    d.actuator("o").ctrl = [np.cos(np.pi / 4), 0, np.sin(np.pi / 4), 0]
    conesim.forward(m, d)
    assert d.actuator("o").force.shape == (3,)
    assert d.actuator("o").force == pytest.approx([0, 2 * np.pi / 2, 0], abs=1e-12)
    assert d.actuator("o").moment.shape == (3, 3)
    assert d.sensordata.tolist() == d.actuator_force.tolist()
