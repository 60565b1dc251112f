"""conesim.Renderer, VideoWriter and render_video (libconesim_render). Skipped when the
library is missing (a build without the viewer) or no GL context can be had (neither EGL nor
a display)."""
import math
import os

import numpy as np
import pytest

import conesim

SCENES = os.environ.get("CONESIM_SCENES", os.path.join(os.path.dirname(__file__), "../../scenes"))

# a red ball on a slide joint along x, in front of a grey floor; no gravity along x
BALL = """<mujoco>
  <worldbody>
    <geom type="plane" size="5 5 0.1" pos="0 0 -1" rgba="0.5 0.5 0.5 1"/>
    <body name="ball">
      <joint name="x" type="slide" axis="1 0 0"/>
      <geom type="sphere" size="0.08" rgba="1 0 0 1"/>
    </body>
  </worldbody>
</mujoco>"""


def renderer(m, h, w, **kw):
    try:
        return conesim.Renderer(m, h, w, **kw)
    except RuntimeError as e:  # no render library, or neither EGL nor a display
        pytest.skip(str(e))


def block(img, x, y):
    """Mean colour of the 3x3 pixels around column x, row y."""
    return img[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3).mean(axis=0)


def is_red(c):
    return c[0] > 120 and c[1] < 60 and c[2] < 60


def test_shape_and_known_colour_at_projected_place():
    m = conesim.Model.from_xml_string(BALL)
    d = conesim.Data(m)
    h, w = 120, 160
    r = renderer(m, h, w)
    assert r.backend in ("egl", "glfw")
    # level camera 2 m in front (azimuth 90: looking along +y, +x to the right)
    cam = conesim.Camera(azimuth=90, elevation=0, distance=2, lookat=(0, 0, 0))
    # pinhole with MuJoCo's 45 degree vertical field of view: x metres right of the look-at
    # point at distance D land f x / D pixels right of the centre, f = (h/2) / tan(22.5 deg)
    f = (h / 2) / math.tan(math.radians(22.5))
    for x in (0.3, -0.3):
        d.qpos[0] = x
        r.update_scene(d, camera=cam)
        img = r.render()
        assert img.shape == (h, w, 3) and img.dtype == np.uint8
        col = int(round(w / 2 + f * x / 2 - 0.5))
        assert is_red(block(img, col, h // 2)), block(img, col, h // 2)
        # where the ball is not: the image centre and the mirrored place
        assert not is_red(block(img, w // 2, h // 2))
        mirror = int(round(w / 2 - f * x / 2 - 0.5))
        assert not is_red(block(img, mirror, h // 2))
    r.close()


def test_moving_body_changes_pixels_and_sky_stays():
    m = conesim.Model.from_xml_path(os.path.join(SCENES, "incline_slide.xml"))
    d = conesim.Data(m)
    with renderer(m, 90, 120, samples=0) as r:
        r.update_scene(d)
        a = r.render()
        conesim.step(m, d, round(1.0 / m.opt.timestep))  # one second: the box slides ~0.2 m
        r.update_scene(d)
        b = r.render()
    diff = np.abs(a.astype(int) - b.astype(int)).sum(axis=2)
    assert (diff > 60).sum() > 50       # the box's pixels moved
    assert diff[:4, :4].max() < 10      # the sky corner did not


def test_render_into_out_and_errors():
    m = conesim.Model.from_xml_string(BALL)
    d = conesim.Data(m)
    r = renderer(m, 40, 60)
    with pytest.raises(RuntimeError):
        r.render()  # no scene yet
    r.update_scene(d, camera="90,-20,2")
    out = np.zeros((40, 60, 3), np.uint8)
    assert r.render(out=out) is out and out.any()
    with pytest.raises(ValueError):
        r.render(out=np.zeros((60, 40, 3), np.uint8))
    with pytest.raises(ValueError):
        r.overlay = "contacts,bogus"
    with pytest.raises(ValueError):
        r.update_scene(d, camera=conesim.Camera(distance=0))
    other = conesim.Model.from_xml_string(BALL)
    with pytest.raises(ValueError):
        r.update_scene(conesim.Data(other))
    with pytest.raises(ValueError):
        r.update_scene(d, camera=0)  # no scene cameras
    r.update_scene(d, camera=-1)     # MuJoCo's free camera
    assert np.array_equal(r.render(), (r.update_scene(d), r.render())[1])
    r.overlay = "contacts,forces,cones"
    r.update_scene(d)
    assert r.render().shape == (40, 60, 3)
    r.close()
    with pytest.raises(RuntimeError):
        r.update_scene(d)


# render() on a closed renderer, run in a child process: a crash there (exit -11) fails the
# test instead of taking the test runner down
AFTER_CLOSE = """
import ctypes, sys
import numpy as np
import conesim
m = conesim.Model.from_xml_string(sys.argv[1])
d = conesim.Data(m)
try:
    r = conesim.Renderer(m, 24, 32)
except RuntimeError:
    sys.exit(77)  # no GL
r.update_scene(d)
r.render()
r.close()
try:
    r.render()
except RuntimeError as e:
    print("closed:", e)
with conesim.Renderer(m, 24, 32) as w:
    w.update_scene(d)
    w.render()
try:
    w.render(out=np.zeros((24, 32, 3), np.uint8))
except RuntimeError as e:
    print("with:", e)
try:
    w.update_scene(d)
except RuntimeError as e:
    print("update:", e)
# the C call itself refuses a NULL renderer
err = ctypes.create_string_buffer(256)
print("C:", r._lib.cs_offscreen_render(None, ctypes.create_string_buffer(24 * 32 * 3), err,
                                       256), err.value.decode())
r._lib.cs_offscreen_update(None, d._ptr)
print("done")
"""


def test_render_after_close_raises():
    import subprocess
    import sys
    p = subprocess.run([sys.executable, "-c", AFTER_CLOSE, BALL], capture_output=True,
                       text=True, timeout=120)
    if p.returncode == 77:
        pytest.skip("no GL context")
    assert p.returncode == 0, (p.returncode, p.stdout, p.stderr)
    lines = p.stdout.splitlines()
    assert lines[0].startswith("closed: the renderer is closed")
    assert lines[1].startswith("with: the renderer is closed")
    assert lines[2].startswith("update: the renderer is closed")
    assert lines[3].startswith("C: -1 no renderer")
    assert lines[4] == "done"


def test_render_video_samples_simulated_time(tmp_path):
    m = conesim.Model.from_xml_path(os.path.join(SCENES, "incline_slide.xml"))
    d = conesim.Data(m)
    renderer(m, 8, 8).close()  # skips without GL
    calls = []
    path = tmp_path / "slide.mp4"
    n = conesim.render_video(m, str(path), duration=0.2, fps=20, width=64, height=48, data=d,
                             control=lambda m_, d_: calls.append(d_.time))
    assert n == 4  # frames at 0, 0.05, 0.1, 0.15 s
    # the last frame shows the step nearest 0.15 s and lasts to 0.2 s, where d ends: 100
    # steps of 2 ms, one control call each
    assert len(calls) == round(0.2 / m.opt.timestep)
    assert d.time == pytest.approx(0.2, abs=m.opt.timestep / 2)
    assert path.stat().st_size > 0
    assert not [p for p in os.listdir(tmp_path) if p != "slide.mp4"]  # no temporary left


def test_render_video_from_states_and_bad_path(tmp_path):
    m = conesim.Model.from_xml_path(os.path.join(SCENES, "incline_slide.xml"))
    d = conesim.Data(m)
    renderer(m, 8, 8).close()
    states = conesim.rollout(m, conesim.get_state(m, d), 150)[0]  # 0.002 .. 0.3 s
    n = conesim.render_video(m, str(tmp_path / "r.mkv"), fps=10, width=32, height=32,
                             states=states)
    assert n == 3  # 0.298 s of states at 10 fps: 0, 0.1, 0.2
    with pytest.raises(OSError):
        conesim.render_video(m, str(tmp_path), duration=0.1, width=32, height=32)
    assert sorted(os.listdir(tmp_path)) == ["r.mkv"]


def test_video_writer_discards_on_error(tmp_path):
    renderer(conesim.Model.from_xml_string(BALL), 8, 8).close()
    path = tmp_path / "v.mp4"
    with pytest.raises(ValueError):
        with conesim.VideoWriter(str(path), 32, 24, fps=25) as v:
            v.write(np.zeros((24, 32, 3), np.uint8))
            v.write(np.zeros((32, 24, 3), np.uint8))  # wrong shape
    assert not os.listdir(tmp_path)
    with conesim.VideoWriter(str(path), 32, 24, fps=25) as v:
        for k in range(5):
            v.write(np.full((24, 32, 3), 50 * k, np.uint8))
    assert v.frames == 5 and path.stat().st_size > 0


# a red box 14 m in front of a named camera; a keyframe that lifts the box
CAMS = """<mujoco>
  <asset>
    <texture name="check" type="2d" builtin="checker" rgb1="1 1 1" rgb2="0 0 0" width="8" height="8"/>
    <material name="floor" texture="check"/>
  </asset>
  <worldbody>
    <geom type="plane" size="0 0 1" material="floor"/>
    <camera name="front" pos="0 -20 1" xyaxes="1 0 0 0 0 1" fovy="20"/>
    <body name="box" pos="0 -6 1">
      <freejoint/>
      <geom type="box" size="0.5 0.5 0.5" rgba="1 0 0 1"/>
    </body>
  </worldbody>
  <keyframe><key qpos="0 -6 3 1 0 0 0"/></keyframe>
</mujoco>"""


def test_scene_camera_by_name_and_id():
    m = conesim.Model.from_xml_string(CAMS)
    d = conesim.Data(m)
    conesim.reset_data_keyframe(m, d, 0)
    d.qpos[2] = 1.0
    r = renderer(m, 48, 64, samples=0)
    r.update_scene(d, camera="front")
    assert is_red(block(r.render(), 32, 24))
    r.update_scene(d, camera=0)
    assert is_red(block(r.render(), 32, 24))
    r.update_scene(d)  # the free camera looks down at the box from above: no longer centred
    with pytest.raises(ValueError, match="front"):
        r.update_scene(d, camera="back")
    with pytest.raises(ValueError):
        r.update_scene(d, camera=1)
    r.close()


def test_video_writer_takes_float_frames(tmp_path):
    renderer(conesim.Model.from_xml_string(BALL), 8, 8).close()
    from conesim.renderer import _frame_bytes
    f = _frame_bytes(np.full((2, 2, 3), 0.8))
    assert f.dtype == np.uint8 and (f == 204).all()
    assert (_frame_bytes(np.array([[[-1.0, 2.0, 0.5]]])) == [[[0, 255, 128]]]).all()
    with pytest.raises(ValueError):
        _frame_bytes(np.zeros((2, 2, 3), np.int64))
    path = tmp_path / "f.mp4"
    with conesim.VideoWriter(str(path), 32, 24, fps=25) as v:
        for k in range(3):
            v.write(np.full((24, 32, 3), 0.25 * (k + 1), np.float32))
    assert v.frames == 3 and path.stat().st_size > 0
    with pytest.raises(OSError, match="mp4"):
        conesim.VideoWriter(str(tmp_path / "x.gif"), 32, 24)


def test_render_video_starts_as_view_does(tmp_path):
    m = conesim.Model.from_xml_string(CAMS)
    renderer(m, 8, 8).close()
    first = []
    conesim.render_video(m, str(tmp_path / "k.mp4"), duration=0.05, fps=20, width=32,
                         height=32, control=lambda m_, d_: first.append(d_.qpos[2]))
    assert first[0] == pytest.approx(3.0)  # the first keyframe's height, as `view` starts
    import inspect
    assert inspect.signature(conesim.render_video).parameters["overlay"].default == \
        "contacts,forces"
