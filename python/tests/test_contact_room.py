"""Data holds room for a few contacts and the C array grows as steps need: Python reads the
contacts from wherever the array is now, never from where it was."""
import gc

import numpy as np
import pytest

import conesim


def spheres(n):
    """n spheres resting on a plane, in a row: one contact each."""
    bodies = "".join(f'<body pos="{0.3 * i} 0 0.099"><freejoint/><geom type="sphere" '
                     f'size="0.1" mass="1"/></body>' for i in range(n))
    return conesim.Model.from_xml_string(
        f'<mujoco><worldbody><geom type="plane" size="100 100 0.1"/>{bodies}'
        f'</worldbody></mujoco>')


def test_data_does_not_reserve_the_full_capacity():
    m = spheres(1)
    d = conesim.Data(m)
    assert m.nconmax > 10000  # MuJoCo's arena guess for a default scene
    assert d.ncon_cap < 100 < m.nconmax


def test_contacts_read_after_the_array_grew():
    m = spheres(150)
    d = conesim.Data(m)
    conesim.step(m, d)
    before = d.contact.pos  # a copy taken while the array is small
    assert d.ncon == 150 and m.ncon_reserve < 150 <= d.ncon_cap  # grown
    conesim.step(m, d, 300)  # settled
    gc.collect()
    pos = d.contact.pos
    assert pos.shape == (150, 3)
    # sphere i rests at x = 0.3 i: its contact point is below it, on the plane
    order = np.argsort(pos[:, 0])
    assert np.allclose(pos[order, 0], 0.3 * np.arange(150), atol=1e-6)
    assert np.all(np.abs(pos[:, 2]) < 2e-3)
    assert np.allclose(before, pos, atol=1e-3)  # still readable: it is the user's copy
    for i in (0, 75, 149):
        c = d.contact[i]
        assert np.array_equal(c.pos, pos[i]) and c.force[0] == pytest.approx(9.81, rel=0.01)
    assert not pos.flags.writeable
    assert d.warning.contactfull == 0


def test_growth_across_steps_with_views_kept():
    # spheres dropped one row at a time: the contacts grow from 0 over the steps
    m = spheres(120)
    d = conesim.Data(m)
    d.qpos[2::7] += np.linspace(0, 0.05, 120)  # landing one after another
    kept = [d.contact.dist]
    for _ in range(60):
        conesim.step(m, d, 5)
        kept.append(d.contact.dist)
        assert d.contact.geom1.shape == (d.ncon,)
    assert d.ncon == 120
    assert all(np.isfinite(k).all() for k in kept)  # every copy still readable
