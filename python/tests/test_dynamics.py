"""Jacobians (MuJoCo's mj_jac family), inverse dynamics (mj_inverse) and the step's
derivatives by finite differences (mjd_transitionFD), against closed forms."""
import math

import numpy as np
import pytest

import conesim

ARM = """<mujoco><option gravity="0 0 -9.81"/><worldbody>
  <body name="upper" pos="0 0 1"><joint name="shoulder" type="hinge" axis="0 1 0" damping="0.3"/>
    <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.03" mass="1"/>
    <body name="lower" pos="0.5 0 0"><joint name="elbow" type="hinge" axis="0 0 1"/>
      <joint name="ext" type="slide" axis="1 0 0" stiffness="10"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.03" mass="0.5"/>
      <site name="hand" pos="0.4 0 0"/></body></body>
  <body name="ball" pos="2 0 1"><joint type="ball" damping="0.1"/>
    <geom type="box" size="0.1 0.2 0.3" pos="0.1 0 0" mass="1"/></body>
  <body name="free" pos="0 3 1"><freejoint/><geom type="box" size="0.1 0.2 0.3" mass="2"/>
  </body></worldbody>
<actuator><motor joint="shoulder" gear="2"/><motor joint="ext"/></actuator></mujoco>"""


@pytest.fixture
def arm():
    m = conesim.Model.from_xml_string(ARM)
    d = conesim.Data(m)
    rng = np.random.default_rng(3)
    d.qpos[:3] = [0.4, -0.7, 0.05]
    q = rng.normal(size=4)
    d.qpos[3:7] = q / np.linalg.norm(q)
    q = rng.normal(size=4)
    d.qpos[10:14] = q / np.linalg.norm(q)
    d.qvel[:] = rng.normal(size=m.nv)
    conesim.forward(m, d)
    return m, d


def test_jacobians_are_the_point_velocities(arm):
    m, d = arm
    # a hinge moves a point at axis x (p - anchor), a slide along its axis; the angular
    # Jacobian holds the hinge axes
    p = d.site("hand").xpos.copy()
    jacp, jacr = conesim.jac_site(m, d, "hand")
    assert jacp.shape == (3, m.nv) and jacr.shape == (3, m.nv)
    for j in ("shoulder", "elbow"):
        i = m.joint(j).dofadr[0]
        ax, an = d.joint(j).xaxis, d.joint(j).xanchor
        assert np.allclose(jacp[:, i], np.cross(ax, p - an))
        assert np.allclose(jacr[:, i], ax)
    i = m.joint("ext").dofadr[0]
    assert np.allclose(jacp[:, i], d.joint("ext").xaxis) and not jacr[:, i].any()
    # the site's velocity by finite differences of the hinge and slide angles
    eps = 1e-7
    for j in ("shoulder", "elbow", "ext"):
        a = m.joint(j).qposadr[0]
        d.qpos[a] += eps
        conesim.forward(m, d)
        dp = (d.site("hand").xpos - p) / eps
        d.qpos[a] -= eps
        conesim.forward(m, d)
        assert np.allclose(dp, jacp[:, m.joint(j).dofadr[0]], atol=1e-6)
    # other trees do not move the point
    assert not jacp[:, 3:].any()
    # jac at the site's point on its body is jac_site
    jp2, jr2 = conesim.jac(m, d, p, "lower")
    assert np.array_equal(jp2, jacp) and np.array_equal(jr2, jacr)


def test_free_body_jacobian(arm):
    m, d = arm
    b = m.body("free").id
    R = d.xmat[b].reshape(3, 3)
    jacp, jacr = conesim.jac_body(m, d, "free")
    a = m.body("free").dofadr[0]
    # translation dofs along the world axes; rotation dofs about the body's axes
    assert np.allclose(jacp[:, a:a + 3], np.eye(3)) and np.allclose(jacr[:, a + 3:a + 6], R)
    assert not jacr[:, a:a + 3].any()
    r = np.array([0.3, -0.2, 0.5])
    jp, _ = conesim.jac(m, d, d.xpos[b] + r, b)
    w = np.array([0.1, 0.2, -0.3])  # local angular velocity: world R w, point velocity R w x r
    assert np.allclose(jp[:, a + 3:a + 6] @ w, np.cross(R @ w, r))
    jc, _ = conesim.jac_body_com(m, d, "free")
    assert np.allclose(jc, jacp)  # its centre of mass is its origin


def test_inverse_recovers_the_applied_forces(arm):
    m, d = arm
    rng = np.random.default_rng(5)
    d.qfrc_applied[:] = rng.normal(size=m.nv)
    d.ctrl[:] = [0.7, -1.3]
    b = m.body("lower").id
    d.xfrc_applied[b] = [1.0, -2.0, 0.5, 0.3, 0.1, -0.2]
    conesim.forward(m, d)
    want = d.qfrc_applied + d.qfrc_actuator
    jacp, jacr = conesim.jac_body_com(m, d, b)  # the external force acts at the COM
    want = want + jacp.T @ d.xfrc_applied[b, :3] + jacr.T @ d.xfrc_applied[b, 3:]
    assert np.abs(d.qfrc_actuator).max() > 0.5  # the motors push
    qacc = d.qacc.copy()
    out = conesim.inverse(m, d)
    assert out is d.qfrc_inverse
    assert np.allclose(d.qfrc_inverse, want, rtol=0, atol=1e-8)
    assert np.array_equal(d.qacc, qacc)  # the input is kept


def test_inverse_of_a_chosen_acceleration(arm):
    m, d = arm
    # M qacc + bias - passive with qacc chosen: applying that force gives that qacc back
    d.qacc[:] = np.linspace(-1, 1, m.nv)
    f = conesim.inverse(m, d).copy()
    d.qfrc_applied[:] = f
    conesim.forward(m, d)
    assert np.allclose(d.qacc, np.linspace(-1, 1, m.nv), atol=1e-8)


CONTACT = """<mujoco><option solver="Newton" tolerance="1e-12" iterations="200"
  cone="{cone}"/><worldbody><geom type="plane" size="3 3 0.1"/>
  <body pos="0 0 0.1"><freejoint/><geom type="box" size="0.1 0.15 0.1" mass="2"
    friction="0.8 0.01 0.001" condim="{condim}"/></body>
  <body pos="1 0 0.1"><freejoint/><geom type="sphere" size="0.1" mass="1" condim="{condim}"/>
  </body></worldbody></mujoco>"""


@pytest.mark.parametrize("cone,condim", [("pyramidal", 3), ("elliptic", 3), ("elliptic", 6),
                                         ("pyramidal", 4)])
def test_inverse_contact_forces_equal_the_forward(cone, condim):
    m = conesim.Model.from_xml_string(CONTACT.format(cone=cone, condim=condim))
    d = conesim.Data(m)
    d.qvel[0], d.qvel[6] = 0.5, -0.3  # sliding, then held by friction against a push
    d.xfrc_applied[1, :3] = [3.0, 0.0, 0.0]
    conesim.step(m, d, 400)
    conesim.forward(m, d)
    assert d.ncon == 5
    fwd = [conesim.contact_force(m, d, i) for i in range(d.ncon)]
    applied = d.qfrc_applied.copy()
    jacp, _ = conesim.jac_body_com(m, d, 1)
    conesim.inverse(m, d)
    assert d.ncon == 5
    for i in range(d.ncon):
        inv = conesim.contact_force(m, d, i)
        assert np.allclose(inv, fwd[i], rtol=0, atol=1e-10)  # the same soft map
    # at rest the weights are carried: the normal forces sum to (2 + 1) g
    assert sum(f[0] for f in fwd) == pytest.approx(3 * 9.81, rel=1e-3)
    assert np.allclose(d.qfrc_inverse, applied + jacp.T @ [3.0, 0.0, 0.0], atol=1e-6)


def test_inverse_refused_under_the_coulomb_model():
    m = conesim.Model.from_xml_string(CONTACT.format(cone="elliptic", condim=3))
    m.opt.contact = "coulomb"
    d = conesim.Data(m)
    with pytest.raises(ValueError, match="Coulomb"):
        conesim.inverse(m, d)


SPRING = """<mujoco><option timestep="0.01" gravity="0 0 0"/><worldbody>
  <body><joint name="s" type="slide" axis="1 0 0" stiffness="4" damping="0.5"/>
    <geom size="0.1" mass="2"/></body></worldbody>
  <actuator><motor joint="s"/><general joint="s" dyntype="filter" dynprm="0.2" gainprm="3"
    ctrllimited="true" ctrlrange="-1 1"/></actuator></mujoco>"""


@pytest.mark.parametrize("centered", [False, True])
def test_transition_fd_of_a_damped_spring(centered):
    # semi-implicit Euler with implicit damping (MuJoCo's): v' = v + h (-k q + g act + u) /
    # (m + h b), q' = q + h v'; the filter: act' = act + h (u2 - act) / tau
    m = conesim.Model.from_xml_string(SPRING)
    d = conesim.Data(m)
    d.qpos[0], d.qvel[0], d.act[0] = 0.1, 0.2, 0.3
    d.ctrl[:] = [0.5, 0.7]
    state = conesim.get_state(m, d, conesim.STATE_INTEGRATION)
    A, B, C, D = conesim.transition_fd(m, d, 1e-6, centered)
    h, k, b, mass, g, tau = 0.01, 4.0, 0.5, 2.0, 3.0, 0.2
    den = mass + h * b
    dvq, dvv, dva = -h * k / den, mass / den, h * g / den
    A_ = np.array([[1 + h * dvq, h * dvv, h * dva], [dvq, dvv, dva], [0, 0, 1 - h / tau]])
    B_ = np.array([[h * h / den, 0], [h / den, 0], [0, h / tau]])
    assert np.allclose(A, A_, rtol=0, atol=1e-8) and np.allclose(B, B_, rtol=0, atol=1e-8)
    assert C.shape == (0, 3) and D.shape == (0, 2)
    assert np.array_equal(conesim.get_state(m, d, conesim.STATE_INTEGRATION), state)
    # a control at its limit is differenced on the side inside the range
    d.ctrl[1] = 1.0
    _, B2, _, _ = conesim.transition_fd(m, d, 1e-6, centered)
    assert B2[2, 1] == pytest.approx(h / tau, abs=1e-8)


def test_transition_fd_of_a_free_body_in_tangent_space():
    m = conesim.Model.from_xml_string(
        '<mujoco><option timestep="0.002" gravity="0 0 0"/><worldbody><body><freejoint/>'
        '<geom type="box" size="0.1 0.2 0.3"/></body><body pos="2 0 0"><joint type="ball"/>'
        '<geom size="0.1" pos="0 0 -0.3"/></body></worldbody></mujoco>')
    d = conesim.Data(m)
    d.qpos[3:7] = [math.cos(0.3), math.sin(0.3), 0, 0]
    d.qpos[7:11] = [math.cos(0.2), 0, math.sin(0.2), 0]
    A, B, _, _ = conesim.transition_fd(m, d, 1e-6, True)
    # at rest without forces: q' = q + h v (tangent space), v' = v
    nv, h = m.nv, 0.002
    want = np.block([[np.eye(nv), h * np.eye(nv)], [np.zeros((nv, nv)), np.eye(nv)]])
    assert np.allclose(A, want, atol=1e-7) and B.shape == (2 * nv, 0)


def test_differentiate_pos_inverts_integration():
    m = conesim.Model.from_xml_string(ARM)
    q1 = m.qpos0.copy()
    q1[3:7] = [math.cos(0.4), 0, 0, math.sin(0.4)]  # ball turned 0.8 rad about z
    v = conesim.differentiate_pos(m, m.qpos0, q1)
    assert np.allclose(v[3:6], [0, 0, 0.8])


def test_transition_fd_and_inverse_against_mujoco():
    # MuJoCo 3.12's numbers (data/transition_fd_mujoco.mjs made them): a damped two-link
    # arm with a motor and a ball pendulum, moving under gravity
    import json
    import os
    with open(os.path.join(os.path.dirname(__file__), "data",
                           "transition_fd_mujoco.json"), encoding="utf-8") as f:
        ref = json.load(f)
    m = conesim.Model.from_xml_string(ref["xml"])
    d = conesim.Data(m)
    d.qpos[:], d.qvel[:], d.ctrl[:] = ref["qpos"], ref["qvel"], ref["ctrl"]
    conesim.forward(m, d)
    A, B, _, _ = conesim.transition_fd(m, d, ref["eps"], True)
    ndx = 2 * m.nv + m.na
    assert np.allclose(A, np.reshape(ref["A"], (ndx, ndx)), rtol=0, atol=1e-8)
    assert np.allclose(B, np.reshape(ref["B"], (ndx, m.nu)), rtol=0, atol=1e-8)
    assert np.allclose(d.qacc, ref["qacc"], rtol=0, atol=1e-10)
    conesim.inverse(m, d)
    assert np.allclose(d.qfrc_inverse, ref["qfrc_inverse"], rtol=0, atol=1e-10)
