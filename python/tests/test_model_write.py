"""Model arrays written in place between steps, as MuJoCo's (m.geom_friction[:, 0] = 0.2):
taken at the next step through the setter's checks and recomputations."""
import os
import pickle

import numpy as np
import pytest

import conesim

SCENES = os.environ["CONESIM_SCENES"]
SPHERE = os.path.join(SCENES, "sphere_plane.xml")

BLOCK = """<mujoco><option timestep="0.002"/><worldbody>
  <geom name="floor" type="plane" size="5 5 0.1" friction="1 0.005 0.0001"/>
  <body name="block" pos="0 0 0.1"><freejoint/>
    <geom name="box" type="box" size="0.1 0.1 0.1" mass="1"/></body>
  <body name="arm" pos="0 2 1"><joint name="h" type="hinge" axis="0 1 0" damping="0.1"/>
    <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.02" mass="1"/></body>
</worldbody></mujoco>"""


def block():
    m = conesim.Model.from_xml_string(BLOCK)
    return m, conesim.Data(m)


def slide(m, d, v0=2.0, n=200):
    """The block's x after n steps from v0 along x."""
    conesim.reset_data(m, d)
    d.qvel[0] = v0
    conesim.step(m, d, n)
    return d.qpos[0]


def test_friction_written_in_place_changes_the_slide():
    m, d = block()
    # Coulomb sliding decelerates at mu g: from 2 m/s it stops after v^2 / (2 mu g) (mu at
    # most 0.5: a cube with mu near 1 tips rather than slides)
    g = 9.81
    for mu in (0.5, 0.2):
        m.geom_friction[:, 0] = mu  # the floor's and the box's: mixed by max, as MuJoCo
        assert np.all(m.geom_friction[:, 0] == mu)
        assert slide(m, d, n=600) == pytest.approx(2.0 ** 2 / (2 * mu * g), rel=0.05)


def test_same_result_as_the_setter():
    m1, d1 = block()
    m2, d2 = block()
    m1.geom_friction[0, 0] = 0.3
    m1.body_mass[1] = 2.5
    m1.dof_damping[6] = 0.7
    m2.set("geom.floor.friction[0]", 0.3)
    m2.set("body.block.mass", 2.5)
    m2.set("joint.h.damping", 0.7)
    for m, d in ((m1, d1), (m2, d2)):
        d.qvel[0], d.qvel[6] = 1.0, 2.0
        conesim.step(m, d, 50)
    assert np.array_equal(d1.qpos, d2.qpos) and np.array_equal(d1.qvel, d2.qvel)
    assert np.array_equal(m1.body_invweight0, m2.body_invweight0)
    assert np.array_equal(m1.dof_invweight0, m2.dof_invweight0)


def test_mass_change_updates_inverse_weights():
    m, d = block()
    assert m.body_invweight0[1, 0] == pytest.approx(1.0)  # 1 / mass of a free body
    m.body_mass[1] = 4.0
    conesim.forward(m, d)
    assert m.body_invweight0[1, 0] == pytest.approx(0.25)
    # a free body's translational dofs: inverse mass
    assert m.dof_invweight0[0] == pytest.approx(0.25)


def test_model_view_fields_written():
    m, d = block()
    m.body("block").mass = 3.0
    m.geom("floor").friction[0] = 0.4
    conesim.forward(m, d)
    assert m.body_mass[1] == 3.0 and m.geom_friction[0, 0] == 0.4
    assert m.body_invweight0[1, 0] == pytest.approx(1 / 3)
    with pytest.raises(AttributeError, match="settable fields"):
        m.body("block").parent = 0


def test_invalid_value_refused_at_the_step_and_set_back():
    m, d = block()
    m.body_mass[1] = -1.0
    with pytest.raises(ValueError, match=r"body_mass\[1\] \(body 'block'\): must not be negative"):
        conesim.step(m, d)
    assert m.body_mass[1] == 1.0 and d.time == 0  # set back, nothing stepped
    m.geom_friction[0, 1] = np.nan
    m.geom_size[1, 0] = 0.2  # valid: taken though another value is refused
    with pytest.raises(ValueError, match=r"geom_friction\[0\] \(geom 'floor'\): expects finite"):
        conesim.forward(m, d)
    assert m.geom_friction[0, 1] == 0.005 and m.geom_size[1, 0] == 0.2
    assert m.geom_rbound[1] == pytest.approx(np.sqrt(0.2 ** 2 + 0.1 ** 2 + 0.1 ** 2))
    m.geom_condim[0] = 2
    with pytest.raises(ValueError, match="1, 3, 4 or 6"):
        conesim.step(m, d)
    m.body_mass[0] = 1.0
    with pytest.raises(ValueError, match="world body"):
        conesim.step(m, d)
    conesim.step(m, d)  # all set back: steps again
    assert d.time > 0


def test_free_body_pos_moves_its_start():
    m, d = block()
    m.body_pos[1] = [0.5, 0.0, 0.3]
    conesim.reset_data(m, d)
    assert np.array_equal(d.qpos[:3], [0.5, 0.0, 0.3])


def test_other_arrays_read_only_naming_the_settable():
    m, _ = block()
    for name in ("body_parent", "geom_type", "body_invweight0", "qpos0"):
        arr = getattr(m, name)
        with pytest.raises(ValueError, match="read only.*body_mass.*geom_friction"):
            arr[0] = 1
        with pytest.raises(ValueError, match="read only"):
            setattr(m, name, arr)
    # read-only arrays compute as plain ones
    assert type(m.geom_type + 1) is np.ndarray and m.body_parent.sum() == -1 + 0 + 0
    assert repr(m.geom_type).startswith("array(")
    assert set(conesim.Model.settable) >= {"geom_friction", "body_mass", "dof_damping",
                                           "actuator_gainprm", "jnt_range"}


def test_whole_array_assigned():
    m, d = block()
    m.geom_friction = [[0.5, 0.01, 0.001], [0.6, 0.01, 0.001], [0.7, 0.01, 0.001]]
    m.body_mass *= 2.0  # in place, then assigned back (the world stays 0)
    conesim.forward(m, d)
    assert m.geom_friction[1, 0] == 0.6 and m.body_mass[1] == 2.0
    assert m.body_invweight0[1, 0] == pytest.approx(0.5)


def test_copy_and_pickle_carry_written_values():
    import copy
    m, d = block()
    m.geom_friction[0, 0] = 0.25
    m.body_mass[1] = 2.0
    for m2 in (copy.copy(m), pickle.loads(pickle.dumps(m))):
        assert m2.geom_friction[0, 0] == 0.25 and m2.body_invweight0[1, 0] == pytest.approx(0.5)
    m.body_mass[1] = -2.0
    with pytest.raises(ValueError, match="must not be negative"):
        copy.copy(m)


def test_per_dof_damping_checked_per_dof():
    xml = """<mujoco><worldbody><body><joint name="b" type="ball" damping="1"/>
      <geom size="0.1" mass="1"/></body></worldbody></mujoco>"""
    m = conesim.Model.from_xml_string(xml)
    d = conesim.Data(m)
    m.dof_damping[1] = 3.0
    m.dof_damping[2] = -1.0
    with pytest.raises(ValueError, match=r"dof_damping\[2\] \(joint 'b'\)"):
        conesim.step(m, d)
    assert list(m.dof_damping) == [1.0, 3.0, 1.0]


def test_domain_randomisation_in_a_loop():
    m = conesim.Model.from_xml_path(SPHERE)
    d = conesim.Data(m)
    rng = np.random.default_rng(1)
    xs = []
    for _ in range(3):
        m.geom_friction[:, 0] = rng.uniform(0.1, 1.0)
        m.body_mass[1:] = rng.uniform(0.5, 2.0)
        conesim.reset_data(m, d)
        conesim.step(m, d, 20)
        xs.append(d.qpos[2])
    assert np.all(np.isfinite(xs))


def test_option_vectors_written_in_place():
    m, d = block()
    conesim.step(m, d)
    m.opt.gravity[2] = -1.62  # the Moon: taken at the next step
    conesim.reset_data(m, d)
    d.qpos[2] = 1.0  # clear of the floor: falls freely
    d.qpos[0] = 5.0
    conesim.forward(m, d)
    assert d.qacc[2] == pytest.approx(-1.62)
    m.opt.wind[0] = np.inf
    with pytest.raises(ValueError, match=r"opt.wind: expects finite"):
        conesim.step(m, d)
    assert m.opt.wind[0] == 0 and list(m.opt.gravity) == [0, 0, -1.62]
