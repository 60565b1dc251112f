"""Renderer's depth and segmentation modes (MuJoCo's enable_depth_rendering and
enable_segmentation_rendering). Skipped without the render library or a GL context."""
import math

import numpy as np
import pytest

import conesim

# a 10 m floor at z = 0 (geom 0) and a box on it (geom 1, top at z = 0.2); a camera 2 m up
# looking down (MuJoCo's cameras look along their -z)
SCENE = """<mujoco>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1" rgba="0.5 0.5 0.5 1"/>
    <camera name="top" pos="0 0 2"/>
    <body name="block" pos="3 0 0.1">
      <geom name="box" type="box" size="0.1 0.1 0.1" rgba="1 0 0 0.5"/>
    </body>
  </worldbody>
</mujoco>"""


def renderer(m, h, w, **kw):
    try:
        return conesim.Renderer(m, h, w, **kw)
    except RuntimeError as e:  # no render library, or neither EGL nor a display
        pytest.skip(str(e))


def test_depth_of_a_plane_seen_from_above_is_the_height():
    m = conesim.Model.from_xml_string(SCENE)
    d = conesim.Data(m)
    h, w = 60, 80
    r = renderer(m, h, w)
    r.enable_depth_rendering()
    for height in (1.0, 2.5):
        r.update_scene(d, camera=conesim.Camera(azimuth=90, elevation=-90, distance=height,
                                                lookat=(0, 0, 0)))
        depth = r.render()
        assert depth.shape == (h, w) and depth.dtype == np.float32
        # distance along the view axis: the same over the whole plane, not only at the centre
        assert abs(depth[h // 2, w // 2] - height) < 2e-3 * height, depth[h // 2, w // 2]
        assert np.all(np.abs(depth - height) < 5e-3 * height)
    # the scene's camera 2 m up; the box's top (0.2 m up) is 1.8 m from the camera 3 m over
    d.qpos[:] = 0
    r.update_scene(d, camera="top")
    depth = r.render()
    assert abs(depth[h // 2, w // 2] - 2.0) < 4e-3
    r.update_scene(d, camera=conesim.Camera(azimuth=90, elevation=-90, distance=2,
                                            lookat=(3, 0, 0)))
    assert abs(r.render()[h // 2, w // 2] - 1.8) < 4e-3
    # back to colour
    r.disable_depth_rendering()
    img = r.render()
    assert img.shape == (h, w, 3) and img.dtype == np.uint8
    r.close()


def test_segmentation_names_geom_ids_and_type():
    m = conesim.Model.from_xml_string(SCENE)
    d = conesim.Data(m)
    h, w = 60, 80
    r = renderer(m, h, w)
    r.enable_segmentation_rendering()
    r.update_scene(d, camera=conesim.Camera(azimuth=90, elevation=-90, distance=2,
                                            lookat=(3, 0, 0)))
    seg = r.render()
    assert seg.shape == (h, w, 2) and seg.dtype == np.int32
    box = m.geom("box").id
    assert tuple(seg[h // 2, w // 2]) == (box, 5)  # the translucent box counts as solid
    assert tuple(seg[2, 2]) == (0, 5)              # the floor around it
    # looking level from above the floor's edge: sky (-1) above the horizon, floor below
    r.update_scene(d, camera=conesim.Camera(azimuth=0, elevation=0, distance=1,
                                            lookat=(4, 0, 0.5)))
    seg = r.render()
    assert tuple(seg[2, w // 2]) == (-1, -1)
    assert tuple(seg[h - 3, w // 2]) == (0, 5)
    assert set(np.unique(seg[..., 1])) <= {-1, 5}
    # depth switches segmentation off (one mode at a time, as MuJoCo's Renderer)
    r.enable_depth_rendering()
    assert r.render().shape == (h, w)
    r.disable_segmentation_rendering()  # not on: stays depth
    assert r.render().shape == (h, w)
    r.enable_segmentation_rendering()
    out = np.zeros((h, w, 2), dtype=np.int32)
    assert r.render(out=out) is out and tuple(out[2, w // 2]) == (-1, -1)
    with pytest.raises(ValueError):
        r.render(out=np.zeros((h, w, 3), dtype=np.uint8))
    r.disable_segmentation_rendering()
    assert r.render().shape == (h, w, 3)
    r.close()
    with pytest.raises(RuntimeError):
        r.render()


def test_hidden_geoms_are_not_in_segmentation():
    m = conesim.Model.from_xml_string(SCENE.replace('rgba="1 0 0 0.5"', 'rgba="1 0 0 0"'))
    d = conesim.Data(m)
    r = renderer(m, 30, 40)
    r.enable_segmentation_rendering()
    r.update_scene(d, camera=conesim.Camera(azimuth=90, elevation=-90, distance=2,
                                            lookat=(3, 0, 0)))
    assert tuple(r.render()[15, 20]) == (0, 5)
    r.close()


def test_depth_far_where_nothing_is():
    m = conesim.Model.from_xml_string(SCENE)
    d = conesim.Data(m)
    r = renderer(m, 30, 40)
    r.enable_depth_rendering()
    r.update_scene(d, camera=conesim.Camera(azimuth=0, elevation=30, distance=1,
                                            lookat=(0, 0, 1)))
    depth = r.render()
    # looking up into the sky: nothing nearer than the far plane, finite
    assert np.all(np.isfinite(depth)) and depth.min() > 10 * math.sqrt(3)
    r.close()


ORTHO = """<mujoco>
  <worldbody>
    <light pos="0 0 3"/>
    <geom type="plane" size="10 10 .01" rgba=".2 .3 .4 1"/>
    <body pos="0 0 .5"><freejoint/><geom type="box" size=".5 .5 .5" rgba="1 0 0 1"/></body>
    <camera name="fit" pos="0 0 3" projection="orthographic" fovy="1"/>
    <camera name="wide" pos="0 0 3" projection="orthographic" fovy="4"/>
  </worldbody>
</mujoco>"""


def test_orthographic_camera_sees_a_length_and_linear_depth():
    """fovy of an orthographic camera is the view's height: a 1 m box seen from above fills a
    square view of 1 m and a sixteenth of one of 4 m, whatever its distance; depth is the
    distance along the axis (box top 2 m below, floor 3 m)."""
    m = conesim.Model.from_xml_string(ORTHO)
    d = conesim.Data(m)
    conesim.forward(m, d)
    r = renderer(m, 64, 64)
    red = lambda img: ((img[..., 0] > 120) & (img[..., 1] < 80)).mean()
    r.update_scene(d, camera="fit")
    assert red(r.render()) > 0.95
    r.update_scene(d, camera="wide")
    assert abs(red(r.render()) - 1 / 16) < 0.01
    r.enable_depth_rendering()
    r.update_scene(d, camera="wide")
    depth = r.render()
    assert abs(depth[32, 32] - 2) < 1e-3 and abs(depth[1, 1] - 3) < 1e-3


def test_orthographic_free_camera_from_visual_global():
    """<visual><global orthographic fovy>: the free camera, looking straight down, sees a
    view 5 m high (and 5 64/48 m wide) whatever its distance: the 1 m box's top covers
    1/5 x 3/20 of the picture; in perspective (fovy 45 degrees) it does not."""
    xml = ORTHO.replace("<worldbody>", '<visual><global orthographic="true" fovy="5" '
                        'elevation="-90"/></visual><worldbody>')
    red = lambda img: ((img[..., 0] > 120) & (img[..., 1] < 80)).mean()
    seen = {}
    for ortho in (True, False):
        m = conesim.Model.from_xml_string(xml if ortho else xml.replace(
            ' orthographic="true" fovy="5"', ''))
        d = conesim.Data(m)
        conesim.forward(m, d)
        r = renderer(m, 48, 64)
        r.update_scene(d)
        seen[ortho] = red(r.render())
    assert abs(seen[True] - 0.2 * 0.15) < 0.006
    assert abs(seen[False] - seen[True]) > 0.02
