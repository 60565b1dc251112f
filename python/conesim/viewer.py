"""A viewer window driven from Python, as MuJoCo's mujoco.viewer:

    import conesim.viewer
    with conesim.viewer.launch_passive(m, d) as v:
        while v.is_running():
            conesim.step(m, d)
            v.sync()                  # draws d's state, handles the window's input

    conesim.viewer.launch(m, d)       # steps d in real time until the window is closed

The window is `conesim view`'s (keys and mouse: camera, overlays, selection, the control
panel; Backspace resets d; Esc closes it). The handle's cam, opt, perturb and user_scn are
MuJoCo's mjvCamera, mjvOption, mjvPerturb and user scene where conesim has the concept
(ViewerCamera, ViewerOption, Perturb, UserScene; init_geom is mjv_initGeom), with MuJoCo's
numbering in the constants below (CAMERA_FIXED, VIS_CONTACTPOINT, ...). It needs a display
(X11; Xvfb will do) and libconesim_render built with the viewer."""
import ctypes
import math
import threading
import time

import numpy as np

from . import renderer as _renderer

_ERRSZ = 1024
_MAXGEOM = 10000  # user_scn's room, MuJoCo's viewer's


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
        CP, OP = ctypes.POINTER(_CCamera), ctypes.POINTER(_COption)
        _renderer._decl(lib, "cs_passive_get_camera", None, P, CP)
        _renderer._decl(lib, "cs_passive_set_camera", I, P, CP, S, E)
        _renderer._decl(lib, "cs_passive_get_option", None, P, OP)
        _renderer._decl(lib, "cs_passive_set_option", I, P, OP, S, E)
        _renderer._decl(lib, "cs_passive_get_perturb", None, P, ctypes.POINTER(_CPerturb))
        _renderer._decl(lib, "cs_passive_select", I, P, I, S, E)
        _renderer._decl(lib, "cs_passive_set_user_geoms", I, P, ctypes.POINTER(_CGeom), I, S, E)
        lib._passive_declared = True
    return lib


# conesim_render.h's structs
class _CCamera(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("fixedcamid", ctypes.c_int),
                ("trackbodyid", ctypes.c_int), ("lookat", ctypes.c_double * 3),
                ("distance", ctypes.c_double), ("azimuth", ctypes.c_double),
                ("elevation", ctypes.c_double)]


class _COption(ctypes.Structure):
    _fields_ = [("overlay", ctypes.c_uint), ("geomgroup", ctypes.c_ubyte * 6),
                ("textures", ctypes.c_int), ("transparent", ctypes.c_int)]


class _CPerturb(ctypes.Structure):
    _fields_ = [("select", ctypes.c_int), ("active", ctypes.c_int),
                ("localpos", ctypes.c_double * 3), ("refselpos", ctypes.c_double * 3),
                ("refpos", ctypes.c_double * 3)]


class _CGeom(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("size", ctypes.c_double * 3),
                ("pos", ctypes.c_double * 3), ("mat", ctypes.c_double * 9),
                ("rgba", ctypes.c_float * 4)]


# ---- MuJoCo's numbering (mjtCamera, mjtFrame, mjtLabel, mjtVisFlag, mjtRndFlag, mjtGeom,
# mjtPertBit), named as conesim names MuJoCo's constants (mjSTATE_QPOS: STATE_QPOS)
CAMERA_FREE, CAMERA_TRACKING, CAMERA_FIXED, CAMERA_USER = 0, 1, 2, 3
(FRAME_NONE, FRAME_BODY, FRAME_GEOM, FRAME_SITE, FRAME_CAMERA, FRAME_LIGHT, FRAME_CONTACT,
 FRAME_WORLD) = range(8)
_LABELS = ("NONE", "BODY", "JOINT", "GEOM", "SITE", "CAMERA", "LIGHT", "TENDON", "ACTUATOR",
           "CONSTRAINT", "FLEX", "SKIN", "SELECTION", "SELPNT", "CONTACTPOINT", "CONTACTFORCE",
           "ISLAND")
_VIS = ("CONVEXHULL", "TEXTURE", "JOINT", "CAMERA", "ACTUATOR", "ACTIVATION", "LIGHT",
        "TENDON", "RANGEFINDER", "CONSTRAINT", "INERTIA", "SCLINERTIA", "PERTFORCE", "PERTOBJ",
        "CONTACTPOINT", "ISLAND", "CONTACTFORCE", "CONTACTSPLIT", "TRANSPARENT", "AUTOCONNECT",
        "COM", "SELECT", "STATIC", "SKIN", "FLEXVERT", "FLEXEDGE", "FLEXFACE", "FLEXSKIN",
        "BODYBVH", "MESHBVH", "SDFITER")
_RND = ("SHADOW", "WIREFRAME", "REFLECTION", "ADDITIVE", "SKYBOX", "FOG", "HAZE", "DEPTH",
        "SEGMENT", "IDCOLOR", "CULL_FACE")
_FRAMES = ("NONE", "BODY", "GEOM", "SITE", "CAMERA", "LIGHT", "CONTACT", "WORLD")
(LABEL_NONE, LABEL_BODY, LABEL_JOINT, LABEL_GEOM, LABEL_SITE, LABEL_CAMERA, LABEL_LIGHT,
 LABEL_TENDON, LABEL_ACTUATOR, LABEL_CONSTRAINT, LABEL_FLEX, LABEL_SKIN, LABEL_SELECTION,
 LABEL_SELPNT, LABEL_CONTACTPOINT, LABEL_CONTACTFORCE, LABEL_ISLAND) = range(17)
(VIS_CONVEXHULL, VIS_TEXTURE, VIS_JOINT, VIS_CAMERA, VIS_ACTUATOR, VIS_ACTIVATION,
 VIS_LIGHT, VIS_TENDON, VIS_RANGEFINDER, VIS_CONSTRAINT, VIS_INERTIA, VIS_SCLINERTIA,
 VIS_PERTFORCE, VIS_PERTOBJ, VIS_CONTACTPOINT, VIS_ISLAND, VIS_CONTACTFORCE,
 VIS_CONTACTSPLIT, VIS_TRANSPARENT, VIS_AUTOCONNECT, VIS_COM, VIS_SELECT, VIS_STATIC,
 VIS_SKIN, VIS_FLEXVERT, VIS_FLEXEDGE, VIS_FLEXFACE, VIS_FLEXSKIN, VIS_BODYBVH,
 VIS_MESHBVH, VIS_SDFITER) = range(31)
(RND_SHADOW, RND_WIREFRAME, RND_REFLECTION, RND_ADDITIVE, RND_SKYBOX, RND_FOG, RND_HAZE,
 RND_DEPTH, RND_SEGMENT, RND_IDCOLOR, RND_CULL_FACE) = range(11)
NVISFLAG, NRNDFLAG, NGROUP = len(_VIS), len(_RND), 6
GEOM_PLANE, GEOM_HFIELD, GEOM_SPHERE, GEOM_CAPSULE, GEOM_ELLIPSOID = 0, 1, 2, 3, 4
GEOM_CYLINDER, GEOM_BOX, GEOM_MESH = 5, 6, 7
PERT_TRANSLATE, PERT_ROTATE = 1, 2
_USER_TYPES = {GEOM_PLANE: "plane", GEOM_SPHERE: "sphere", GEOM_CAPSULE: "capsule",
               GEOM_ELLIPSOID: "ellipsoid", GEOM_CYLINDER: "cylinder", GEOM_BOX: "box"}

# overlay bits (cs_passive_option) behind MuJoCo's visualisation flags
_OV_CONTACTS, _OV_FORCES, _OV_FRAMES, _OV_WIREFRAME, _OV_JOINTS = 1, 2, 8, 16, 64
_FLAG_BITS = {VIS_CONTACTPOINT: _OV_CONTACTS, VIS_CONTACTFORCE: _OV_FORCES,
              VIS_JOINT: _OV_JOINTS}
# flags conesim's viewer cannot change: what it always does (1: drawn), and why
_FIXED_FLAGS = {
    VIS_CONTACTSPLIT: (1, "conesim draws the normal and friction forces as separate arrows"),
    VIS_STATIC: (1, "conesim draws the static bodies always"),
}
_FIXED_RND = {RND_SHADOW: 1, RND_SKYBOX: 1}


def _int(value, what):
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return int(value)
    raise TypeError(f"{what} must be an int, not {type(value).__name__}")


def _vector(value, n, what):
    try:
        a = np.array(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be {n} numbers") from None
    if a.size != n:
        raise ValueError(f"{what}: expected {n} numbers, got {a.size}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{what}: every number must be finite, got {a.tolist()}")
    return a


class ViewerCamera:
    """The viewer's camera, MuJoCo's mjvCamera (handle.cam): type (CAMERA_FREE,
    CAMERA_TRACKING: the free camera looking at body trackbodyid, CAMERA_FIXED: the model's
    camera fixedcamid), lookat, distance, azimuth, elevation (degrees). Reads what the last
    sync left (the mouse moves it); writes are checked at once and taken at the next
    sync."""

    __slots__ = ("_h", "_type", "fixedcamid", "trackbodyid", "_lookat", "_distance",
                 "_azimuth", "_elevation")

    def __init__(self, handle, c):
        object.__setattr__(self, "_h", handle)
        self._load(c)

    def _load(self, c):
        set_ = object.__setattr__
        set_(self, "_type", c.type)
        set_(self, "fixedcamid", c.fixedcamid)
        set_(self, "trackbodyid", c.trackbodyid)
        set_(self, "_lookat", np.array(c.lookat[:], dtype=np.float64))
        set_(self, "_distance", c.distance)
        set_(self, "_azimuth", c.azimuth)
        set_(self, "_elevation", c.elevation)

    def _c(self):
        c = _CCamera()
        c.type, c.fixedcamid, c.trackbodyid = self._type, self.fixedcamid, self.trackbodyid
        c.lookat[:] = [float(x) for x in self._lookat]
        c.distance, c.azimuth, c.elevation = self._distance, self._azimuth, self._elevation
        return c

    def __setattr__(self, name, value):
        m = self._h.m
        if name == "type":
            t = _int(value, "cam.type")
            if t == CAMERA_USER:
                raise ValueError("cam.type = CAMERA_USER: conesim's viewer poses its camera "
                                 "itself (CAMERA_FREE, CAMERA_TRACKING or CAMERA_FIXED)")
            if t not in (CAMERA_FREE, CAMERA_TRACKING, CAMERA_FIXED):
                raise ValueError(f"cam.type = {t}: expected CAMERA_FREE (0), CAMERA_TRACKING "
                                 "(1) or CAMERA_FIXED (2)")
            object.__setattr__(self, "_type", t)
        elif name == "fixedcamid":
            i = _int(value, "cam.fixedcamid")
            if not -1 <= i < m.ncam:
                raise ValueError(f"cam.fixedcamid = {i}: the model has {m.ncam} camera"
                                 f"{'' if m.ncam == 1 else 's'} (ids 0 to {m.ncam - 1})")
            object.__setattr__(self, name, i)
        elif name == "trackbodyid":
            i = _int(value, "cam.trackbodyid")
            if not -1 <= i < m.nbody:
                raise ValueError(f"cam.trackbodyid = {i}: the model has {m.nbody} bodies "
                                 f"(ids 0 to {m.nbody - 1})")
            object.__setattr__(self, name, i)
        elif name == "lookat":
            object.__setattr__(self, "_lookat", _vector(value, 3, "cam.lookat"))
        elif name in ("distance", "azimuth", "elevation"):
            v = _vector(value, 1, f"cam.{name}")[0]
            if name == "distance" and not v > 0:
                raise ValueError(f"cam.distance = {v}: must be > 0")
            object.__setattr__(self, "_" + name, float(v))
        elif name == "orthographic":
            if _int(value, "cam.orthographic") != 0:
                raise ValueError("cam.orthographic = 1: conesim's viewer draws in perspective "
                                 "only")
        else:
            raise AttributeError(f"cam has no attribute {name!r} (type, fixedcamid, "
                                 "trackbodyid, lookat, distance, azimuth, elevation)")

    def _check(self):
        """The type's id must name something: checked at sync, as ids and type may be
        written in either order."""
        m = self._h.m
        if self._type == CAMERA_FIXED and not 0 <= self.fixedcamid < m.ncam:
            raise ValueError(f"cam.type = CAMERA_FIXED needs cam.fixedcamid in 0 .. "
                             f"{m.ncam - 1} (the model's cameras), got {self.fixedcamid}")
        if self._type == CAMERA_TRACKING and not 0 <= self.trackbodyid < m.nbody:
            raise ValueError(f"cam.type = CAMERA_TRACKING needs cam.trackbodyid in 0 .. "
                             f"{m.nbody - 1}, got {self.trackbodyid}")

    type = property(lambda self: self._type)
    lookat = property(lambda self: self._lookat)
    distance = property(lambda self: self._distance)
    azimuth = property(lambda self: self._azimuth)
    elevation = property(lambda self: self._elevation)
    orthographic = property(lambda self: 0)

    def __repr__(self):
        return (f"ViewerCamera(type={self._type}, fixedcamid={self.fixedcamid}, "
                f"trackbodyid={self.trackbodyid}, lookat={self._lookat.tolist()}, "
                f"distance={self._distance:g}, azimuth={self._azimuth:g}, "
                f"elevation={self._elevation:g})")


class _Flags:
    """A fixed-length list of 0/1 switches checked as they are written."""

    def __init__(self, name, values, check):
        self._name, self._v, self._check = name, list(values), check

    def __len__(self):
        return len(self._v)

    def __getitem__(self, i):
        return self._v[i]

    def __iter__(self):
        return iter(self._v)

    def __array__(self, dtype=None, copy=None):
        return np.array(self._v, dtype=dtype or np.uint8)

    def __setitem__(self, i, value):
        idx = range(len(self._v))[i]
        if isinstance(idx, range):
            vals = list(value) if np.ndim(value) else [value] * len(idx)
            if len(vals) != len(idx):
                raise ValueError(f"{self._name}[{i}]: expected {len(idx)} values")
            for k, v in zip(idx, vals):
                self[k] = v
            return
        v = _int(value, f"{self._name}[{idx}]")
        if not 0 <= v <= 255:
            raise ValueError(f"{self._name}[{idx}] = {v}: expected 0 or 1")
        v = int(v != 0)
        self._check(idx, v)
        self._v[idx] = v

    def __eq__(self, other):
        return list(self) == list(other)

    def __repr__(self):
        return f"{self._name}{self._v}"


def _no_change(name, fixed, reasons):
    """A check refusing any value but the one conesim's viewer always has."""
    def check(i, v):
        if v != fixed[i]:
            why = reasons.get(i, "conesim's viewer has no such drawing to switch")
            raise ValueError(f"{name(i)} = {v}: {why} (it stays {fixed[i]})")
    return check


class ViewerOption:
    """What the viewer draws, MuJoCo's mjvOption (handle.opt) where conesim has the concept:
    frame (FRAME_NONE or FRAME_CONTACT: contact frames), label (LABEL_NONE), geomgroup (6
    switches), sitegroup (kept; the viewer draws no sites), flags (NVISFLAG switches by
    VIS_*: VIS_CONTACTPOINT, VIS_CONTACTFORCE, VIS_JOINT, VIS_TEXTURE and VIS_TRANSPARENT
    change the picture; the others stay what conesim draws and refuse another value). Reads
    what the last sync left (keys toggle overlays); writes are checked at once and taken at
    the next sync."""

    def __init__(self, o):
        object.__setattr__(self, "_overlay", o.overlay)
        object.__setattr__(self, "_frame", FRAME_CONTACT if o.overlay & _OV_FRAMES else FRAME_NONE)
        object.__setattr__(self, "geomgroup", _Flags("opt.geomgroup", [1] * NGROUP,
                                                      lambda i, v: None))
        object.__setattr__(self, "sitegroup", _Flags("opt.sitegroup", [1, 1, 1, 0, 0, 0],
                                                      lambda i, v: None))
        fixed = [_FIXED_FLAGS.get(i, (0, None))[0] for i in range(NVISFLAG)]
        reasons = {i: r for i, (_, r) in _FIXED_FLAGS.items()}
        free = set(_FLAG_BITS) | {VIS_TEXTURE, VIS_TRANSPARENT}
        chk = _no_change(lambda i: f"opt.flags[VIS_{_VIS[i]}]", fixed, reasons)
        object.__setattr__(self, "flags", _Flags("opt.flags", fixed,
                                                  lambda i, v: None if i in free else chk(i, v)))
        self._load(o)

    def _load(self, o):
        object.__setattr__(self, "_overlay", o.overlay)
        object.__setattr__(self, "_frame", FRAME_CONTACT if o.overlay & _OV_FRAMES else FRAME_NONE)
        self.geomgroup._v[:] = list(o.geomgroup)
        f = self.flags._v
        for i, bit in _FLAG_BITS.items():
            f[i] = int(bool(o.overlay & bit))
        f[VIS_TEXTURE] = int(bool(o.textures))
        f[VIS_TRANSPARENT] = int(bool(o.transparent))

    def _c(self, overlay):
        """The C option, keeping the overlay bits mjvOption does not hold (cones, HUD,
        control panel, wireframe: user_scn.flags) from `overlay`."""
        o = _COption()
        ov = overlay & ~(_OV_CONTACTS | _OV_FORCES | _OV_JOINTS | _OV_FRAMES)
        for i, bit in _FLAG_BITS.items():
            if self.flags[i]:
                ov |= bit
        if self._frame == FRAME_CONTACT:
            ov |= _OV_FRAMES
        o.overlay = ov
        o.geomgroup[:] = list(self.geomgroup)
        o.textures, o.transparent = self.flags[VIS_TEXTURE], self.flags[VIS_TRANSPARENT]
        return o

    frame = property(lambda self: self._frame)
    label = property(lambda self: LABEL_NONE)

    def __setattr__(self, name, value):
        if name == "frame":
            f = _int(value, "opt.frame")
            if not 0 <= f < len(_FRAMES):
                raise ValueError(f"opt.frame = {f}: expected a FRAME_* value, 0 to "
                                 f"{len(_FRAMES) - 1}")
            if f not in (FRAME_NONE, FRAME_CONTACT):
                raise ValueError(f"opt.frame = FRAME_{_FRAMES[f]}: conesim's viewer draws "
                                 "contact frames only (FRAME_CONTACT) or none (FRAME_NONE)")
            object.__setattr__(self, "_frame", f)
        elif name == "label":
            lb = _int(value, "opt.label")
            if lb != LABEL_NONE:
                what = f"LABEL_{_LABELS[lb]}" if 0 <= lb < len(_LABELS) else str(lb)
                raise ValueError(f"opt.label = {what}: conesim's viewer draws no labels "
                                 "(LABEL_NONE only)")
        elif name in ("geomgroup", "sitegroup", "flags"):
            arr = getattr(self, name)
            arr[:] = value
        else:
            raise AttributeError(f"opt has no attribute {name!r} here (frame, label, "
                                 "geomgroup, sitegroup, flags): conesim's viewer draws no "
                                 "tendons, actuators, flexes or skins to group")

    def __repr__(self):
        on = [f"VIS_{_VIS[i]}" for i in range(NVISFLAG) if self.flags[i]]
        return (f"ViewerOption(frame=FRAME_{_FRAMES[self._frame]}, "
                f"geomgroup={list(self.geomgroup)}, flags on: {', '.join(on)})")


class Perturb:
    """The selection and the mouse's pull, MuJoCo's mjvPerturb (handle.perturb, also
    handle.pert): select (the selected body, 0: none; writable: taken at the next sync),
    and as the last sync saw them: active (PERT_TRANSLATE while a Ctrl+drag pulls the body,
    else 0), localpos (the grabbed point in the body's frame), refselpos (where the drag
    pulls that point) and refpos (where it pulls the body's origin)."""

    def __init__(self, handle, p):
        object.__setattr__(self, "_h", handle)
        object.__setattr__(self, "_want", None)
        self._load(p)

    def _load(self, p):
        object.__setattr__(self, "_select", p.select)
        object.__setattr__(self, "_active", PERT_TRANSLATE if p.active else 0)
        for n in ("localpos", "refselpos", "refpos"):
            a = np.array(getattr(p, n)[:], dtype=np.float64)
            a.flags.writeable = False
            object.__setattr__(self, "_" + n, a)

    select = property(lambda self: self._select if self._want is None else self._want)
    active = property(lambda self: self._active)
    localpos = property(lambda self: self._localpos)
    refselpos = property(lambda self: self._refselpos)
    refpos = property(lambda self: self._refpos)

    def __setattr__(self, name, value):
        if name == "select":
            b = _int(value, "perturb.select")
            n = self._h.m.nbody
            if b >= n:
                raise ValueError(f"perturb.select = {b}: the model has {n} bodies (ids 0 to "
                                 f"{n - 1}; 0 or less: none)")
            object.__setattr__(self, "_want", max(b, 0))
        elif name in ("active", "refpos", "refselpos", "localpos"):
            raise ValueError(f"perturb.{name} is read only: conesim's viewer pulls a body "
                             "with the mouse (Ctrl+drag), not from a script")
        else:
            raise AttributeError(f"perturb has no attribute {name!r} (select, active, "
                                 "localpos, refselpos, refpos)")

    def __repr__(self):
        return (f"Perturb(select={self.select}, active={self._active}, "
                f"refselpos={self._refselpos.tolist()})")


class UserGeom:
    """One shape of user_scn, MuJoCo's mjvGeom: type (GEOM_PLANE, GEOM_SPHERE,
    GEOM_CAPSULE, GEOM_ELLIPSOID, GEOM_CYLINDER, GEOM_BOX), size (mjvGeom's scaling:
    a sphere's radius three times, a capsule's or cylinder's radius twice then its
    half-length; init_geom sets it from the geom sizes), pos, mat (9, row-major) and rgba,
    arrays written in place or whole; checked at the next sync."""

    __slots__ = ("type", "size", "pos", "mat", "rgba")

    def __init__(self):
        object.__setattr__(self, "type", GEOM_SPHERE)
        object.__setattr__(self, "size", np.full(3, 0.1))
        object.__setattr__(self, "pos", np.zeros(3))
        object.__setattr__(self, "mat", np.eye(3).reshape(-1))
        object.__setattr__(self, "rgba", np.array([0.5, 0.5, 0.5, 1], dtype=np.float32))

    def __setattr__(self, name, value):
        if name == "type":
            object.__setattr__(self, name, _int(value, "geom.type"))
        elif name in ("size", "pos", "mat", "rgba"):
            getattr(self, name)[:] = _vector(value, len(getattr(self, name)), "geom." + name)
        else:
            raise AttributeError(f"a user geom has no attribute {name!r} (type, size, pos, "
                                 "mat, rgba)")

    def _c(self, where):
        g = _CGeom()
        t = self.type
        if t not in _USER_TYPES:
            raise ValueError(f"{where}.type = {t}: conesim's viewer draws "
                             + ", ".join(f"GEOM_{n.upper()}" for n in _USER_TYPES.values()))
        for name in ("size", "pos", "mat", "rgba"):
            a = getattr(self, name)
            if not np.all(np.isfinite(a)):
                raise ValueError(f"{where}.{name}: every number must be finite")
        if np.any(self.size < 0):
            raise ValueError(f"{where}.size = {self.size.tolist()}: sizes must be >= 0")
        if np.any(self.rgba < 0) or np.any(self.rgba > 1):
            raise ValueError(f"{where}.rgba = {self.rgba.tolist()}: each must be in [0, 1]")
        s = self.size
        # mjvGeom's scaling back to the geom sizes the renderer takes
        size = {GEOM_SPHERE: (s[0], 0, 0), GEOM_CAPSULE: (s[0], s[2], 0),
                GEOM_CYLINDER: (s[0], s[2], 0)}.get(t, tuple(s))
        g.type = t
        g.size[:] = [float(x) for x in size]
        g.pos[:] = [float(x) for x in self.pos]
        g.mat[:] = [float(x) for x in self.mat]
        g.rgba[:] = [float(x) for x in self.rgba]
        return g

    def __repr__(self):
        return (f"UserGeom(type={self.type}, size={self.size.tolist()}, "
                f"pos={self.pos.tolist()}, rgba={self.rgba.tolist()})")


class _Geoms:
    """user_scn.geoms: maxgeom UserGeoms, made on first use."""

    def __init__(self, n):
        self._n, self._g = n, {}

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        i = range(self._n)[i]
        if i not in self._g:
            self._g[i] = UserGeom()
        return self._g[i]


class UserScene:
    """Shapes a script adds to the viewer's picture, MuJoCo's user_scn (an mjvScene): the
    first ngeom of geoms (maxgeom of them), filled with init_geom or by writing their
    fields, are drawn among the model's geoms from the next sync on; flags (NRNDFLAG
    switches by RND_*): RND_WIREFRAME changes the picture (W in the window too, and sync
    copies the window's choice back), the others stay what conesim draws."""

    def __init__(self, maxgeom):
        object.__setattr__(self, "maxgeom", maxgeom)
        object.__setattr__(self, "geoms", _Geoms(maxgeom))
        object.__setattr__(self, "_ngeom", 0)
        fixed = [_FIXED_RND.get(i, 0) for i in range(NRNDFLAG)]
        chk = _no_change(lambda i: f"user_scn.flags[RND_{_RND[i]}]", fixed, {})
        object.__setattr__(self, "flags", _Flags(
            "user_scn.flags", fixed, lambda i, v: None if i == RND_WIREFRAME else chk(i, v)))

    ngeom = property(lambda self: self._ngeom)

    def __setattr__(self, name, value):
        if name == "ngeom":
            n = _int(value, "user_scn.ngeom")
            if not 0 <= n <= self.maxgeom:
                raise ValueError(f"user_scn.ngeom = {n}: expected 0 to maxgeom "
                                 f"({self.maxgeom})")
            object.__setattr__(self, "_ngeom", n)
        elif name == "flags":
            self.flags[:] = value
        else:
            raise AttributeError(f"user_scn has no writable attribute {name!r} (ngeom, "
                                 "geoms[i], flags)")

    def _c(self):
        n = self._ngeom
        arr = (_CGeom * max(n, 1))()
        for i in range(n):
            arr[i] = self.geoms[i]._c(f"user_scn.geoms[{i}]")
        return arr, n


def init_geom(geom, type, size=None, pos=None, mat=None, rgba=None):
    """Sets a user_scn geom as MuJoCo's mjv_initGeom does: type (GEOM_SPHERE, ...), size
    in the geom's own meanings (a sphere's radius, a capsule's or cylinder's radius and
    half-length, a box's half-sizes, an ellipsoid's semi-axes), world pos, mat (3x3 or 9,
    row-major) and rgba; None gives MuJoCo's defaults (size 0.1, the origin, identity,
    0.5 0.5 0.5 1). Raises ValueError for a type the viewer does not draw or a bad value."""
    if not isinstance(geom, UserGeom):
        raise TypeError(f"geom must be one of handle.user_scn.geoms, not "
                        f"{geom.__class__.__name__}")
    t = _int(type, "type")
    if t not in _USER_TYPES:
        raise ValueError(f"type = {t}: conesim's viewer draws "
                         + ", ".join(f"GEOM_{n.upper()} ({k})" for k, n in _USER_TYPES.items()))
    s = np.full(3, 0.1) if size is None else _vector(size, 3, "size")
    if np.any(s < 0):
        raise ValueError(f"size = {s.tolist()}: sizes must be >= 0")
    p = np.zeros(3) if pos is None else _vector(pos, 3, "pos")
    r = np.eye(3).reshape(-1) if mat is None else _vector(mat, 9, "mat")
    c = np.array([0.5, 0.5, 0.5, 1]) if rgba is None else _vector(rgba, 4, "rgba")
    if np.any(c < 0) or np.any(c > 1):
        raise ValueError(f"rgba = {c.tolist()}: each must be in [0, 1]")
    if size is not None and t == GEOM_SPHERE:
        s = np.array([s[0], s[0], s[0]])
    elif size is not None and t in (GEOM_CAPSULE, GEOM_CYLINDER):
        s = np.array([s[0], s[0], s[1]])
    geom.type = t
    geom.size[:] = s
    geom.pos[:] = p
    geom.mat[:] = r
    geom.rgba[:] = c


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
        c, o, p = _CCamera(), _COption(), _CPerturb()
        lib.cs_passive_get_camera(ptr, ctypes.byref(c))
        lib.cs_passive_get_option(ptr, ctypes.byref(o))
        lib.cs_passive_get_perturb(ptr, ctypes.byref(p))
        self._cam = ViewerCamera(self, c)
        self._opt = ViewerOption(o)
        self._pert = Perturb(self, p)
        self._user_scn = UserScene(_MAXGEOM)
        self._overlay = o.overlay

    @property
    def m(self):
        return self._model

    @property
    def d(self):
        return self._data

    @property
    def cam(self):
        """The camera (ViewerCamera, MuJoCo's mjvCamera)."""
        return self._cam

    @property
    def opt(self):
        """What is drawn (ViewerOption, MuJoCo's mjvOption)."""
        return self._opt

    @property
    def perturb(self):
        """The selection and the mouse's pull (Perturb, MuJoCo's mjvPerturb)."""
        return self._pert

    pert = perturb

    @property
    def user_scn(self):
        """Shapes the script adds to the picture (UserScene, MuJoCo's user_scn)."""
        return self._user_scn

    def _push(self, ptr):
        """The script's camera, options, selection and shapes into the window."""
        lib, err = self._lib, ctypes.create_string_buffer(_ERRSZ)
        self._cam._check()
        geoms, n = self._user_scn._c()
        o = self._opt._c(self._overlay)
        if self._user_scn.flags[RND_WIREFRAME]:
            o.overlay |= _OV_WIREFRAME
        else:
            o.overlay &= ~_OV_WIREFRAME
        for ok in (lambda: lib.cs_passive_set_camera(ptr, ctypes.byref(self._cam._c()), err,
                                                     _ERRSZ),
                   lambda: lib.cs_passive_set_option(ptr, ctypes.byref(o), err, _ERRSZ),
                   lambda: lib.cs_passive_set_user_geoms(ptr, geoms, n, err, _ERRSZ)):
            if ok() != 0:
                raise ValueError(err.value.decode(errors="replace"))
        if self._pert._want is not None:
            if lib.cs_passive_select(ptr, self._pert._want, err, _ERRSZ) != 0:
                raise ValueError(err.value.decode(errors="replace"))
            object.__setattr__(self._pert, "_want", None)

    def _pull(self, ptr):
        """What the window's input and drawing left, back into the script's objects."""
        c, o, p = _CCamera(), _COption(), _CPerturb()
        self._lib.cs_passive_get_camera(ptr, ctypes.byref(c))
        self._lib.cs_passive_get_option(ptr, ctypes.byref(o))
        self._lib.cs_passive_get_perturb(ptr, ctypes.byref(p))
        self._cam._load(c)
        self._opt._load(o)
        self._pert._load(p)
        self._overlay = o.overlay
        self._user_scn.flags._v[RND_WIREFRAME] = int(bool(o.overlay & _OV_WIREFRAME))

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
            self._push(ptr)
            self._lib.cs_passive_sync(ptr, self._data._ptr)
            self._pull(ptr)
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
