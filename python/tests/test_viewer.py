"""conesim.viewer: the passive window (MuJoCo's launch_passive) and launch. Needs a display:
meson's python-viewer test runs this file under Xvfb; without DISPLAY it is skipped."""
import os
import shutil
import subprocess
import time

import numpy as np
import pytest

import conesim
import conesim.viewer

# a red ball dropping onto a grey floor
BALL = """<mujoco>
  <worldbody>
    <geom type="plane" size="2 2 0.1" rgba="0.5 0.5 0.5 1"/>
    <body name="ball" pos="0 0 0.5">
      <freejoint/>
      <geom type="sphere" size="0.1" rgba="1 0 0 1"/>
    </body>
  </worldbody>
</mujoco>"""

pytestmark = pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="no display")


def passive(m, d, **kw):
    try:
        return conesim.viewer.launch_passive(m, d, **kw)
    except RuntimeError as e:  # no render library or no window
        pytest.skip(str(e))


def red_pixels(img):
    return int(np.count_nonzero((img[..., 0] > 120) & (img[..., 1] < 60) & (img[..., 2] < 60)))


def test_passive_viewer_steps_syncs_and_closes():
    m = conesim.Model.from_xml_string(BALL)
    d = conesim.Data(m)
    v = passive(m, d)
    assert v.is_running()
    for _ in range(50):
        conesim.step(m, d)
        v.sync()
        assert v.is_running()
    assert d.time == pytest.approx(50 * m.opt.timestep)
    # sync drew d: the red ball is on screen, and moving it moves the picture
    w, h = v.viewport_size
    img = v.read_pixels()
    assert img.shape == (h, w, 3) and img.dtype == np.uint8
    assert red_pixels(img) > 100
    d.qpos[0] = 5.0  # far outside the view: the picture changes at the next sync
    assert red_pixels(v.read_pixels()) > 100
    v.sync()
    assert red_pixels(v.read_pixels()) == 0
    v.close()
    assert not v.is_running()
    with pytest.raises(RuntimeError, match="closed"):
        v.sync()
    with pytest.raises(RuntimeError, match="closed"):
        v.read_pixels()
    v.close()  # twice: nothing


def test_passive_viewer_with_block_and_lock():
    m = conesim.Model.from_xml_string(BALL)
    d = conesim.Data(m)
    calls = []
    with passive(m, d, key_callback=calls.append) as v:
        with v.lock():
            conesim.step(m, d, 10)
        v.sync()
        assert v.is_running() and v.m is m and v.d is d
    assert not v.is_running()
    with pytest.raises(RuntimeError):
        v.sync()
    assert calls == []  # no key was pressed


def test_passive_viewer_refuses_other_threads():
    import threading
    m = conesim.Model.from_xml_string(BALL)
    d = conesim.Data(m)
    with passive(m, d) as v:
        v.sync()
        errors = []

        def other():
            for f in (v.sync, v.read_pixels, v.close):
                try:
                    f()
                except RuntimeError as e:
                    errors.append(str(e))

        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert len(errors) == 3 and all("thread" in e for e in errors)
        assert v.is_running()
        v.sync()  # still fine here


def test_renderer_and_viewer_in_one_program():
    # an EGL context (the Renderer's) and the window's GLX one take turns in one thread
    m = conesim.Model.from_xml_string(BALL)
    d = conesim.Data(m)
    try:
        r = conesim.Renderer(m, 60, 80)
    except RuntimeError as e:
        pytest.skip(str(e))
    with passive(m, d) as v:
        for _ in range(3):
            conesim.step(m, d)
            v.sync()
            r.update_scene(d)
            assert red_pixels(r.render()) > 10
            assert red_pixels(v.read_pixels()) > 100
    r.update_scene(d)
    assert red_pixels(r.render()) > 10
    r.close()


def test_passive_viewer_bad_arguments():
    m = conesim.Model.from_xml_string(BALL)
    other = conesim.Data(conesim.Model.from_xml_string(BALL))
    with pytest.raises(ValueError, match="another model"):
        conesim.viewer.launch_passive(m, other)
    with pytest.raises(TypeError):
        conesim.viewer.launch_passive(m, conesim.Data(m), key_callback=5)
    with pytest.raises(TypeError):
        conesim.viewer.launch_passive(m, "data")


def test_launch_steps_until_the_window_closes(monkeypatch):
    m = conesim.Model.from_xml_string(BALL)
    d = conesim.Data(m)
    try:
        conesim.viewer._load()
    except RuntimeError as e:
        pytest.skip(str(e))
    seen = []
    real = conesim.viewer.Handle.is_running

    def closes_after_30_frames(self):
        seen.append(real(self))
        if len(seen) >= 30:
            self.close()  # as the window's close button would
        return real(self)

    monkeypatch.setattr(conesim.viewer.Handle, "is_running", closes_after_30_frames)
    out = conesim.viewer.launch(m, d)
    assert out is d and all(seen[:29])
    assert d.time > 0  # stepped in real time between the frames
    assert d.qpos[2] < 0.5  # the ball fell


def focus(v):
    """Focuses this process's viewer window (xdotool, XTEST) and returns its id; skips without
    xdotool. A busy machine may take a while to map it: polls, syncing meanwhile."""
    if not shutil.which("xdotool"):
        pytest.skip("no xdotool")
    for _ in range(200):
        v.sync()
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid",
                                str(os.getpid()), "--name", "conesim"],
                               capture_output=True, text=True).stdout.split()
        if found and subprocess.run(["xdotool", "windowfocus", "--sync", found[0]],
                                    capture_output=True, timeout=30).returncode == 0:
            return found[0]
        time.sleep(0.1)
    pytest.fail("could not find and focus the viewer's window")


def sync_until(v, done):
    for _ in range(300):
        v.sync()
        if done():
            return True
        time.sleep(0.05)
    return False


def test_keys_reach_key_callback_backspace_resets_esc_closes():
    m = conesim.Model.from_xml_string(BALL)
    d = conesim.Data(m)
    keys = []
    v = passive(m, d, key_callback=keys.append)
    focus(v)
    subprocess.run(["xdotool", "key", "a"], check=True)
    assert sync_until(v, lambda: keys)
    assert keys == [65]  # GLFW_KEY_A
    conesim.step(m, d, 20)
    assert d.time > 0
    subprocess.run(["xdotool", "key", "BackSpace"], check=True)
    assert sync_until(v, lambda: d.time == 0)
    assert d.qpos[2] == pytest.approx(0.5)
    subprocess.run(["xdotool", "key", "Escape"], check=True)
    assert sync_until(v, lambda: not v.is_running())
    assert keys[-1] == 256  # GLFW_KEY_ESCAPE
    v.sync()  # closed by its user: nothing happens, no error
    v.close()


def test_ctrl_drag_pulls_the_ball_through_xfrc_applied():
    m = conesim.Model.from_xml_string(BALL)
    d = conesim.Data(m)
    v = passive(m, d)
    win = focus(v)
    img = v.read_pixels()
    ys, xs = np.nonzero((img[..., 0] > 120) & (img[..., 1] < 60) & (img[..., 2] < 60))
    assert len(xs) > 100
    x, y = int(xs.mean()), int(ys.mean())
    d.xfrc_applied[0] = 1.0  # the caller's own applied force: left alone

    def xdo(*args):
        subprocess.run(["xdotool", *args], check=True)

    xdo("mousemove", "--window", win, "5", "5")
    v.sync()
    xdo("mousemove", "--window", win, str(x), str(y))
    v.sync()
    xdo("keydown", "ctrl", "mousedown", "1")
    v.sync()
    xdo("mousemove", "--window", win, str(x + 60), str(y))
    assert sync_until(v, lambda: np.any(d.xfrc_applied[1] != 0))
    assert np.all(d.xfrc_applied[0] == 1.0)
    # the handle's perturb says the same: pulling, the grabbed point on the ball (radius
    # 0.1 about its centre), pulled to the right of where the ball is (+x, azimuth 90)
    assert v.perturb.active == conesim.viewer.PERT_TRANSLATE and v.pert is v.perturb
    assert np.linalg.norm(v.perturb.localpos) <= 0.1 + 1e-9
    assert v.perturb.refselpos[0] > d.xpos[1][0]
    xdo("mouseup", "1", "keyup", "ctrl")
    assert sync_until(v, lambda: np.all(d.xfrc_applied[1] == 0))
    assert np.all(d.xfrc_applied[0] == 1.0)
    assert v.perturb.active == 0
    v.close()


def test_window_keys_read_back_into_opt_and_user_scn():
    m = conesim.Model.from_xml_string(BALL)
    d = conesim.Data(m)
    v = passive(m, d)
    focus(v)
    cp = conesim.viewer.VIS_CONTACTPOINT
    was = v.opt.flags[cp]
    assert v.user_scn.flags[conesim.viewer.RND_WIREFRAME] == 0
    subprocess.run(["xdotool", "key", "c", "w"], check=True)
    assert sync_until(v, lambda: v.user_scn.flags[conesim.viewer.RND_WIREFRAME] == 1)
    assert v.opt.flags[cp] == 1 - was
    v.close()


# a red ball right of a blue one (x = +-0.3) on a grey floor, and a camera above looking
# straight down, its image right +x and up +y
TWO = """<mujoco>
  <worldbody>
    <camera name="top" pos="0 0 5" xyaxes="1 0 0 0 1 0" fovy="45"/>
    <geom type="plane" size="3 3 0.1" rgba="0.5 0.5 0.5 1"/>
    <geom name="hidden" type="box" size="0.2 0.2 0.2" pos="0 1 0.2" rgba="0 1 0 1" group="3"/>
    <body name="red" pos="0.3 0 0.1"><freejoint/><geom type="sphere" size="0.1" rgba="1 0 0 1"/></body>
    <body name="blue" pos="-0.3 0 0.1"><freejoint/><geom type="sphere" size="0.1" rgba="0 0 1 1"/></body>
  </worldbody>
</mujoco>"""


def mask(img, channel):
    """Pixels where one channel clearly dominates (lit spheres keep their hue)."""
    c = img.astype(int)
    others = [c[..., k] for k in range(3) if k != channel]
    return (c[..., channel] > 90) & (c[..., channel] > 2 * np.maximum(*others) + 20)


def test_cam_distance_azimuth_and_fixed_camera_change_the_picture():
    m = conesim.Model.from_xml_string(TWO)
    d = conesim.Data(m)
    with passive(m, d) as v:
        v.cam.lookat = [0, 0, 0.1]
        v.cam.azimuth, v.cam.elevation, v.cam.distance = 90, -30, 2.0
        v.sync()
        assert v.cam.type == conesim.viewer.CAMERA_FREE and v.cam.distance == 2.0
        w, h = v.viewport_size
        img = v.read_pixels()
        near = mask(img, 0).sum()
        # azimuth 90 looks along +y: +x (the red ball) is right of the centre
        assert near > 100 and np.nonzero(mask(img, 0))[1].mean() > w / 2
        assert np.nonzero(mask(img, 2))[1].mean() < w / 2
        v.cam.distance = 6.0
        v.sync()
        far = mask(v.read_pixels(), 0).sum()
        assert 0 < far < near / 4  # three times as far: about a ninth of the pixels
        v.cam.distance, v.cam.azimuth = 2.0, 270  # from the other side: red on the left
        v.sync()
        img = v.read_pixels()
        assert np.nonzero(mask(img, 0))[1].mean() < w / 2
        assert np.nonzero(mask(img, 2))[1].mean() > w / 2
        # the model's camera from above: x right, so red right; the floor fills the rest
        v.cam.type = conesim.viewer.CAMERA_FIXED
        v.cam.fixedcamid = 0
        v.sync()
        assert v.cam.type == conesim.viewer.CAMERA_FIXED and v.cam.fixedcamid == 0
        img = v.read_pixels()
        f = (h / 2) / np.tan(np.radians(22.5))
        for x, ch in ((0.3, 0), (-0.3, 2)):
            col, row = int(round(w / 2 + f * x / 4.8)), int(round(h / 2))
            assert mask(img[row - 2:row + 3, col - 2:col + 3], ch).all(), (x, img[row, col])
        # back to the free camera: its own pose again
        v.cam.type = conesim.viewer.CAMERA_FREE
        v.sync()
        assert np.nonzero(mask(v.read_pixels(), 0))[1].mean() < w / 2


def test_tracking_camera_follows_the_body():
    m = conesim.Model.from_xml_string(TWO)
    d = conesim.Data(m)
    with passive(m, d) as v:
        v.cam.type = conesim.viewer.CAMERA_TRACKING
        v.cam.trackbodyid = m.body("red").id
        d.qpos[0:3] = [1.0, 0.5, 0.4]
        v.sync()
        assert v.cam.type == conesim.viewer.CAMERA_TRACKING
        assert np.allclose(v.cam.lookat, [1.0, 0.5, 0.4])


def test_opt_flags_and_frame_draw_or_hide_overlays():
    # a grey box resting on the floor: contacts at its corners, where their markers show
    m = conesim.Model.from_xml_string("""<mujoco><worldbody>
      <geom type="plane" size="2 2 0.1" rgba="0.5 0.5 0.5 1"/>
      <body pos="0 0 0.1"><freejoint/><geom type="box" size="0.1 0.1 0.1" rgba="0.5 0.5 0.5 1"/></body>
      </worldbody></mujoco>""")
    d = conesim.Data(m)
    conesim.step(m, d, 5)
    assert d.ncon >= 4
    VIS = conesim.viewer
    with passive(m, d) as v:
        v.cam.lookat, v.cam.distance, v.cam.elevation = [0, 0, 0.1], 1.0, -30
        v.user_scn.flags[VIS.RND_WIREFRAME] = 0

        def picture(point, force, frame):
            v.opt.flags[VIS.VIS_CONTACTPOINT] = point
            v.opt.flags[VIS.VIS_CONTACTFORCE] = force
            v.opt.frame = VIS.FRAME_CONTACT if frame else VIS.FRAME_NONE
            v.sync()
            assert v.opt.flags[VIS.VIS_CONTACTPOINT] == point
            return v.read_pixels().astype(int)

        def count(img, rgb):  # the overlays are unlit: their exact colours
            return int(np.count_nonzero(np.all(np.abs(img - rgb) <= 3, axis=-1)))

        point_rgb, force_rgb, t2_axis = (255, 51, 25), (255, 217, 0), (51, 77, 255)
        none = picture(0, 0, 0)
        assert count(none, point_rgb) == 0 and count(none, force_rgb) == 0
        assert count(none, t2_axis) == 0
        assert count(picture(1, 0, 0), point_rgb) > 0
        assert count(picture(0, 1, 0), force_rgb) > 0
        img = picture(0, 0, 1)
        assert count(img, t2_axis) > 0 and count(img, point_rgb) == 0


def test_geomgroup_shows_a_hidden_group():
    m = conesim.Model.from_xml_string(TWO)
    d = conesim.Data(m)
    with passive(m, d) as v:
        v.cam.type, v.cam.fixedcamid = conesim.viewer.CAMERA_FIXED, 0
        assert list(v.opt.geomgroup) == [1, 1, 1, 0, 0, 0]  # MuJoCo's default
        v.sync()
        assert mask(v.read_pixels(), 1).sum() == 0  # the group 3 box is hidden
        v.opt.geomgroup[3] = 1
        v.sync()
        assert mask(v.read_pixels(), 1).sum() > 100
        v.opt.geomgroup[0] = 0  # the floor and the balls' group
        v.opt.flags[conesim.viewer.VIS_CONTACTPOINT] = 0  # their red-orange markers
        v.sync()
        img = v.read_pixels()
        assert mask(img, 0).sum() == 0 and mask(img, 2).sum() == 0


def test_user_scn_sphere_appears_at_its_projected_place():
    m = conesim.Model.from_xml_string(TWO)
    d = conesim.Data(m)
    with passive(m, d) as v:
        v.cam.type, v.cam.fixedcamid = conesim.viewer.CAMERA_FIXED, 0
        assert v.user_scn.ngeom == 0 and v.user_scn.maxgeom >= 1000
        g = v.user_scn.geoms[0]
        conesim.viewer.init_geom(g, conesim.viewer.GEOM_SPHERE, [0.15, 0, 0], [0.5, 0.8, 0.2],
                                 np.eye(3).flatten(), [0, 1, 0, 1])
        assert list(g.size) == pytest.approx([0.15] * 3)  # mjv_initGeom's scaling
        v.sync()
        assert mask(v.read_pixels(), 1).sum() == 0  # ngeom 0: not drawn yet
        v.user_scn.ngeom = 1
        v.sync()
        w, h = v.viewport_size
        img = v.read_pixels()
        f = (h / 2) / np.tan(np.radians(22.5))
        col = int(round(w / 2 + f * 0.5 / 4.65))
        row = int(round(h / 2 - f * 0.8 / 4.65))
        assert mask(img[row - 3:row + 4, col - 3:col + 4], 1).all(), img[row, col]
        mirror = int(round(w / 2 - f * 0.5 / 4.65))
        assert not mask(img[row - 3:row + 4, mirror - 3:mirror + 4], 1).any()
        # a box by its fields, as MuJoCo scripts write them
        b = v.user_scn.geoms[1]
        b.type, b.size, b.pos = conesim.viewer.GEOM_BOX, [0.1] * 3, [-0.5, -0.8, 0.1]
        b.rgba = [0, 1, 0, 1]
        v.user_scn.ngeom = 2
        v.sync()
        img = v.read_pixels()
        col2, row2 = int(round(w / 2 - f * 0.5 / 4.8)), int(round(h / 2 + f * 0.8 / 4.8))
        assert mask(img[row2 - 2:row2 + 3, col2 - 2:col2 + 3], 1).all()
        v.user_scn.ngeom = 0
        v.sync()
        assert mask(v.read_pixels(), 1).sum() == 0


def test_handle_refuses_invalid_values():
    m = conesim.Model.from_xml_string(TWO)
    d = conesim.Data(m)
    VIS = conesim.viewer
    with passive(m, d) as v:
        bad = [
            (lambda: setattr(v.cam, "distance", -1), ValueError, "> 0"),
            (lambda: setattr(v.cam, "azimuth", float("nan")), ValueError, "finite"),
            (lambda: setattr(v.cam, "lookat", [0, 0]), ValueError, "3 numbers"),
            (lambda: setattr(v.cam, "type", VIS.CAMERA_USER), ValueError, "CAMERA_USER"),
            (lambda: setattr(v.cam, "type", 7), ValueError, "CAMERA_FREE"),
            (lambda: setattr(v.cam, "fixedcamid", 1), ValueError, "1 camera"),
            (lambda: setattr(v.cam, "trackbodyid", m.nbody), ValueError, "bodies"),
            (lambda: setattr(v.cam, "orthographic", 1), ValueError, "perspective"),
            (lambda: setattr(v.cam, "type", "fixed"), TypeError, "int"),
            (lambda: setattr(v.opt, "frame", VIS.FRAME_BODY), ValueError, "contact frames"),
            (lambda: setattr(v.opt, "label", VIS.LABEL_BODY), ValueError, "no labels"),
            (lambda: v.opt.flags.__setitem__(VIS.VIS_TENDON, 1), ValueError, "VIS_TENDON"),
            (lambda: v.opt.flags.__setitem__(VIS.VIS_STATIC, 0), ValueError, "static"),
            (lambda: v.opt.geomgroup.__setitem__(0, -1), ValueError, "geomgroup"),
            (lambda: v.opt.geomgroup.__setitem__(6, 1), IndexError, ""),
            (lambda: setattr(v.opt, "tendongroup", [1] * 6), AttributeError, "tendon"),
            (lambda: setattr(v.perturb, "active", 1), ValueError, "read only"),
            (lambda: setattr(v.perturb, "select", m.nbody), ValueError, "bodies"),
            (lambda: setattr(v.user_scn, "ngeom", v.user_scn.maxgeom + 1), ValueError, "maxgeom"),
            (lambda: v.user_scn.flags.__setitem__(VIS.RND_FOG, 1), ValueError, "RND_FOG"),
            (lambda: VIS.init_geom(v.user_scn.geoms[0], VIS.GEOM_MESH), ValueError, "GEOM_SPHERE"),
            (lambda: VIS.init_geom(v.user_scn.geoms[0], VIS.GEOM_BOX, rgba=[2, 0, 0, 1]),
             ValueError, "rgba"),
            (lambda: VIS.init_geom(v.user_scn.geoms[0], VIS.GEOM_BOX, size=[-1, 1, 1]),
             ValueError, "size"),
            (lambda: VIS.init_geom("geom", VIS.GEOM_BOX), TypeError, "user_scn"),
        ]
        for f, exc, phrase in bad:
            with pytest.raises(exc, match=phrase):
                f()
        # nothing refused changed anything: the defaults still draw
        v.sync()
        assert v.cam.type == VIS.CAMERA_FREE and v.cam.distance > 0
        # a fixed camera without an id, and a geom written out of range, fail at sync
        v.cam.type = VIS.CAMERA_FIXED
        v.cam.fixedcamid = -1
        with pytest.raises(ValueError, match="fixedcamid"):
            v.sync()
        v.cam.type = VIS.CAMERA_FREE
        v.user_scn.geoms[0].type = VIS.GEOM_MESH
        v.user_scn.ngeom = 1
        with pytest.raises(ValueError, match=r"user_scn.geoms\[0\].type"):
            v.sync()
        v.user_scn.ngeom = 0
        v.sync()
        assert v.is_running()


def test_readme_viewer_example_runs(monkeypatch):
    import re
    root = os.path.dirname(os.environ.get("CONESIM_SCENES", os.path.join(
        os.path.dirname(__file__), "../../scenes")))
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("#### A viewer window from Python"):]
    code = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    assert "d.time < 5" in code
    try:
        conesim.viewer._load()
    except RuntimeError as e:
        pytest.skip(str(e))
    monkeypatch.chdir(root)
    env = {}
    exec(compile(code.replace("d.time < 5", "d.time < 0.02"), "README viewer", "exec"), env)
    v, d = env["v"], env["d"]
    assert d.time >= 0.02 and not v.is_running()  # stepped, then closed by the with block
    assert v.cam.distance == 3.0 and v.cam.azimuth == 120 and v.user_scn.ngeom == 1


def test_transparent_and_texture_flags():
    # the red ball above a checker floor seen from the model's camera
    xml = TWO.replace('<geom type="plane" size="3 3 0.1" rgba="0.5 0.5 0.5 1"/>',
                      '<geom type="plane" size="3 3 0.1" material="chk"/>').replace(
        "<worldbody>", """<asset><texture name="chk" type="2d" builtin="checker" rgb1="0 0 1"
        rgb2="0 0 1" width="8" height="8"/><material name="chk" texture="chk"/></asset>
        <worldbody>""")
    m = conesim.Model.from_xml_string(xml)
    d = conesim.Data(m)
    VIS = conesim.viewer
    with passive(m, d) as v:
        v.cam.type, v.cam.fixedcamid = VIS.CAMERA_FIXED, 0
        v.opt.flags[VIS.VIS_CONTACTPOINT] = v.opt.flags[VIS.VIS_CONTACTFORCE] = 0
        w, h = v.viewport_size
        f = (h / 2) / np.tan(np.radians(22.5))
        ball = (int(round(w / 2 + f * 0.3 / 4.8)), h // 2)
        floor = (w // 2, h // 4)
        v.sync()
        img = v.read_pixels().astype(int)
        assert mask(img[ball[1] - 1:ball[1] + 2, ball[0] - 1:ball[0] + 2], 0).all()
        assert mask(img[floor[1] - 1:floor[1] + 2, floor[0] - 1:floor[0] + 2], 2).all()
        v.opt.flags[VIS.VIS_TRANSPARENT] = 1  # the moving ball lets the blue floor through
        v.sync()
        c = v.read_pixels().astype(int)[ball[1], ball[0]]
        assert c[2] > 40 and c[0] > 40, c
        v.opt.flags[VIS.VIS_TRANSPARENT] = 0
        v.opt.flags[VIS.VIS_TEXTURE] = 0  # the floor's own grey instead of its blue
        v.sync()
        img = v.read_pixels().astype(int)
        assert not mask(img[floor[1] - 1:floor[1] + 2, floor[0] - 1:floor[0] + 2], 2).any()
        assert v.opt.flags[VIS.VIS_TEXTURE] == 0
