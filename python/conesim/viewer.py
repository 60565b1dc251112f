"""A viewer window driven from Python, as MuJoCo's mujoco.viewer:

    import conesim.viewer
    with conesim.viewer.launch_passive(m, d) as v:
        while v.is_running():
            conesim.step(m, d)
            v.sync()                  # draws d's state, handles the window's input

    conesim.viewer.launch(m, d)       # steps d in real time until the window is closed

The window is `conesim view`'s (keys and mouse: camera, overlays, selection, the control
panel; Backspace resets d; Esc closes it). It needs a display (X11; Xvfb will do) and
libconesim_render built with the viewer."""
import ctypes
import math
import threading
import time

import numpy as np

from . import renderer as _renderer

_ERRSZ = 1024


def _load():
    lib = _renderer._load()
    if not hasattr(lib, "_passive_declared"):
        P, I, S, E = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t
        IP = ctypes.POINTER(ctypes.c_int)
        _renderer._decl(lib, "cs_passive_open", P, P, I, I, S, S, E)
        _renderer._decl(lib, "cs_passive_sync", I, P, P)
        _renderer._decl(lib, "cs_passive_running", I, P)
        _renderer._decl(lib, "cs_passive_next_key", I, P)
        _renderer._decl(lib, "cs_passive_size", None, P, IP, IP)
        _renderer._decl(lib, "cs_passive_read_pixels", I, P, P, I, I, S, E)
        _renderer._decl(lib, "cs_passive_close", None, P)
        lib._passive_declared = True
    return lib


class Handle:
    """The window of launch_passive. sync() shows the data's current state; is_running()
    says whether the window is still open; close() closes it (then sync() raises
    RuntimeError). A with block closes it at its end. lock() is a context manager that
    keeps a sync from running meanwhile (syncs run on the calling thread, so it matters only
    when other threads change the data). sync, read_pixels and close work from the thread
    that launched the viewer only (RuntimeError from another: GLFW handles a window's events
    and its GL context in one thread)."""

    def __init__(self, model, data, key_callback=None, width=1280, height=720,
                 title="conesim"):
        from . import Data, Model, _check_type, _commit
        _check_type(model, Model, "model")
        _check_type(data, Data, "data")
        if data.model is not model:
            raise ValueError("data was made from another model than the viewer's")
        if key_callback is not None and not callable(key_callback):
            raise TypeError("key_callback must be callable (it gets the GLFW key code)")
        for name, v in (("width", width), ("height", height)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"{name} must be an int >= 1, got {v!r}")
        _commit(model)
        lib = _load()
        self._ptr = None
        err = ctypes.create_string_buffer(_ERRSZ)
        model._frozen = True
        ptr = lib.cs_passive_open(model._ptr, int(width), int(height), str(title).encode(), err,
                                  _ERRSZ)
        if not ptr:
            raise RuntimeError("conesim.viewer: " + err.value.decode(errors="replace"))
        self._lib, self._ptr = lib, ptr
        self._model, self._data = model, data
        self._key_callback = key_callback
        self._lock = threading.RLock()
        self._thread = threading.get_ident()

    @property
    def m(self):
        return self._model

    @property
    def d(self):
        return self._data

    def _live(self):
        if not self._ptr:
            raise RuntimeError("the viewer is closed (close() or the end of its with block): "
                               "launch a new one")
        self._same_thread()
        return self._ptr

    def _same_thread(self):
        # GLFW's rules: events are handled, and a context is current, in one thread only
        if threading.get_ident() != self._thread:
            raise RuntimeError("the viewer is used from the thread that launched it only")

    def sync(self, state_only=False):
        """Handles the window's input since the last sync (camera, overlays, the control
        panel writing d.ctrl, Backspace resetting d, Ctrl+drag setting a body's
        d.xfrc_applied), calls key_callback for each key pressed, then draws d's current
        state (recomputing its kinematics, contacts and forces, as conesim.forward). Does
        nothing once the window was closed by its user; raises RuntimeError after close().
        state_only is accepted for MuJoCo's signature: the whole of d is drawn either way."""
        del state_only
        from . import _commit
        with self._lock:
            ptr = self._live()
            _commit(self._model)
            self._lib.cs_passive_sync(ptr, self._data._ptr)
            keys = []
            while True:
                k = self._lib.cs_passive_next_key(ptr)
                if k < 0:
                    break
                keys.append(k)
        if self._key_callback is not None:
            for k in keys:
                self._key_callback(k)

    def is_running(self):
        """True while the window is open (not closed by its user or close())."""
        return bool(self._ptr) and bool(self._lib.cs_passive_running(self._ptr))

    def lock(self):
        """A context manager holding off sync() (a reentrant lock)."""
        return self._lock

    @property
    def viewport_size(self):
        """(width, height) of the window's picture in pixels."""
        w, h = ctypes.c_int(), ctypes.c_int()
        self._lib.cs_passive_size(self._live(), ctypes.byref(w), ctypes.byref(h))
        return w.value, h.value

    def read_pixels(self):
        """The frame the last sync showed: (height, width, 3) uint8, top row first."""
        with self._lock:
            ptr = self._live()
            w, h = self.viewport_size
            out = np.empty((h, w, 3), dtype=np.uint8)
            err = ctypes.create_string_buffer(_ERRSZ)
            if self._lib.cs_passive_read_pixels(ptr, out.ctypes.data, w, h, err, _ERRSZ) != 0:
                raise RuntimeError("read_pixels: " + err.value.decode(errors="replace"))
            return out

    def close(self):
        """Closes the window now (otherwise when the handle is collected)."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            if getattr(self, "_ptr", None):
                self._same_thread()
            ptr, self._ptr = getattr(self, "_ptr", None), None
            if ptr:
                self._lib.cs_passive_close(ptr)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_thread", None) == threading.get_ident():
            self.close()  # collected in another thread: left open (GLFW's thread rule)


def launch_passive(model, data, *, key_callback=None, show_left_ui=True, show_right_ui=True):
    """Opens a window showing data, and returns at once with its Handle: the caller steps
    and calls sync() to show each new state (MuJoCo's mujoco.viewer.launch_passive).
    key_callback(keycode) is called from sync() for each key pressed (GLFW key codes, e.g.
    32 for Space). show_left_ui and show_right_ui are accepted for MuJoCo's signature: the
    HUD and the control panel are toggled in the window (H, Tab)."""
    del show_left_ui, show_right_ui
    return Handle(model, data, key_callback=key_callback)


def launch(model, data=None, *, key_callback=None):
    """Opens a window and steps data in real time until the window is closed (Esc or its
    close button), as MuJoCo's mujoco.viewer.launch; returns then. data: the state to start
    from (default a new Data reset to the model's first keyframe if it has one, as `conesim
    view` starts), stepped in place. A frame's stepping is capped at 1/30 s of wall time:
    a scene too slow for real time runs slower instead of falling behind."""
    from . import Data, reset_data_keyframe, step
    if data is None:
        data = Data(model)
        if model.nkey > 0:
            reset_data_keyframe(model, data, 0)
    h = model.opt.timestep
    with Handle(model, data, key_callback=key_callback) as v:
        owed, cost = 0.0, 1e-4
        last = time.perf_counter()
        while True:
            v.sync()
            if not v.is_running():
                break
            now = time.perf_counter()
            owed += min(now - last, 0.25)  # a stall is not caught up on
            last = now
            n = int(math.floor(owed / h + 1e-9))
            cap = max(1, int((1 / 30) / cost))
            if n > cap:
                n, owed = cap, 0.0
            else:
                owed -= n * h
            if n:
                t0 = time.perf_counter()
                step(model, data, n)
                cost = max(1e-7, (time.perf_counter() - t0) / n)
            else:
                time.sleep(min(h - owed, 1 / 120) if h > owed else 0)
    return data
