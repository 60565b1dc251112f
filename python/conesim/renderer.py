"""Pictures and videos without a window: Renderer (MuJoCo's mujoco.Renderer), render_video
and VideoWriter, over libconesim_render (ctypes; EGL with no X server, else a hidden GLFW
window on the current display).

    r = conesim.Renderer(m, height=240, width=320)
    r.update_scene(d)              # the scene of d's current state
    pixels = r.render()            # (240, 320, 3) uint8
    r.enable_depth_rendering()     # then (240, 320) float32 metres;
    r.enable_segmentation_rendering()  # or (240, 320, 2) int32 geom id, type

    conesim.render_video(m, "slide.mp4", duration=2.0, fps=30)
"""
import ctypes
import math
import os

import numpy as np

from . import _lib

_ERRSZ = 1024
_rlib = None


def _candidates():
    names = []
    if os.environ.get("CONESIM_RENDER_LIBRARY"):
        names.append(os.environ["CONESIM_RENDER_LIBRARY"])
    if _lib.LIBDIR:
        names.append(os.path.join(_lib.LIBDIR, "libconesim_render.so.0"))
    if os.environ.get("CONESIM_LIBRARY"):  # a build tree: vis/ next to libconesim.so
        base = os.path.dirname(os.path.abspath(os.environ["CONESIM_LIBRARY"]))
        names.append(os.path.join(base, "vis", "libconesim_render.so.0"))
        names.append(os.path.join(base, "libconesim_render.so.0"))
    names.append("libconesim_render.so.0")
    return names


def _decl(lib, name, res, *args):
    f = getattr(lib, name)
    f.restype = res
    f.argtypes = list(args)


def _load():
    """libconesim_render, loaded on first use (the simulator alone needs no OpenGL)."""
    global _rlib
    if _rlib is not None:
        return _rlib
    errors = []
    for n in _candidates():
        try:
            lib = ctypes.CDLL(n)
            break
        except OSError as e:
            errors.append(str(e))
    else:
        raise RuntimeError("conesim: cannot load libconesim_render (built with the viewer; set "
                           "CONESIM_RENDER_LIBRARY): " + "; ".join(errors))
    P, I, S, E = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t
    D6 = ctypes.POINTER(ctypes.c_double)
    _decl(lib, "cs_offscreen_new", P, P, I, I, S, E)
    _decl(lib, "cs_offscreen_free", None, P)
    _decl(lib, "cs_offscreen_backend", S, P)
    _decl(lib, "cs_offscreen_gl_name", S, P)
    _decl(lib, "cs_offscreen_camera_default", None, P, D6)
    _decl(lib, "cs_offscreen_camera_get", None, P, D6)
    _decl(lib, "cs_offscreen_set_camera", I, P, D6)
    _decl(lib, "cs_offscreen_set_model_camera", I, P, I)
    _decl(lib, "cs_offscreen_set_tracking", None, P, I)
    _decl(lib, "cs_offscreen_set_overlay", I, P, S, S, E)
    _decl(lib, "cs_offscreen_set_samples", None, P, I)
    _decl(lib, "cs_offscreen_update", None, P, P)
    _decl(lib, "cs_offscreen_render", I, P, P, S, E)
    _decl(lib, "cs_offscreen_render_depth", I, P, P, S, E)
    _decl(lib, "cs_offscreen_render_segmentation", I, P, P, S, E)
    _decl(lib, "cs_video_available", I)
    _decl(lib, "cs_video_open", P, S, I, I, I, S, E)
    _decl(lib, "cs_video_write", I, P, P, S, E)
    _decl(lib, "cs_video_close", I, P, S, E)
    _decl(lib, "cs_video_discard", None, P)
    _decl(lib, "cs_video_frames", ctypes.c_long, P)
    _rlib = lib
    return lib


class Camera:
    """The free camera (MuJoCo's mjvCamera of type free): azimuth and elevation in degrees
    (elevation < 0 looks down), distance in metres from lookat, the point looked at."""

    def __init__(self, azimuth=90.0, elevation=-45.0, distance=2.0, lookat=(0.0, 0.0, 0.0)):
        self.azimuth = float(azimuth)
        self.elevation = float(elevation)
        self.distance = float(distance)
        self.lookat = np.array(lookat, dtype=np.float64).reshape(3)

    def _array(self):
        return (ctypes.c_double * 6)(self.azimuth, self.elevation, self.distance, *self.lookat)

    @classmethod
    def _from(cls, a):
        return cls(a[0], a[1], a[2], (a[3], a[4], a[5]))

    def __repr__(self):
        return (f"Camera(azimuth={self.azimuth:g}, elevation={self.elevation:g}, "
                f"distance={self.distance:g}, lookat={tuple(float(x) for x in self.lookat)})")


def _camera_from(value):
    """A Camera from a Camera, a dict of its fields, or the --camera string AZ,EL,DIST[,X,Y,Z]."""
    if isinstance(value, Camera):
        return value
    if isinstance(value, dict):
        return Camera(**value)
    if isinstance(value, str):
        try:
            parts = [float(x) for x in value.split(",")]
        except ValueError:
            parts = []
        if len(parts) not in (3, 6):
            raise ValueError(f"camera: expected 'AZIMUTH,ELEVATION,DISTANCE[,X,Y,Z]', got {value!r}")
        return Camera(*parts[:3], parts[3:] if len(parts) == 6 else (0, 0, 0))
    raise TypeError(f"camera must be None, -1, a scene camera's name or id, a conesim.Camera, a "
                    f"dict or an 'AZ,EL,DIST[,X,Y,Z]' string, not {type(value).__name__}")


def _model_camera(model, value):
    """The id of a scene's <camera> given by name or id, or None when value is not one."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value != -1:
        if not 0 <= value < model.ncam:
            raise ValueError(f"camera {value}: the model has {model.ncam} camera(s) "
                             f"(ids 0 to {model.ncam - 1}; -1 is the free camera)")
        return int(value)
    if isinstance(value, str) and not _is_numbers(value):
        i = _lib.lib.cs_name2id(model._ptr, b"camera", value.encode())
        if i < 0:
            names = [_lib.lib.cs_id2name(model._ptr, b"camera", k) for k in range(model.ncam)]
            names = [n.decode() for n in names if n]
            raise ValueError(f"camera {value!r}: no camera of that name in the model"
                             + (f" (it has {', '.join(names)})" if names else " (it has none)"))
        return int(i)
    return None


def _is_numbers(text):
    try:
        [float(x) for x in text.split(",")]
        return True
    except ValueError:
        return False


class Renderer:
    """Off-screen pictures of a model, as MuJoCo's mujoco.Renderer:

        r = conesim.Renderer(m, height=240, width=320)
        r.update_scene(d)                     # default free camera
        img = r.render()                      # (height, width, 3) uint8, top row first

    overlay: what `conesim view --overlay` draws, a comma list of contacts, forces, cones,
    frames, joints, wireframe, hud, or None (none). samples: multisampling (4; 0 is about 3x
    faster on a software renderer). Uses EGL with no X server when it can (Mesa's
    surfaceless platform), else a hidden window on the current display; `backend` says
    which. Like a Data, a Renderer fixes the model (its options can no longer change)."""

    def __init__(self, model, height=240, width=320, overlay=None, samples=4):
        from . import Model, _check_type, _commit  # late: the package imports this module
        _check_type(model, Model, "model")
        _commit(model)
        for name, v in (("height", height), ("width", width)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"{name} must be an int >= 1, got {v!r}")
        lib = _load()
        err = ctypes.create_string_buffer(_ERRSZ)
        model._frozen = True
        ptr = lib.cs_offscreen_new(model._ptr, int(width), int(height), err, _ERRSZ)
        if not ptr:
            raise RuntimeError("conesim.Renderer: " + err.value.decode(errors="replace"))
        self._lib, self._ptr, self._model = lib, ptr, model
        self._width, self._height = int(width), int(height)
        self.overlay = overlay
        lib.cs_offscreen_set_samples(ptr, int(samples))

    @property
    def width(self):
        return self._width

    @property
    def height(self):
        return self._height

    @property
    def model(self):
        return self._model

    @property
    def backend(self):
        """'egl' or 'glfw': how the GL context was made."""
        return self._lib.cs_offscreen_backend(self._live()).decode()

    @property
    def gl_name(self):
        return self._lib.cs_offscreen_gl_name(self._live()).decode()

    @property
    def overlay(self):
        return self._overlay

    @overlay.setter
    def overlay(self, value):
        words = "none" if value is None else value
        if not isinstance(words, str):
            raise TypeError("overlay must be a comma list string or None")
        err = ctypes.create_string_buffer(_ERRSZ)
        if self._lib.cs_offscreen_set_overlay(self._live(), words.encode(), err, _ERRSZ) != 0:
            raise ValueError("overlay: " + err.value.decode(errors="replace"))
        self._overlay = value

    def default_camera(self):
        """MuJoCo's default free camera for the model: azimuth 90, elevation -45, distance
        1.5 x the extent of the visible geoms at qpos0, looking at their centre."""
        a = (ctypes.c_double * 6)()
        self._lib.cs_offscreen_camera_default(self._live(), a)
        return Camera._from(a)

    def update_scene(self, data, camera=None, overlay=None):
        """Takes the scene from data's current state (geoms, contacts, forces, joints).
        camera: None or -1 (the default free camera), a scene camera (MJCF <camera>) by name
        or id, posed as MuJoCo poses it in this state (fixed, track, trackcom, targetbody,
        targetbodycom), a conesim.Camera, a dict of its fields or 'AZ,EL,DIST[,X,Y,Z]'.
        overlay: as the constructor's, for this and later frames.
        Recomputes data's kinematics, contacts and forces (conesim.forward: the state is
        unchanged), as a step leaves those of the state before its integration."""
        from . import Data, _check_type, _commit
        _check_type(data, Data, "data")
        if data.model is not self._model:
            raise ValueError("data was made from another model than the renderer's")
        _commit(self._model)  # values written into the model's arrays: checked first
        self._set_camera(camera)
        if overlay is not None:
            self.overlay = overlay
        self._lib.cs_offscreen_update(self._live(), data._ptr)
        self._updated = True

    def _set_camera(self, camera, tracking=False):
        ptr = self._live()
        mc = _model_camera(self._model, camera)
        self._lib.cs_offscreen_set_model_camera(ptr, -1 if mc is None else mc)
        if mc is not None:
            return
        # -1: MuJoCo's number for the free camera
        free = camera is None or (isinstance(camera, (int, np.integer)) and camera == -1)
        cam = self.default_camera() if free else _camera_from(camera)
        if self._lib.cs_offscreen_set_camera(ptr, cam._array()) != 0:
            raise ValueError(f"camera: distance must be > 0 and every number finite ({cam!r})")

    def enable_depth_rendering(self):
        """render() returns depth from now on (segmentation rendering off)."""
        self._mode = "depth"

    def disable_depth_rendering(self):
        """render() returns colour again (unless segmentation is on)."""
        if getattr(self, "_mode", "rgb") == "depth":
            self._mode = "rgb"

    def enable_segmentation_rendering(self):
        """render() returns segmentation from now on (depth rendering off)."""
        self._mode = "segmentation"

    def disable_segmentation_rendering(self):
        """render() returns colour again (unless depth is on)."""
        if getattr(self, "_mode", "rgb") == "segmentation":
            self._mode = "rgb"

    def render(self, out=None):
        """The picture of the last update_scene, as a new array or written into out
        (C-contiguous, the shape and dtype below) and returned:
        colour (default): (height, width, 3) uint8;
        depth (enable_depth_rendering): (height, width) float32, metres along the camera's
        view axis to the nearest visible geom (the far clipping plane where there is none);
        segmentation (enable_segmentation_rendering): (height, width, 2) int32, the geom's
        id and its object type 5 (mjOBJ_GEOM), -1 -1 where no geom is."""
        ptr = self._live()
        if not getattr(self, "_updated", False):
            raise RuntimeError("render: call update_scene(data) first")
        mode = getattr(self, "_mode", "rgb")
        shape, dtype, fn = {
            "rgb": ((self._height, self._width, 3), np.uint8, self._lib.cs_offscreen_render),
            "depth": ((self._height, self._width), np.float32,
                      self._lib.cs_offscreen_render_depth),
            "segmentation": ((self._height, self._width, 2), np.int32,
                             self._lib.cs_offscreen_render_segmentation),
        }[mode]
        if out is None:
            out = np.empty(shape, dtype=dtype)
        elif (not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != dtype
              or not out.flags.c_contiguous or not out.flags.writeable):
            raise ValueError(f"out: expected a writable C-contiguous {np.dtype(dtype).name} "
                             f"array of shape {shape}")
        err = ctypes.create_string_buffer(_ERRSZ)
        if fn(ptr, out.ctypes.data, err, _ERRSZ) != 0:
            raise RuntimeError("render: " + err.value.decode(errors="replace"))
        return out

    def _live(self):
        if not getattr(self, "_ptr", None):
            raise RuntimeError("the renderer is closed (close() or the end of its with block "
                               "freed its GL context): make a new conesim.Renderer")
        return self._ptr

    def close(self):
        """Frees the GL context now (otherwise when the renderer is collected); the
        renderer's calls then raise RuntimeError."""
        ptr, self._ptr = getattr(self, "_ptr", None), None
        if ptr:
            self._lib.cs_offscreen_free(ptr)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


class VideoWriter:
    """An H.264 video file written frame by frame (libx264 through FFmpeg's libraries; MP4,
    or Matroska for a .mkv name). The frames go to a temporary file renamed to path by
    close(); a writer closed by an exception, or never closed, leaves nothing at path.

        with conesim.VideoWriter("out.mp4", width=320, height=240, fps=30) as v:
            v.write(pixels)                   # (240, 320, 3) uint8

    Odd widths or heights lose their last column or row (H.264's yuv420p)."""

    def __init__(self, path, width, height, fps=30):
        for name, v in (("width", width), ("height", height), ("fps", fps)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"{name} must be an int >= 1, got {v!r}")
        self._ptr, self._nframes = None, 0
        lib = _load()
        if not lib.cs_video_available():
            raise RuntimeError("conesim was built without video support (libavcodec-dev, "
                               "libavformat-dev, libswscale-dev)")
        err = ctypes.create_string_buffer(_ERRSZ)
        ptr = lib.cs_video_open(os.fsencode(path), int(width), int(height), int(fps), err, _ERRSZ)
        if not ptr:
            raise OSError(err.value.decode(errors="replace"))
        self._lib, self._ptr = lib, ptr
        self.path, self.width, self.height, self.fps = path, int(width), int(height), int(fps)

    @property
    def frames(self):
        """Frames written so far."""
        return self._lib.cs_video_frames(self._ptr) if self._ptr else self._nframes

    def write(self, frame):
        """One frame, (height, width, 3): uint8, or floats in [0, 1] (mediapy's and
        matplotlib's convention; clipped, scaled by 255 and rounded)."""
        a = np.asarray(frame)
        if a.shape != (self.height, self.width, 3):
            raise ValueError(f"frame: expected shape ({self.height}, {self.width}, 3), "
                             f"got {np.shape(frame)}")
        f = _frame_bytes(a)
        if not self._ptr:
            raise RuntimeError("the video is closed")
        err = ctypes.create_string_buffer(_ERRSZ)
        if self._lib.cs_video_write(self._ptr, f.ctypes.data, err, _ERRSZ) != 0:
            raise OSError(err.value.decode(errors="replace"))

    def close(self):
        """Finishes the file (renamed to path)."""
        ptr, self._ptr = self._ptr, None
        if ptr:
            self._nframes = self._lib.cs_video_frames(ptr)
            err = ctypes.create_string_buffer(_ERRSZ)
            if self._lib.cs_video_close(ptr, err, _ERRSZ) != 0:
                raise OSError(err.value.decode(errors="replace"))

    def discard(self):
        """Drops the video: nothing is left at path."""
        ptr, self._ptr = getattr(self, "_ptr", None), None
        if ptr:
            self._nframes = 0
            self._lib.cs_video_discard(ptr)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        if exc_type is None:
            self.close()
        else:
            self.discard()

    def __del__(self):
        self.discard()


def _frame_bytes(a):
    """A frame as C-contiguous uint8: floats in [0, 1] scaled by 255 (clipped, rounded)."""
    if np.issubdtype(a.dtype, np.floating):
        return np.ascontiguousarray(np.rint(np.clip(np.nan_to_num(a), 0.0, 1.0) * 255.0),
                                    dtype=np.uint8)
    if a.dtype == np.uint8:
        return np.ascontiguousarray(a)
    raise ValueError(f"frame: expected uint8 or floats in [0, 1], got {a.dtype}")


def frame_times(duration, fps):
    """The simulated times of a video's frames: k / fps for k = 0 .. round(duration fps) - 1
    (at least one frame)."""
    n = max(1, int(math.floor(duration * fps + 0.5)))
    return np.arange(n) / fps


def render_video(model, path, duration=None, fps=30, width=640, height=480, data=None,
                 states=None, camera=None, overlay="contacts,forces", control=None, samples=4):
    """Simulates and writes an H.264 video: a frame every 1/fps of simulated time, as
    `conesim view --video` makes it (the same start, overlays and camera by default).

        conesim.render_video(m, "out.mp4", duration=2.0, fps=30)

    duration: simulated seconds (default 5; with states, the whole recording).
    data: the state to start from (default a new conesim.Data(model) reset to the model's
    first keyframe if it has one, as `view` starts); it is stepped in place, and afterwards
    holds the state at the video's end, duration seconds on (its last frame shows
    duration - 1/fps: frames are 1/fps long). control(model, data): called
    before every step (set data.ctrl, data.xfrc_applied, ...). states: instead of
    simulating, frames from recorded states [time, qpos, qvel, act] (rows, time increasing,
    e.g. conesim.rollout's output for one batch): frame k shows the last state at or before
    the first state's time + k / fps, and duration defaults to the whole recording.
    camera: None follows the moving bodies (the free camera looking at their centre of mass,
    smoothed; `view --video`'s default), else as Renderer.update_scene's (a scene camera's name
    or id, a conesim.Camera, ...). overlay: default "contacts,forces" (`view`'s), None for
    none. samples: as Renderer's. Frame k shows the step nearest k / fps,
    round(k / (fps timestep)) steps from the start. Returns the number of frames."""
    from . import Data, _pair, forward, set_state, state_size, step
    if duration is not None and (isinstance(duration, bool) or not isinstance(
            duration, (int, float, np.integer, np.floating)) or not 0 <= duration < 1e7):
        raise ValueError(f"duration must be a number of seconds >= 0, got {duration!r}")
    if isinstance(fps, bool) or not isinstance(fps, (int, np.integer)) or not 1 <= fps <= 1000:
        raise ValueError(f"fps must be an int from 1 to 1000, got {fps!r}")
    if data is None:
        data = Data(model)
        if model.nkey > 0:
            from . import reset_data_keyframe
            reset_data_keyframe(model, data, 0)
    _pair(model, data)
    rec = None
    if states is not None:
        rec = np.asarray(states, dtype=np.float64)
        if rec.ndim != 2 or rec.shape[1] != state_size(model) or len(rec) == 0:
            raise ValueError(f"states: expected shape (n, {state_size(model)}), got {rec.shape}")
        if np.any(np.diff(rec[:, 0]) < 0):
            raise ValueError("states: times must not decrease")
    with Renderer(model, height, width, overlay=overlay, samples=samples) as r:
        if camera is None:
            r._set_camera(None)
            r._lib.cs_offscreen_set_tracking(r._live(), 1)
        else:
            r._set_camera(camera)
        if rec is not None:
            span = rec[-1, 0] - rec[0, 0] if duration is None else duration
            times = np.arange(int(math.floor(span * fps + 1e-9)) + 1) / fps
        else:
            times = frame_times(5.0 if duration is None else duration, fps)
        h = model.opt.timestep
        taken = 0
        frame = np.empty((height, width, 3), dtype=np.uint8)
        with VideoWriter(path, width, height, fps) as v:
            for t in times:
                if rec is not None:
                    t_abs = rec[0, 0] + t
                    i = int(np.searchsorted(rec[:, 0], t_abs + 1e-9 * max(1.0, abs(t_abs)),
                                            side="right")) - 1
                    set_state(model, data, rec[max(i, 0)])
                    forward(model, data)
                else:
                    target = int(math.floor(t / h + 0.5))
                    while taken < target:
                        if control is not None:
                            control(model, data)
                        step(model, data)
                        taken += 1
                r._lib.cs_offscreen_update(r._live(), data._ptr)
                r._updated = True
                v.write(r.render(out=frame))
            if rec is None:
                # the state at the video's end: its last frame lasts until duration
                end = int(math.floor(len(times) / fps / h + 0.5))
                while taken < end:
                    if control is not None:
                        control(model, data)
                    step(model, data)
                    taken += 1
        return len(times)
