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
    xdo("mouseup", "1", "keyup", "ctrl")
    assert sync_until(v, lambda: np.all(d.xfrc_applied[1] == 0))
    assert np.all(d.xfrc_applied[0] == 1.0)
    v.close()
