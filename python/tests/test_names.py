"""Names and views of sites, keyframes, tendons and equality constraints, keyframes by name,
contacts' zones: MuJoCo's m.site('s'), d.tendon('t').length, mj_resetDataKeyframe(m, d, k)."""
import math

import numpy as np
import pytest

import conesim

XML = """<mujoco><worldbody><geom name="floor" type="plane" size="3 3 0.1"/>
  <body name="ball" pos="0 0 0.1"><freejoint/><geom name="sphere" type="sphere" size="0.1"
    mass="1"/><site name="top" pos="0 0 0.1"/></body>
  <body name="arm" pos="1 0 1"><joint name="h" type="hinge" axis="0 1 0"/>
    <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05" mass="1"/>
    <site name="tip" pos="0.5 0 0"/><site pos="0.25 0 0"/></body>
</worldbody>
<tendon><fixed name="t" stiffness="3"><joint joint="h" coef="2"/></fixed></tendon>
<equality><joint name="e" joint1="h" active="false"/></equality>
<keyframe><key name="rest"/><key name="stand" qpos="0 0 1 1 0 0 0 0.3"/></keyframe>
</mujoco>"""


@pytest.fixture
def md():
    m = conesim.Model.from_xml_string(XML)
    return m, conesim.Data(m)


def test_site_names_and_views(md):
    m, d = md
    assert m.site_names == ("top", "tip", "")
    assert conesim._clib.cs_id2name(m._ptr, b"site", 1) == b"tip"
    assert m.site("tip").id == 1 and m.site(1).name == "tip"
    assert m.site("tip").bodyid[0] == m.body("arm").id
    assert np.array_equal(m.site("tip").pos, [0.5, 0, 0])
    conesim.reset_data_keyframe(m, d, "stand")
    conesim.forward(m, d)
    q = 0.3  # the hinge about +y turns the arm's x axis to (cos q, 0, -sin q)
    assert np.allclose(d.site("tip").xpos, [1 + 0.5 * math.cos(q), 0, 1 - 0.5 * math.sin(q)])
    assert np.allclose(d.site("top").xpos, [0, 0, 1.1])
    with pytest.raises(KeyError, match="no site named 'nope'"):
        m.site("nope")


def test_keyframe_by_name(md):
    m, d = md
    assert m.key_names == ("rest", "stand")
    assert m.key("stand").id == 1 and m.key(1).qpos[7] == 0.3
    conesim.reset_data_keyframe(m, d, "stand")
    assert d.qpos[2] == 1.0 and d.qpos[7] == 0.3
    conesim.reset_data_keyframe(m, d, "rest")
    assert d.qpos[7] == 0.0
    with pytest.raises(KeyError, match="no keyframe named 'sit'.*rest, stand"):
        conesim.reset_data_keyframe(m, d, "sit")


def test_tendon_and_equality_views(md):
    m, d = md
    assert m.tendon_names == ("t",) and m.equality_names == ("e",)
    assert m.tendon("t").stiffness[0] == 3.0
    conesim.reset_data_keyframe(m, d, "stand")
    conesim.forward(m, d)
    assert d.tendon("t").length[0] == pytest.approx(2 * 0.3)  # coef x q
    d.qvel[6] = 1.5
    conesim.forward(m, d)
    assert d.tendon("t").velocity[0] == pytest.approx(3.0)
    assert np.array_equal(d.tendon("t").J, [0, 0, 0, 0, 0, 0, 2.0])
    e = m.equality("e")
    assert m.eq("e").id == 0 and e.type[0] == 2 and e.obj1id[0] == m.joint("h").id
    assert e.active0[0] == 0 and d.equality("e").active[0] == 0
    assert d.eq_active[0] == 0
    d.equality("e").active = 1  # switched on: the hinge is held at 0
    assert d.eq_active[0] == 1
    conesim.step(m, d, 2000)
    assert abs(d.qpos[7]) < 0.02


def test_none_of_a_kind_says_so(md):
    m, d = md
    with pytest.raises(IndexError, match="the model has no actuators"):
        d.actuator(0)
    with pytest.raises(KeyError, match="the model has no actuators"):
        m.actuator("a")
    with pytest.raises(IndexError, match=r"site index 3 out of range 0..2"):
        m.site(3)


def test_options_and_contacts_read_back(md):
    m, d = md
    assert {"timestep", "gravity", "solver", "cone"} <= set(dir(m.opt))
    m.opt.solver = "pgs"
    assert m.opt.solver == "pgs" and str(m.opt.solver) == "pgs" and m.opt.solver == 0
    conesim.step(m, d, 10)
    assert d.ncon == 1
    c = d.contact[0]
    assert {"pos", "frame", "dist", "force", "zone", "zone_name"} <= set(dir(c))
    assert "geom 0 'floor' / 1 'sphere'" in repr(c) and "zone" in repr(c)
    assert c.zone_name == "pyramid" and d.contact.zone_name == ("pyramid",)  # the cone's
    m.opt.cone = "elliptic"
    conesim.step(m, d, 10)
    # at rest the force is inside the elliptic cone: the soft model's quadratic zone
    assert d.contact.zone_name == ("bottom",) and d.contact[0].zone_name == "bottom"
    m.opt.contact = "coulomb"
    conesim.step(m, d, 5)
    assert d.contact.zone_name == ("stick",)  # at rest under the Coulomb model: sticking
