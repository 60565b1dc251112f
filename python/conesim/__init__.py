"""conesim from Python, with the names of MuJoCo's bindings.

    m = conesim.Model.from_xml_path("scenes/sphere_plane.xml")
    d = conesim.Data(m)
    conesim.step(m, d, 500)
    conesim.contact_force(m, d, 0)[0]   # the normal force, 19.62 N

Arrays are numpy views of the C memory. Every view keeps its Model or Data alive, so C
memory is freed only when nothing in Python can reach it.
"""
# internal names start with _ (conesim.np, conesim.os are not the package's)
import builtins as _builtins  # the module defines set() and get() (cs_set), as MuJoCo's
import ctypes as _ctypes
import os as _os

import numpy as _np

from . import _lib
from ._lib import lib as _clib

__all__ = ["Model", "Data", "step", "forward", "reset_data", "reset_data_keyframe",
           "contact_force", "energy", "cone_capacity", "version", "__version__",
           "rollout", "get_state", "set_state", "state_size", "set", "get", "Recorder",
           "Metrics", "sweep",
           "WARN_CONTACTFULL", "WARN_BADQACC", "WARN_NOMEM", "WARN_BADCTRL", "Warnings",
           "STATE_TIME", "STATE_QPOS", "STATE_QVEL", "STATE_ACT", "STATE_HISTORY",
           "STATE_WARMSTART",
           "STATE_CTRL", "STATE_QFRC_APPLIED", "STATE_XFRC_APPLIED", "STATE_EQ_ACTIVE",
           "STATE_MOCAP_POS", "STATE_MOCAP_QUAT", "STATE_PHYSICS", "STATE_FULLPHYSICS",
           "STATE_USER", "STATE_INTEGRATION", "Option", "Keyword", "Contact",
           "ModelView", "DataView", "FixedArray",
           "Renderer", "Camera", "VideoWriter", "render_video",
           "jac", "jac_body", "jac_body_com", "jac_site", "inverse", "transition_fd",
           "differentiate_pos", "read_ctrl", "read_sensor", "init_ctrl_history",
           "init_sensor_history"]

# indices into d.warning (counts since the last reset): contacts dropped because the
# contact array was full, steps whose mass matrix was not positive definite, steps that
# ran short of memory, steps whose controls were not all finite
WARN_CONTACTFULL, WARN_BADQACC, WARN_NOMEM, WARN_BADCTRL = 0, 1, 2, 3
_WARN_NAMES = ("contactfull", "badqacc", "nomem", "badctrl")


class Warnings(_np.ndarray):
    """d.warning: the warning counts since the last reset, a view of the C array indexed by
    WARN_* (d.warning[conesim.WARN_BADQACC]) or read by name: d.warning.contactfull
    (contacts dropped because the contact array was full), .badqacc (steps whose mass
    matrix was not positive definite, e.g. every step after the state went NaN), .nomem
    (steps that ran short of memory), .badctrl (steps whose controls were not all finite),
    also d.warning["badqacc"]."""

    def __getattr__(self, name):
        if name in _WARN_NAMES and self.shape == (len(_WARN_NAMES),):
            return int(self[_WARN_NAMES.index(name)])
        raise AttributeError(f"d.warning has no count {name!r}; counts: "
                             f"{', '.join(_WARN_NAMES)}")

    def _index(self, key):
        if isinstance(key, str):
            if key not in _WARN_NAMES:
                raise KeyError(f"no warning {key!r}; warnings: {', '.join(_WARN_NAMES)}")
            return _WARN_NAMES.index(key)
        return key

    def __getitem__(self, key):
        return super().__getitem__(self._index(key))

    def __setitem__(self, key, value):
        super().__setitem__(self._index(key), value)

    def __dir__(self):
        return sorted(_builtins.set(super().__dir__()) | _builtins.set(_WARN_NAMES))

    def __array_wrap__(self, out, context=None, return_scalar=False):
        # arithmetic and reductions (d.warning + 1, d.warning.sum()) give plain numbers
        out = out.view(_np.ndarray)
        return out[()] if return_scalar or out.ndim == 0 else out

    def __repr__(self):
        if self.shape != (len(_WARN_NAMES),):
            return repr(_np.asarray(self))
        return "Warnings(" + ", ".join(f"{n}={int(v)}" for n, v in
                                       zip(_WARN_NAMES, _np.asarray(self))) + ")"

    __str__ = __repr__

__version__ = _clib.cs_version().decode()

from . import cone  # noqa: E402  the cone calculator: conesim.cone.check, .slide, ...

_CTYPE = {0: _np.intc, 1: _np.float64}
_CONTACT_FIELDS = None  # name -> index, filled at import below
_ERRSZ = 1024


def version():
    return _clib.cs_version().decode()


class _Holder:
    """Exposes C memory to numpy and keeps its owner alive for as long as the array lives."""

    def __init__(self, owner, ptr, shape, strides, dtype, readonly):
        self._owner = owner
        self.__array_interface__ = {
            "shape": shape, "typestr": _np.dtype(dtype).str, "strides": strides,
            "data": (ptr, readonly), "version": 3}


def _view(owner, f, readonly=False):
    dtype = _CTYPE[f.type]
    item = _np.dtype(dtype).itemsize
    if f.ndim == 1:
        shape, strides = (f.shape[0],), None
    else:
        rows, cols = f.shape[0], f.shape[1]
        rowstride = f.stride or cols * item
        if cols == 1:
            shape, strides = (rows,), (rowstride,)
        else:
            shape, strides = (rows, cols), (rowstride, item)
    if not f.ptr or 0 in shape:  # nothing to point at (writing nothing into it is fine)
        out = _np.empty(shape, dtype)
        out.flags.writeable = not readonly
        return out
    return _np.asarray(_Holder(owner, f.ptr, shape, strides, dtype, readonly))


def _settable():
    out, k = [], 0
    while (n := _clib.cs_settable_field(k)) is not None:
        out.append(n.decode())
        k += 1
    return tuple(out)


# the model arrays written in place (m.geom_friction[:, 0] = 0.2), taken at the next step
_SETTABLE = _settable()


class FixedArray(_np.ndarray):
    """A model array that cannot be written (the tree's structure, or what is computed from
    the settable ones): writing it raises ValueError naming the arrays that can be."""

    def __array_finalize__(self, obj):
        self._field = getattr(obj, "_field", "")

    def __setitem__(self, key, value):
        if self.flags.writeable:  # a copy of one is the user's
            super().__setitem__(key, value)
            return
        raise ValueError(f"m.{self._field} is read only (structure, or computed from the "
                         f"parameters; a structural change needs the scene compiled again: "
                         f"Model.from_xml_path(path, edits)). The model arrays that can be "
                         f"written in place: {', '.join(_SETTABLE)}")

    def __array_wrap__(self, out, context=None, return_scalar=False):
        # arithmetic and reductions give plain arrays and numbers
        out = out.view(_np.ndarray)
        return out[()] if return_scalar or out.ndim == 0 else out

    def copy(self, order="C"):
        return self.view(_np.ndarray).copy(order)

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __repr__(self):
        return repr(self.view(_np.ndarray))

    def __str__(self):
        return str(self.view(_np.ndarray))

    def __reduce__(self):
        return self.view(_np.ndarray).__reduce__()


_commit_c = _clib.cs_watch_commit


def _commit(m):
    """Takes what was written into the model's settable arrays since the last step
    (cs_watch_commit: the setter's checks and what follows from a change)."""
    w = m.__dict__.get("_watch")
    if w:
        err = m.__dict__["_watch_err"]
        if _commit_c(m._ptr, w, err, _ERRSZ) < 0:
            raise ValueError(f"{err.value.decode(errors='replace')}: the value written into "
                             f"the model is refused and set back to the one before")


def _scalar(f):
    ct = _ctypes.c_int if f.type == 0 else _ctypes.c_double
    return ct.from_address(f.ptr)


def _fields(getter):
    """name -> index of every field the getter describes."""
    out, f, k = {}, _lib.Field(), 0
    while getter(k, _ctypes.byref(f)) == 0:
        out[f.name.decode()] = k
        k += 1
    return out


def _check_type(x, cls, what):
    if not isinstance(x, cls):
        raise TypeError(f"{what} must be a conesim.{cls.__name__}, not {type(x).__name__}")


def _assign(view, value, name):
    arr = _np.asarray(value)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name}: expected numbers, got {arr.dtype}")
    if arr.shape != view.shape and arr.ndim != 0:  # a plain number fills the field
        raise ValueError(f"{name}: expected shape {view.shape} or a number, got {arr.shape}")
    if view.size:  # an empty field has nothing behind it
        view[...] = arr


# ---- named views (MuJoCo's m.body('box').mass, d.joint('hinge').qpos) ----------------
# kind -> (prefix of its model fields, the data fields with one row per element and the name
# they have in the view, cs_id2name's word)
_KINDS = {
    "body": ("body_", {"xpos": "xpos", "xquat": "xquat", "xmat": "xmat", "xipos": "xipos",
                       "ximat": "ximat", "xfrc_applied": "xfrc_applied", "cvel": "cvel"}),
    "joint": ("jnt_", {"xanchor": "xanchor", "xaxis": "xaxis"}),
    "geom": ("geom_", {"geom_xpos": "xpos", "geom_xmat": "xmat"}),
    "actuator": ("actuator_", {"actuator_length": "length",
                               "actuator_velocity": "velocity", "actuator_force": "force",
                               "actuator_moment": "moment"}),
    "site": ("site_", {"site_xpos": "xpos", "site_xmat": "xmat"}),
    "tendon": ("tendon_", {"ten_length": "length", "ten_velocity": "velocity", "ten_J": "J"}),
    "equality": ("eq_", {"eq_active": "active"}),
    "key": ("key_", {}),
    "sensor": ("sensor_", {}),
}
# a joint's slices of the nq and nv arrays, by type (free, ball, slide, hinge)
_JNT_NQ = (7, 4, 1, 1)
_JNT_NV = (6, 3, 1, 1)
_JNT_QPOS = ("qpos",)
_JNT_QVEL = ("qvel", "qacc", "qacc_smooth", "qacc_warmstart", "qfrc_applied", "qfrc_bias",
             "qfrc_gravity", "qfrc_passive", "qfrc_smooth", "qfrc_constraint", "qfrc_actuator")
_COUNT = {"body": "nbody", "joint": "njnt", "geom": "ngeom", "actuator": "nactuator", "site": "nsite",
          "tendon": "ntendon", "equality": "neq", "key": "nkey", "sensor": "nsensor"}
_PLURAL = {"body": "bodies", "joint": "joints", "geom": "geoms", "actuator": "actuators",
           "site": "sites", "tendon": "tendons", "equality": "equality constraints",
           "key": "keyframes", "sensor": "sensors"}


def _names(model, kind):
    out = []
    for i in range(getattr(model, _COUNT[kind])):
        n = _clib.cs_id2name(model._ptr, kind.encode(), i)
        out.append(n.decode() if n is not None else "")
    return tuple(out)


def _resolve(model, kind, key):
    """(id, name) of a model element given by name or index ('' when it has no name)."""
    n = getattr(model, _COUNT[kind])
    none = f" (the model has no {_PLURAL[kind]})" if n == 0 else ""
    if isinstance(key, str):
        i = _clib.cs_name2id(model._ptr, kind.encode(), key.encode())
        if i < 0:
            raise KeyError(f"no {kind} named {key!r}{none}")
        return i, key
    if isinstance(key, (int, _np.integer)) and not isinstance(key, bool):
        if n == 0:
            raise IndexError(f"no {kind} {key}: the model has no {_PLURAL[kind]}")
        if not 0 <= key < n:
            raise IndexError(f"{kind} index {key} out of range 0..{n - 1}")
        return int(key), model._names(kind)[int(key)]
    raise TypeError(f"{kind} key must be a name or an index, not {type(key).__name__}")


class _View:
    """One element's rows of the model's or the data's arrays, by field name."""

    def __init__(self, owner, kind, id, name, fields):
        self.__dict__.update(_owner=owner, _kind=kind, id=id, name=name, _vf=fields)

    def __getattr__(self, attr):
        get = self.__dict__["_vf"].get(attr)
        if get is None:
            raise AttributeError(f"{self._kind} view has no field {attr!r}; "
                                 f"fields: {', '.join(sorted(self._vf))}")
        return get()

    def __dir__(self):
        return sorted(_builtins.set(self._vf) | {"id", "name"})

    def __repr__(self):
        return f"<{type(self).__name__} {self._kind} {self.id} {self.name!r}>"


class ModelView(_View):
    """m.body(key), m.geom(key), m.joint(key), m.actuator(key), ...: an element's parameters.
    Fields are the model's arrays without their prefix (m.body('box').mass is
    m.body_mass[id:id+1], m.joint('hinge').range is m.jnt_range[id]); dir() lists them.
    The settable ones (conesim.Model.settable) are views that can be written, as the arrays
    themselves: m.geom('floor').friction[0] = 0.5, m.body('box').mass = 2; the model takes
    them at the next step."""

    def __setattr__(self, attr, value):
        full = _KINDS[self._kind][0] + attr
        get = self.__dict__["_vf"].get(attr)
        if get is None or full not in _SETTABLE:
            mine = [f[len(_KINDS[self._kind][0]):] for f in _SETTABLE
                    if f.startswith(_KINDS[self._kind][0])]
            raise AttributeError(f"{self._kind}.{attr} cannot be set; a {self._kind}'s "
                                 f"settable fields: {', '.join(mine) or 'none'}")
        _assign(get(), value, f"{self._kind}.{attr}")


class DataView(_View):
    """d.body(key), d.geom(key), d.joint(key), d.actuator(key): an element's rows of the data,
    as views into the C arrays (writing to them writes the data). d.joint('hinge').qpos is
    the joint's slice of qpos (7 for a free joint, 4 ball, 1 slide or hinge), .qvel its
    slice of qvel; d.body('box').xpos the body's position. Geom poses are read only."""

    def __setattr__(self, attr, value):
        get = self.__dict__["_vf"].get(attr)
        if get is None or attr in ("id", "name"):
            raise AttributeError(f"{self._kind} view has no writable field {attr!r}")
        _assign(get(), value, f"{self._kind}.{attr}")


def _row(arr, i, cols1):
    # MuJoCo's views give a (1,) array for a one-column field, a row otherwise
    return arr[i:i + 1] if cols1 else arr[i]


# an actuator's fields with a row per control (nu): its block of ctrlnum rows from ctrladr
_PER_CTRL = ("actuator_ctrlrange", "actuator_ctrllimited")


def _ctrl_block(model, i):
    adr = int(model.actuator_ctrladr[i])
    return adr, adr + int(model.actuator_ctrlnum[i])


def _model_view(model, kind, key):
    i, name = _resolve(model, kind, key)
    prefix = _KINDS[kind][0]
    fields = {}
    for full in model._fields:
        if full.startswith(prefix):
            fields[full[len(prefix):]] = (lambda full=full: _row(getattr(model, full), i,
                                                                getattr(model, full).ndim == 1))
    if kind == "actuator":
        a, b = _ctrl_block(model, i)
        for full in _PER_CTRL:  # one row per control of its block (ctrlrange: (ctrlnum, 2))
            fields[full[len(prefix):]] = lambda full=full: getattr(model, full)[a:b]
    return ModelView(model, kind, i, name, fields)


def _data_view(data, kind, key):
    m = data._model
    i, name = _resolve(m, kind, key)
    fields = {}
    for full, short in _KINDS[kind][1].items():
        if full in data._fields:
            fields[short] = (lambda full=full: _row(getattr(data, full), i,
                                                    getattr(data, full).ndim == 1))
    if kind == "joint":
        t = int(m.jnt_type[i])
        qa, va = int(m.jnt_qposadr[i]), int(m.jnt_dofadr[i])
        nq, nv = _JNT_NQ[t], _JNT_NV[t]
        for f in _JNT_QPOS:
            fields[f] = lambda f=f: getattr(data, f)[qa:qa + nq]
        for f in _JNT_QVEL:
            fields[f] = lambda f=f: getattr(data, f)[va:va + nv]
    if kind == "actuator":  # its controls: ctrlnum of ctrl from ctrladr
        a, b = _ctrl_block(m, i)
        fields["ctrl"] = lambda: data.ctrl[a:b]
        o, n = int(m.actuator_outadr[i]), int(m.actuator_outnum[i])
        if n > 1:  # its force outputs' rows (an orientation servo's three)
            for full, short in _KINDS[kind][1].items():
                fields[short] = lambda full=full: getattr(data, full)[o:o + n]
        else:
            for full, short in _KINDS[kind][1].items():
                fields[short] = lambda full=full: _row(getattr(data, full), o,
                                                       getattr(data, full).ndim == 1)
    if kind == "sensor":  # its values: sensor_dim of sensordata from sensor_adr
        adr, dim = int(m.sensor_adr[i]), int(m.sensor_dim[i])
        fields["data"] = lambda: data.sensordata[adr:adr + dim]
    return DataView(data, kind, i, name, fields)


# ---- options ----------------------------------------------------------------------------
_KEYWORDS = {"cone": ("pyramidal", "elliptic"), "solver": ("pgs", "cg", "newton"),
             "pgs_blocks": ("contact", "pair"), "contact": ("soft", "coulomb"),
             "coulomb_solver": ("auto", "nsgs", "newton"),
             "integrator": ("euler", "rk4", "implicit", "implicitfast")}


class Keyword(int):
    """A keyword option's value (m.opt.solver, .cone, .integrator, ...): MuJoCo's number (an
    int) that also equals its word and prints as it: after m.opt.solver = "pgs",
    m.opt.solver == "pgs" and m.opt.solver == 0 are both true."""

    def __new__(cls, value, words):
        self = super().__new__(cls, value)
        self._words = words
        return self

    @property
    def name(self):
        """The keyword ('pgs'), or the number as text when it has none."""
        i = int(self)
        return self._words[i] if 0 <= i < len(self._words) else str(i)

    def __eq__(self, other):
        if isinstance(other, str):
            return other.lower() == self.name
        return int(self) == other

    def __ne__(self, other):
        return not self == other

    __hash__ = int.__hash__

    def __repr__(self):
        return f"{self.name!r} ({int(self)})"

    def __str__(self):
        return self.name

    def __reduce__(self):
        return (int, (int(self),))


class Option:
    """m.opt: writable at any time; once a Data exists, through cs_set (Data made earlier
    follow at their next step). Vectors are written whole (m.opt.gravity = [...]) or in
    place (m.opt.gravity[2] = -1.62: checked and taken at the next step)."""

    def __init__(self, model):
        object.__setattr__(self, "_model", model)

    def _field(self, name):
        m = self._model
        k = m._opt_fields.get(name)
        if k is None:
            raise AttributeError(f"Option has no field {name!r}")
        f = _lib.Field()
        _clib.cs_option_field(m._optptr(), k, _ctypes.byref(f))
        return f

    def __getattr__(self, name):
        f = self._field(name)
        if f.ndim == 0:
            v = _scalar(f).value
            return Keyword(v, _KEYWORDS[name]) if name in _KEYWORDS else v
        # written in place (m.opt.gravity[2] = -1.62), taken at the next step (_commit)
        self._model._watched()
        return _view(self._model, f)

    def __dir__(self):
        return sorted(self._model._opt_fields)

    def __repr__(self):
        parts = []
        for name in self._model._opt_fields:
            v = getattr(self, name)
            parts.append(f"{name}={v.tolist() if isinstance(v, _np.ndarray) else str(v)}")
        return "Option(" + ", ".join(parts) + ")"

    def __setattr__(self, name, value):
        m = self._model
        f = self._field(name)
        if name in ("disableflags", "enableflags"):
            if isinstance(value, bool) or not isinstance(value, (int, _np.integer)):
                raise TypeError(f"opt.{name} must be an int")
            m.set("option." + name, int(value))
            return
        if f.ndim == 0:
            if isinstance(value, Keyword):
                text = str(int(value))
            elif isinstance(value, str):
                text = value
            elif isinstance(value, (bool, _np.bool_)):
                raise TypeError(f"opt.{name} must be a number")
            elif name in _KEYWORDS and isinstance(value, (int, _np.integer)):
                words = _KEYWORDS[name]
                if not 0 <= value < len(words):
                    raise ValueError(f"opt.{name}: {value} is not one of 0..{len(words) - 1}")
                text = words[value]
            elif f.type == 0 and isinstance(value, (int, _np.integer)):
                text = str(int(value))
            elif f.type == 1 and isinstance(value, (int, float, _np.integer, _np.floating)):
                text = repr(float(value))
            else:
                raise TypeError(f"opt.{name}: expected a number, got {type(value).__name__}")
        else:
            arr = _np.asarray(value, dtype=object)
            if arr.shape != (f.shape[0],):
                raise ValueError(f"opt.{name}: expected shape ({f.shape[0]},), got {arr.shape}")
            arr = _np.asarray(value)
            if arr.dtype.kind not in "iuf":
                raise TypeError(f"opt.{name}: expected numbers, got {arr.dtype}")
            text = " ".join(repr(float(x)) for x in arr)
        err = _ctypes.create_string_buffer(_ERRSZ)
        if _clib.cs_set_text(m._ptr, ("option." + name).encode(), text.encode(), err, _ERRSZ):
            raise ValueError(err.value.decode())


# ---- model ------------------------------------------------------------------------------
class Model:
    """A compiled scene (cs_model). Made by from_xml_path or from_xml_string.

    Its arrays are numpy views of the C model. Those in Model.settable (the parameters
    cs_set knows: geom_friction, body_mass, dof_damping, actuator_gainprm, ...) can be
    written in place between steps, as MuJoCo's (m.geom_friction[:, 0] = 0.2); the next
    step, forward or reset takes them through the setter's checks and recomputations (a
    mass change updates the inverse weights), or raises ValueError naming a refused value
    and sets it back. The others (structure, or computed) are read only."""

    settable = _SETTABLE

    def __init__(self, *a, **k):
        raise TypeError("use conesim.Model.from_xml_path(path) or from_xml_string(xml)")

    @classmethod
    def _wrap(cls, ptr, source):
        self = object.__new__(cls)
        self._ptr = ptr
        self._frozen = False
        self._source = source  # what it was compiled from, for pickle
        self._fields = _fields(lambda k, f: _clib.cs_model_field(ptr, k, f))
        self._opt_fields = _fields(lambda k, f: _clib.cs_option_field(self._optptr(), k, f))
        self.opt = Option(self)
        return self

    @classmethod
    def from_xml_path(cls, path, edits=None, textures=True):
        """The scene at `path`; `edits` ({"geom.slope.euler[1]": 25, "body.box.pos": "0 0
        1", ...}) sets element attributes before it is compiled (cs_load_xml_edit), so that
        what the compiler derives from them follows exactly. textures=False leaves builtin
        textures' texels unmade (tex_data 0 there; CS_LOAD_NO_TEXELS), for programs that
        never draw: a builtin skybox's texels can cost more than the rest of the load."""
        if not isinstance(path, (str, bytes, _os.PathLike)):
            raise TypeError(f"path must be a str or os.PathLike, not {type(path).__name__}")
        err = _ctypes.create_string_buffer(_ERRSZ)
        items = [(str(k), " ".join(repr(float(x)) for x in v) if _np.ndim(v) else
                  v if isinstance(v, str) else repr(float(v)))
                 for k, v in (edits or {}).items()]
        names = (_lib.S * (len(items) + 1))(*[k.encode() for k, _ in items])
        values = (_lib.S * (len(items) + 1))(*[v.encode() for _, v in items])
        flags = 0 if textures else _lib.LOAD_NO_TEXELS
        ptr = _clib.cs_load_xml_flags(_os.fsencode(path), flags, len(items), names, values,
                                    None, err, _ERRSZ)
        if not ptr:
            raise ValueError(err.value.decode(errors="replace"))
        return cls._wrap(ptr, ("path", _os.path.abspath(_os.fsdecode(path)), tuple(items),
                               bool(textures)))

    @classmethod
    def from_xml_string(cls, xml, name="<string>"):
        if not isinstance(xml, str):
            raise TypeError(f"xml must be a str, not {type(xml).__name__}")
        if "\0" in xml:
            raise ValueError(f"{name}: the scene contains a NUL character")
        err = _ctypes.create_string_buffer(_ERRSZ)
        ptr = _clib.cs_load_xml_string(xml.encode(), name.encode(), None, err, _ERRSZ)
        if not ptr:
            raise ValueError(err.value.decode(errors="replace"))
        return cls._wrap(ptr, ("string", xml, name))

    def _optptr(self):
        return _clib.cs_model_option(self._ptr)

    def set(self, name, value):
        """Changes one parameter by name (cs_set; the README's "Changing the model"):
        m.set("geom.slope.friction[0]", 0.3), m.set("body.box.mass", 2),
        m.set("option.gravity", [0, 0, -1.62]), m.set("option.solver", "pgs"). Data made
        earlier follow at their next step. Raises KeyError for a name cs_set does not know,
        ValueError for a value it refuses (the model is then unchanged)."""
        err = _ctypes.create_string_buffer(_ERRSZ)
        key = name.encode() if isinstance(name, str) else None
        if key is None:
            raise TypeError(f"name must be a str, not {type(name).__name__}")
        if isinstance(value, str):
            rc = _clib.cs_set_text(self._ptr, key, value.encode(), err, _ERRSZ)
        else:
            if isinstance(value, (bool, _np.bool_)):
                value = int(value)
            arr = _np.ascontiguousarray(_np.atleast_1d(_np.asarray(value, dtype=_np.float64)))
            if arr.ndim != 1:
                raise ValueError(f"{name}: expected a number or a vector, got shape {arr.shape}")
            rc = _clib.cs_setv(self._ptr, key, arr.ctypes.data_as(_lib.DP), arr.size, err, _ERRSZ)
        if rc != 0:
            msg = err.value.decode(errors="replace")
            if _clib.cs_set_count(self._ptr, key) < 0:
                raise KeyError(msg)
            raise ValueError(msg)

    def get(self, name):
        """One parameter by name (cs_get): a float, or an array for a vector without [K]."""
        key = name.encode()
        n = _clib.cs_set_count(self._ptr, key)
        err = _ctypes.create_string_buffer(_ERRSZ)
        out = _np.zeros(max(n, 1))
        if n < 0 or _clib.cs_getv(self._ptr, key, out.ctypes.data_as(_lib.DP), n, err,
                                _ERRSZ) < 0:
            if n < 0:
                _clib.cs_getv(self._ptr, key, out.ctypes.data_as(_lib.DP), 1, err, _ERRSZ)
            raise KeyError(err.value.decode(errors="replace"))
        return float(out[0]) if "[" in name or n == 1 else out

    def __getattr__(self, name):
        k = self.__dict__.get("_fields", {}).get(name)
        if k is None:
            raise AttributeError(f"Model has no field {name!r}")
        f = _lib.Field()
        _clib.cs_model_field(self._ptr, k, _ctypes.byref(f))
        if f.ndim == 0:
            return _scalar(f).value
        if name in _SETTABLE:  # written in place, taken at the next step (_commit)
            self._watched()
            out = _view(self, f)
        else:
            out = _view(self, f, readonly=True).view(FixedArray)
            out._field = name
        self.__dict__[name] = out  # the model's arrays never move: kept for the next read
        return out

    def _watched(self):
        """Writes into the model's memory from now on are taken at the next step."""
        if not self.__dict__.get("_watch"):
            w = _clib.cs_watch_model(self._ptr)
            if not w:
                raise MemoryError("conesim: out of memory watching the model's arrays")
            self.__dict__["_watch_err"] = _ctypes.create_string_buffer(_ERRSZ)
            self.__dict__["_watch"] = w

    def __setattr__(self, name, value):
        if name in self.__dict__.get("_fields", {}):
            if name not in _SETTABLE:
                getattr(self, name)[...] = value  # FixedArray's message
            _assign(getattr(self, name), value, name)
            return
        object.__setattr__(self, name, value)

    def __dir__(self):
        return sorted(_builtins.set(super().__dir__()) | _builtins.set(self._fields))

    def _names(self, kind):
        cache = self.__dict__.setdefault("_namecache", {})
        if kind not in cache:
            cache[kind] = _names(self, kind)
        return cache[kind]

    @property
    def body_names(self):
        """Every body's name in id order ('' for one without a name; the world is 'world')."""
        return self._names("body")

    @property
    def geom_names(self):
        """Every geom's name in id order ('' for one without a name)."""
        return self._names("geom")

    @property
    def joint_names(self):
        """Every joint's name in id order ('' for one without a name)."""
        return self._names("joint")

    jnt_names = joint_names

    @property
    def actuator_names(self):
        """Every actuator's name in id order ('' for one without a name)."""
        return self._names("actuator")

    @property
    def ctrl_names(self):
        """Every control's name in ctrl order: its actuator's name, with "/INPUT" added for
        an actuator of several controls ("arm/pos", "arm/vel"); "actuator<i>" unnamed."""
        buf = _ctypes.create_string_buffer(256)
        return tuple(_clib.cs_ctrl_label(self._ptr, k, buf, 256).decode()
                     for k in range(self.nu))

    @property
    def site_names(self):
        """Every site's name in id order ('' for one without a name)."""
        return self._names("site")

    @property
    def tendon_names(self):
        """Every tendon's name in id order ('' for one without a name)."""
        return self._names("tendon")

    @property
    def equality_names(self):
        """Every equality constraint's name in id order ('' for one without a name)."""
        return self._names("equality")

    @property
    def key_names(self):
        """Every keyframe's name in id order ('' for one without a name)."""
        return self._names("key")

    def site(self, key):
        """Site `key` (a name or an id): .id, .name, .bodyid, .pos, .quat."""
        return _model_view(self, "site", key)

    def tendon(self, key):
        """Tendon `key` (a name or an id): .id, .name and its tendon_* fields (.range,
        .stiffness, .length0, ...)."""
        return _model_view(self, "tendon", key)

    def equality(self, key):
        """Equality constraint `key` (a name or an id): .id, .name and its eq_* fields
        (.type, .obj1id, .obj2id, .active0, .solref, .solimp, .data)."""
        return _model_view(self, "equality", key)

    eq = equality

    def key(self, key):
        """Keyframe `key` (a name or an id): .id, .name, .time, .qpos, .qvel, .act, .ctrl,
        .mpos, .mquat."""
        return _model_view(self, "key", key)

    keyframe = key

    def geom(self, key):
        """Geom `key` (a name or an id): .id, .name and its geom_* fields (read only)."""
        return _model_view(self, "geom", key)

    def body(self, key):
        """Body `key` (a name or an id): .id, .name and its body_* fields (read only)."""
        return _model_view(self, "body", key)

    def joint(self, key):
        """Joint `key` (a name or an id): .id, .name and its jnt_* fields (read only)."""
        return _model_view(self, "joint", key)

    jnt = joint

    def actuator(self, key):
        """Actuator `key` (a name or an id): .id, .name and its actuator_* fields."""
        return _model_view(self, "actuator", key)

    @property
    def sensor_names(self):
        """Every sensor's name in id order ('' for one without a name)."""
        return self._names("sensor")

    def sensor(self, key):
        """Sensor `key` (a name or an id): .id, .name and its sensor_* fields (.type, .dim,
        .adr, .cutoff, .noise, .user, ...; read only)."""
        return _model_view(self, "sensor", key)

    def __copy__(self):
        """A model of its own with the same values (cs_copy_model): its options and
        parameters can change without touching this one."""
        _commit(self)
        ptr = _clib.cs_copy_model(self._ptr)
        if not ptr:
            raise MemoryError("conesim: out of memory copying the model")
        return Model._wrap(ptr, self._source)

    def __deepcopy__(self, memo):
        return self.__copy__()

    def _numbers(self):
        """Every number of the model and its options, by field name (copies)."""
        out = {}
        for fields, get, what in ((self._fields, _clib.cs_model_field, "model"),
                                  (self._opt_fields, _clib.cs_option_field, "opt")):
            base = self._ptr if what == "model" else self._optptr()
            for name, k in fields.items():
                f = _lib.Field()
                get(base, k, _ctypes.byref(f))
                out[(what, name)] = (_scalar(f).value if f.ndim == 0 else
                                     _np.array(_view(self, f, readonly=True)))
        return out

    def _take_numbers(self, numbers):
        """Writes numbers (from _numbers of a model of the same scene) into this model, not
        yet used by a data."""
        for (what, name), value in numbers.items():
            fields = self._fields if what == "model" else self._opt_fields
            k = fields.get(name)
            if k is None:
                raise ValueError(f"the pickled model has a field {name!r} this conesim "
                                 f"({__version__}) does not know")
            f = _lib.Field()
            if what == "model":
                _clib.cs_model_field(self._ptr, k, _ctypes.byref(f))
            else:
                _clib.cs_option_field(self._optptr(), k, _ctypes.byref(f))
            if f.ndim == 0:
                sc = _scalar(f)
                if what == "model" and name != "ncon_reserve" and sc.value != value:
                    raise ValueError(f"the scene now compiles to {name} {sc.value}, the "
                                     f"pickled model had {value}")
                sc.value = value
            else:
                dst = _view(self, f)
                if dst.shape != _np.shape(value):
                    raise ValueError(f"the scene now compiles to {name} of shape "
                                     f"{dst.shape}, the pickled model had {_np.shape(value)}")
                if dst.size:
                    dst[...] = value

    def __reduce__(self):
        """pickle: the scene's source (the file's path and edits, or the XML string) and
        every number of the model, so that changes made since loading (m.set, m.opt) come
        along. Unpickling compiles the source again (a file must be readable at the same
        path) and writes the numbers over it: the model steps bit for bit as this one."""
        _commit(self)
        return (_unpickle_model, (self._source, self._numbers()))

    def __del__(self):
        w = self.__dict__.pop("_watch", None)
        if w:
            _clib.cs_watch_free(w)
        ptr = self.__dict__.get("_ptr")
        if ptr:
            self._ptr = None
            _clib.cs_free_model(ptr)


# ---- data -------------------------------------------------------------------------------
def _zone_word(z):
    return _clib.cs_contact_zone_name(int(z)).decode()


class Contact:
    """d.contact[i]: read each time from the data, so it follows the contact array; its
    arrays (pos, frame, force, ...) are copies, read only."""

    def __init__(self, data, i):
        self._data, self._i = data, i

    def __getattr__(self, name):
        d = self.__dict__["_data"]
        k = _CONTACT_FIELDS.get(name)
        if k is None:
            raise AttributeError(f"Contact has no field {name!r}")
        f = _lib.Field()
        if _clib.cs_contact_field(d._ptr, self._i, k, _ctypes.byref(f)) != 0:
            raise IndexError(f"contact {self._i} is gone (ncon is {d.ncon})")
        if f.ndim == 0:
            return _scalar(f).value
        out = _view(d, f, readonly=True).copy()  # the contact array moves as it grows
        out.flags.writeable = False
        return out

    @property
    def zone_name(self):
        """The zone's word, as the contact CSV's: top, bottom, middle, pyramid, normal,
        separate, stick, slide (the Coulomb model's), or none (beyond the margin)."""
        return _zone_word(self.zone)

    def __dir__(self):
        return sorted(_builtins.set(_CONTACT_FIELDS) | {"zone_name"})

    def __repr__(self):
        d = self.__dict__["_data"]
        if not 0 <= self._i < d.ncon:
            return f"<Contact {self._i} (gone: ncon is {d.ncon})>"
        names = d._model._names("geom")

        def geom(g):
            return f"{g} {names[g]!r}" if names[g] else str(g)
        pos = ", ".join(f"{x:.4g}" for x in self.pos)
        return (f"<Contact {self._i}: geom {geom(self.geom1)} / {geom(self.geom2)}, "
                f"dist {self.dist:.4g}, pos ({pos}), normal force {self.force[0]:.4g}, "
                f"dim {self.dim}, zone {self.zone_name}>")


class _Contacts:
    """d.contact: the contacts of the last step. d.contact[i] is one contact; d.contact.pos,
    .frame, .dist, .geom1, .geom2, .force, ... are all of them at once, arrays of ncon rows
    (struct of arrays, as MuJoCo's d.contact.pos), read only."""

    def __init__(self, data):
        self._data = data

    def __len__(self):
        return self._data.ncon

    def __getitem__(self, i):
        if not isinstance(i, (int, _np.integer)) or isinstance(i, bool):
            raise TypeError(f"contact index must be an int, not {type(i).__name__}")
        n = self._data.ncon
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"contact index out of range (ncon is {n})")
        return Contact(self._data, int(i))

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __getattr__(self, name):
        if name == "zone_name":  # every contact's zone word (Contact.zone_name)
            return tuple(_zone_word(z) for z in self.zone)
        if name.startswith("_") or name not in _CONTACT_FIELDS:
            raise AttributeError(f"Contact has no field {name!r}")
        return self.__dict__["_data"]._contact_array(name)

    def __dir__(self):
        return sorted(_builtins.set(_CONTACT_FIELDS) | {"zone_name"})

    def __repr__(self):
        n = len(self)
        return (f"<{n} contact{'' if n == 1 else 's'} at t = {self._data.time:.6g}: fields "
                f"{', '.join(sorted(_CONTACT_FIELDS))}>")


class Data:
    """Everything a step changes (cs_data), made from a Model: conesim.Data(m).

    Arrays (d.qpos, d.qvel, d.ctrl, d.xpos, ...) are numpy views of the C arrays, made once
    and kept: reading d.qpos in a loop costs a dictionary look-up, and writing into it (or
    assigning d.qpos = x) writes the data. Scalars: d.time (writable), d.ncon, d.nefc, the
    last step's solver statistics d.solver_niter, d.solver_at_limit, d.solver_nisland,
    d.solver_noslip (noslip sweeps),
    d.solver_cost, ... and d.warning, the warning counts (conesim.Warnings: by WARN_* index
    or by name, d.warning.badqacc).

    It starts from the reference pose qpos0 (zero velocity), as MuJoCo's mj_makeData, and
    applies no keyframe. `conesim run` starts from the scene's first <key> by default: to
    start where it does, call conesim.reset_data_keyframe(m, d, 0) (then the two agree bit
    for bit; examples/keyframe_parity.py)."""

    def __init__(self, model):
        _check_type(model, Model, "model")
        _commit(model)
        # the contact array starts small and grows as steps need (up to nconmax), moving
        # when it does: contacts are read from it at each access (d.contact)
        ptr = _clib.cs_make_data(model._ptr)
        if not ptr:
            raise MemoryError("conesim: out of memory making the data")
        model._frozen = True
        self.__dict__.update(_ptr=ptr, _model=model, _scalars={}, _contact_cache={},
                             _diverged=False, _fields=_fields(
                                 lambda k, f: _clib.cs_data_field(model._ptr, ptr, k, f)))
        self.__dict__["contact"] = _Contacts(self)

    @property
    def model(self):
        return self._model

    def __dir__(self):
        return sorted(_builtins.set(super().__dir__()) | _builtins.set(self._fields))

    def _field(self, name):
        k = self.__dict__["_fields"].get(name)
        if k is None:
            raise AttributeError(f"Data has no field {name!r}")
        f = _lib.Field()
        _clib.cs_data_field(self._model._ptr, self._ptr, k, _ctypes.byref(f))
        return f

    def __getattr__(self, name):
        sc = self.__dict__["_scalars"].get(name)
        if sc is not None:
            return sc.value
        f = self._field(name)
        if f.ndim == 0:
            sc = self._scalars[name] = _scalar(f)
            return sc.value
        # qpos, qvel, ... are allocated with the data and never move: the view is kept
        out = _view(self, f, readonly=name in ("geom_xpos", "geom_xmat"))
        if name == "warning":
            out = out.view(Warnings)
        self.__dict__[name] = out
        return out

    def __setattr__(self, name, value):
        if name == "time":
            if isinstance(value, bool) or not isinstance(
                    value, (int, float, _np.integer, _np.floating)):
                raise TypeError("Data.time must be a number")
            self.__getattr__("time")  # the scalar's handle, kept
            self._scalars["time"].value = float(value)
            return
        view = self.__dict__.get(name)
        if isinstance(view, _np.ndarray):
            _assign(view, value, name)
            return
        f = self._field(name)
        if f.ndim == 0:
            raise AttributeError(f"Data.{name} is read-only")
        _assign(self.__getattr__(name), value, name)

    def _contact_array(self, name):
        """Contact field `name` of the first ncon contacts, copied from the C array (which
        moves when a step needs more room: a view kept over a step would point at freed
        memory). Read only: the step writes contacts."""
        cap, n = self.ncon_cap, self.ncon
        cache = self._contact_cache
        hit = cache.get(name)
        if hit is None or hit[0] != cap:  # the view of the live array, made again after a move
            f = _lib.Field()
            _clib.cs_contact_array_field(self._ptr, _CONTACT_FIELDS[name], _ctypes.byref(f))
            hit = cache[name] = (cap, _view(self, f, readonly=True))
        out = hit[1][:n].copy()
        out.flags.writeable = False
        return out

    def body(self, key):
        """Body `key` (a name or an id) of this data: .xpos, .xquat, .xmat, .xipos, .ximat,
        .xfrc_applied, .cvel (views: writing to them writes the data)."""
        return _data_view(self, "body", key)

    def geom(self, key):
        """Geom `key` (a name or an id): .xpos, .xmat (read only: the step computes them)."""
        return _data_view(self, "geom", key)

    def joint(self, key):
        """Joint `key` (a name or an id): .qpos (its slice of qpos), .qvel, .qacc,
        .qfrc_applied, ... (its slices of the nv arrays), .xanchor, .xaxis."""
        return _data_view(self, "joint", key)

    jnt = joint

    def actuator(self, key):
        """Actuator `key` (a name or an id): .ctrl, .length, .velocity, .force."""
        return _data_view(self, "actuator", key)

    def site(self, key):
        """Site `key` (a name or an id): .xpos, its world position."""
        return _data_view(self, "site", key)

    def tendon(self, key):
        """Tendon `key` (a name or an id): .length, .velocity, .J (its row of ten_J)."""
        return _data_view(self, "tendon", key)

    def equality(self, key):
        """Equality constraint `key` (a name or an id): .active (its eq_active, writable:
        0 switches it off from the next step)."""
        return _data_view(self, "equality", key)

    eq = equality

    def sensor(self, key):
        """Sensor `key` (a name or an id): .data, its values (a view of sensordata, as
        MuJoCo's d.sensor(name).data)."""
        return _data_view(self, "sensor", key)

    def _copy_with(self, model):
        ptr = _clib.cs_copy_data(model._ptr, self._ptr)
        if not ptr:
            raise MemoryError("conesim: out of memory copying the data")
        d = object.__new__(Data)
        model._frozen = True
        d.__dict__.update(_ptr=ptr, _model=model, _scalars={}, _contact_cache={},
                          _diverged=False,
                          _fields=_fields(lambda k, f: _clib.cs_data_field(model._ptr, ptr, k, f)))
        d.__dict__["contact"] = _Contacts(d)
        return d

    def __copy__(self):
        """A data of its own with this one's state and results, on the same model
        (cs_copy_data): both step alike, bit for bit."""
        return self._copy_with(self._model)

    def __deepcopy__(self, memo):
        """The same on a copy of the model (one copy per model in one deepcopy)."""
        import copy
        return self._copy_with(copy.deepcopy(self._model, memo))

    def __reduce__(self):
        """pickle: the model and the state (STATE_INTEGRATION: everything a step reads) and
        warning counts. Unpickled, the data runs conesim.forward from that state, so it
        steps bit for bit as this one; what the last step computed before its integration
        (xpos, contacts, forces) is computed again, from the state after it."""
        m = self._model
        return (_unpickle_data, (m, get_state(m, self, STATE_INTEGRATION),
                                 _np.array(self.warning)))

    def __del__(self):
        ptr = self.__dict__.get("_ptr")
        if ptr:
            self.__dict__["_ptr"] = None
            _clib.cs_free_data(ptr)


def _unpickle_model(source, numbers):
    kind = source[0]
    try:
        if kind == "path":
            m = Model.from_xml_path(source[1], dict(source[2]),
                                    source[3] if len(source) > 3 else True)
        else:
            m = Model.from_xml_string(source[1], source[2])
    except ValueError as e:
        where = source[1] if kind == "path" else source[2]
        raise ValueError(f"unpickling a conesim.Model compiles its scene {where} again: "
                         f"{e}") from None
    try:
        m._take_numbers(numbers)
    except ValueError as e:
        where = source[1] if kind == "path" else source[2]
        raise ValueError(f"unpickling a conesim.Model: {where}: {e}") from None
    return m


def _unpickle_data(model, state, warning):
    d = Data(model)
    set_state(model, d, state, STATE_INTEGRATION)
    forward(model, d)
    d.warning[:] = warning
    return d


# ---- functions --------------------------------------------------------------------------
def _pair(m, d):
    _check_type(m, Model, "m")
    _check_type(d, Data, "d")
    if d._model is not m:
        raise ValueError("d was made from another model")
    _commit(m)


def step(m, d, nstep=1):
    """nstep steps (cs_step). When a step leaves qpos or qvel not finite (NaN or inf: the
    simulation diverged), a RuntimeWarning names the step and the body; it is given once
    until the state is finite again (reset_data, set_state)."""
    _pair(m, d)
    if isinstance(nstep, bool) or not isinstance(nstep, (int, _np.integer)):
        raise TypeError(f"nstep must be an int, not {type(nstep).__name__}")
    if nstep < 0:
        raise ValueError("nstep must be >= 0")
    n, mp, dp = int(nstep), m._ptr, d._ptr
    cstep, check = _clib.cs_step, _clib.cs_check_finite
    if d.__dict__["_diverged"]:
        if check(mp, dp) >= 0:  # still diverged: no second warning
            for _ in range(n):
                cstep(mp, dp)
            return
        d.__dict__["_diverged"] = False
    for k in range(n):
        cstep(mp, dp)
        bad = check(mp, dp)
        if bad >= 0:
            d.__dict__["_diverged"] = True
            _warn_diverged(m, d, bad, k + 1, n)
            for _ in range(n - k - 1):
                cstep(mp, dp)
            return


def _warn_diverged(m, d, body, k, n):
    import warnings
    name = m._names("body")[body]
    label = f"body {name!r}" if name else f"body {body}"
    warnings.warn(f"conesim.step: the simulation diverged at t = {d.time:.6g}, in step {k} "
                  f"of {n} of this call: {label} has a joint whose qpos or qvel is NaN or "
                  f"infinite (a time step too large for the stiffness or speeds, or a bad "
                  f"value written into the data); the state stays so until reset_data or "
                  f"set_state; d.warning: {d.warning!r}", RuntimeWarning, stacklevel=3)


def forward(m, d):
    _pair(m, d)
    _clib.cs_forward(m._ptr, d._ptr)


def reset_data(m, d):
    _pair(m, d)
    _clib.cs_reset(m._ptr, d._ptr)


def reset_data_keyframe(m, d, key):
    """Resets the data to keyframe `key`, its index or its name (MuJoCo's
    mj_resetDataKeyframe): reset_data_keyframe(m, d, "stand")."""
    _pair(m, d)
    if isinstance(key, str):
        k = _clib.cs_name2id(m._ptr, b"key", key.encode())
        if k < 0:
            names = [n for n in m.key_names if n]
            raise KeyError(f"no keyframe named {key!r} (named keyframes: "
                           f"{', '.join(names) or 'none'})")
        key = k
    if isinstance(key, bool) or not isinstance(key, (int, _np.integer)):
        raise TypeError("key must be a keyframe's index or name")
    if _clib.cs_reset_key(m._ptr, d._ptr, int(key)) != 0:
        raise ValueError(f"no keyframe {key} (nkey is {m.nkey})")


def contact_force(m, d, i):
    """Contact i's force in its contact frame (normal, t1, t2, spin, roll1, roll2)."""
    _pair(m, d)
    if isinstance(i, bool) or not isinstance(i, (int, _np.integer)):
        raise TypeError(f"contact index must be an int, not {type(i).__name__}")
    if not 0 <= i < d.ncon:
        raise ValueError(f"contact index {i} out of range (ncon is {d.ncon})")
    f = _np.zeros(6)
    _clib.cs_contact_force(m._ptr, d._ptr, int(i), f.ctypes.data_as(_lib.DP))
    return f


def energy(m, d):
    """(potential, kinetic) energy."""
    _pair(m, d)
    return (_clib.cs_energy_potential(m._ptr, d._ptr), _clib.cs_energy_kinetic(m._ptr, d._ptr))


def cone_capacity(fn, mu1, mu2, alpha):
    """Friction capacity along tangent direction alpha (radians) of the elliptic cone."""
    return _clib.cs_cone_capacity(float(fn), float(mu1), float(mu2), float(alpha))


# ---- Jacobians, inverse dynamics, derivatives ------------------------------------------
def _id(m, kind, key):
    return _resolve(m, kind, key)[0]


def _jac_pair(m, fn, *args):
    jacp, jacr = _np.zeros((3, m.nv)), _np.zeros((3, m.nv))
    fn(*args, jacp.ctypes.data_as(_lib.DP), jacr.ctypes.data_as(_lib.DP))
    return jacp, jacr


def jac(m, d, point, body):
    """(jacp, jacr), each 3 x nv: the Jacobians of the world point `point` moving with
    `body` (a name or an id): its velocity is jacp @ d.qvel, the body's angular velocity
    (world frame) jacr @ d.qvel (MuJoCo's mj_jac). From the last kinematics (forward, step)."""
    _pair(m, d)
    b = _id(m, "body", body)
    p = _np.ascontiguousarray(point, dtype=_np.float64)
    if p.shape != (3,):
        raise ValueError(f"point: expected shape (3,), got {p.shape}")
    return _jac_pair(m, _clib.cs_jac, m._ptr, d._ptr, b, p.ctypes.data_as(_lib.DP))


def jac_body(m, d, body):
    """(jacp, jacr) at the body's frame origin (d.xpos): MuJoCo's mj_jacBody."""
    _pair(m, d)
    return _jac_pair(m, _clib.cs_jac_body, m._ptr, d._ptr, _id(m, "body", body))


def jac_body_com(m, d, body):
    """(jacp, jacr) at the body's centre of mass (d.xipos): MuJoCo's mj_jacBodyCom."""
    _pair(m, d)
    return _jac_pair(m, _clib.cs_jac_body_com, m._ptr, d._ptr, _id(m, "body", body))


def jac_site(m, d, site):
    """(jacp, jacr) at the site (d.site_xpos): MuJoCo's mj_jacSite."""
    _pair(m, d)
    return _jac_pair(m, _clib.cs_jac_site, m._ptr, d._ptr, _id(m, "site", site))


def inverse(m, d):
    """Inverse dynamics (MuJoCo's mj_inverse): from d.qpos, d.qvel and d.qacc, the force
    d.qfrc_inverse (nv) that, with the passive and the soft constraint forces at that
    acceleration, produces d.qacc: qfrc_inverse = M qacc + qfrc_bias - qfrc_passive -
    qfrc_constraint. After forward it equals qfrc_applied + J'xfrc_applied + qfrc_actuator;
    the contacts' forces (d.contact.force, contact_force) are those the soft model gives
    at d.qacc. Returns d.qfrc_inverse. Refused (ValueError) under the Coulomb model."""
    _pair(m, d)
    err = _ctypes.create_string_buffer(_ERRSZ)
    if _clib.cs_inverse(m._ptr, d._ptr, err, _ERRSZ) != 0:
        raise ValueError(err.value.decode(errors="replace"))
    return d.qfrc_inverse


def transition_fd(m, d, eps=1e-6, centered=False):
    """Derivatives of one step by finite differences (MuJoCo's mjd_transitionFD):
    (A, B, C, D) with the state x = (dq, qvel, act), dq in qpos's tangent space (2 nv + na
    values): A = dx'/dx (2nv+na square), B = dx'/dctrl (2nv+na x nu); C and D, the sensors'
    (nsensordata rows), are empty: conesim has no sensors yet. Each perturbed step starts
    from d's state (warm start included); d is left at it."""
    _pair(m, d)
    if isinstance(eps, bool) or not isinstance(eps, (int, float, _np.integer, _np.floating)) \
            or not eps > 0:
        raise ValueError(f"eps must be a positive number, not {eps!r}")
    if m.nhistory:
        raise ValueError("transition_fd: history buffers (delays) are not supported, as in "
                         "MuJoCo's mjd_transitionFD")
    ndx = 2 * m.nv + m.na
    A, B = _np.zeros((ndx, ndx)), _np.zeros((ndx, m.nu))
    if _clib.cs_transition_fd(m._ptr, d._ptr, float(eps), 1 if centered else 0,
                              A.ctypes.data_as(_lib.DP), B.ctypes.data_as(_lib.DP)) != 0:
        raise MemoryError("conesim: out of memory in transition_fd")
    return A, B, _np.zeros((0, ndx)), _np.zeros((0, m.nu))


def differentiate_pos(m, qpos1, qpos2, dt=1.0):
    """The velocity (nv) that moves qpos1 to qpos2 in time dt (MuJoCo's
    mj_differentiatePos): quaternions' changes as rotation vectors in their local frame."""
    _check_type(m, Model, "m")
    q1 = _np.ascontiguousarray(qpos1, dtype=_np.float64)
    q2 = _np.ascontiguousarray(qpos2, dtype=_np.float64)
    if q1.shape != (m.nq,) or q2.shape != (m.nq,):
        raise ValueError(f"qpos1, qpos2: expected shape ({m.nq},)")
    out = _np.zeros(m.nv)
    _clib.cs_differentiate_pos(m._ptr, out.ctypes.data_as(_lib.DP), float(dt),
                               q1.ctypes.data_as(_lib.DP), q2.ctypes.data_as(_lib.DP))
    return out


# ---- history buffers (MuJoCo 3.12's delays) ------------------------------------------------
def _interp(interp):
    if isinstance(interp, bool) or not isinstance(interp, (int, _np.integer)) \
            or not -1 <= interp <= 2:
        raise ValueError(f"interp must be -1 (the element's own), 0 (zoh), 1 (linear) or 2 "
                         f"(cubic), not {interp!r}")
    return int(interp)


def read_ctrl(m, d, actuator, time, interp=-1):
    """The actuator's control at time - actuator_delay from its history buffer (MuJoCo's
    mj_readCtrl): interp 0 zero-order hold, 1 linear, 2 cubic (Catmull-Rom), -1 the
    actuator's own; the nearest end's value outside the buffer's times. d.ctrl[actuator]
    when it has no buffer (nsample 0)."""
    _pair(m, d)
    return _clib.cs_read_ctrl(m._ptr, d._ptr, _id(m, "actuator", actuator), float(time),
                              _interp(interp))


def read_sensor(m, d, sensor, time, result=None, interp=-1):
    """The sensor's value (sensor_dim values) at time - sensor_delay from its history buffer
    (MuJoCo's mj_readSensor), written into result when given (a float64 array of
    sensor_dim) and returned; interp as read_ctrl's. Its sensordata when it has no buffer."""
    _pair(m, d)
    i = _id(m, "sensor", sensor)
    dim = int(m.sensor_dim[i])
    if result is None:
        result = _np.zeros(dim)
    if not isinstance(result, _np.ndarray) or result.dtype != _np.float64 \
            or result.shape != (dim,) or not result.flags.c_contiguous:
        raise TypeError(f"result should be a contiguous float64 array of length sensor_dim "
                        f"({dim})")
    _clib.cs_read_sensor(m._ptr, d._ptr, i, float(time), result.ctypes.data_as(_lib.DP),
                         _interp(interp))
    return result


def _history_times(times, n):
    if times is None:
        return None, None
    t = _np.ascontiguousarray(times, dtype=_np.float64)
    if t.shape != (n,):
        raise TypeError(f"times should have length nsample ({n})")
    return t, t.ctypes.data_as(_lib.DP)


def init_ctrl_history(m, d, actuator, times, values):
    """The actuator's history buffer set to values (nsample) at times (nsample, strictly
    increasing; None keeps the buffer's times), oldest first (MuJoCo's
    mj_initCtrlHistory)."""
    _pair(m, d)
    i = _id(m, "actuator", actuator)
    n = int(m.actuator_history[i, 0])
    if n <= 0:
        raise ValueError(f"actuator {i} has no history buffer")
    t, tp = _history_times(times, n)
    v = _np.ascontiguousarray(values, dtype=_np.float64)
    if v.shape != (n,):
        raise TypeError(f"values should have length nsample ({n})")
    if _clib.cs_init_ctrl_history(m._ptr, d._ptr, i, tp, v.ctypes.data_as(_lib.DP)) != 0:
        raise ValueError("times must be strictly increasing")


def init_sensor_history(m, d, sensor, times, values, phase=0.0):
    """The sensor's history buffer set to values (nsample x sensor_dim) at times (as
    init_ctrl_history's); phase is the last computation's time an interval sensor counts
    its period from (MuJoCo's mj_initSensorHistory)."""
    _pair(m, d)
    i = _id(m, "sensor", sensor)
    n, dim = int(m.sensor_history[i, 0]), int(m.sensor_dim[i])
    if n <= 0:
        raise ValueError(f"sensor {i} has no history buffer")
    t, tp = _history_times(times, n)
    v = _np.ascontiguousarray(values, dtype=_np.float64)
    if v.shape != (n, dim) and not (dim == 1 and v.shape == (n,)):
        raise TypeError(f"values should have shape (nsample, sensor_dim) = ({n}, {dim})")
    if _clib.cs_init_sensor_history(m._ptr, d._ptr, i, tp, v.ctypes.data_as(_lib.DP),
                                    float(phase)) != 0:
        raise ValueError("times must be strictly increasing")


# ---- states and batch rollouts ----------------------------------------------------------
# the parts of a state (MuJoCo's mjtState bits and order: cs_state_size in conesim.h)
STATE_TIME, STATE_QPOS, STATE_QVEL, STATE_ACT, STATE_HISTORY = 1, 2, 4, 8, 16
STATE_WARMSTART, STATE_CTRL, STATE_QFRC_APPLIED, STATE_XFRC_APPLIED = 32, 64, 128, 256
STATE_EQ_ACTIVE, STATE_MOCAP_POS, STATE_MOCAP_QUAT = 512, 1024, 2048
STATE_PHYSICS = STATE_QPOS | STATE_QVEL | STATE_ACT | STATE_HISTORY
STATE_FULLPHYSICS = STATE_TIME | STATE_PHYSICS
STATE_USER = (STATE_CTRL | STATE_QFRC_APPLIED | STATE_XFRC_APPLIED | STATE_EQ_ACTIVE |
              STATE_MOCAP_POS | STATE_MOCAP_QUAT)
STATE_INTEGRATION = STATE_FULLPHYSICS | STATE_USER | STATE_WARMSTART


def state_size(m, spec=STATE_FULLPHYSICS):
    """The length of a state with the parts in spec (STATE_* bits); by default
    [time, qpos, qvel, act, history]: 1 + nq + nv + na + nhistory."""
    _check_type(m, Model, "m")
    if isinstance(spec, bool) or not isinstance(spec, (int, _np.integer)):
        raise TypeError("spec must be an int of STATE_* bits")
    n = _clib.cs_state_size(m._ptr, int(spec))
    if n < 0:
        raise ValueError(f"spec {spec}: bits other than STATE_* ones")
    return n


def get_state(m, d, spec=STATE_FULLPHYSICS):
    """The data's state as one array (a copy): by default [time, qpos, qvel, act, history]; spec
    picks the parts (STATE_INTEGRATION: everything a step reads, so that set_state of it
    into another data steps alike)."""
    _pair(m, d)
    out = _np.empty(state_size(m, spec))
    _clib.cs_get_state(m._ptr, d._ptr, out.ctypes.data_as(_lib.DP), int(spec))
    return out


def set_state(m, d, state, spec=STATE_FULLPHYSICS):
    """Sets the parts in spec from one state array (by default time, qpos, qvel and act
    from [time, qpos, qvel, act])."""
    _pair(m, d)
    n = state_size(m, spec)
    s = _np.ascontiguousarray(state, dtype=_np.float64)
    if s.shape != (n,):
        raise ValueError(f"state: expected shape ({n},), got {s.shape}")
    _clib.cs_set_state(m._ptr, d._ptr, s.ctypes.data_as(_lib.DP), int(spec))


def rollout(m, initial_state, nstep, control=None, nthread=None, spec=STATE_FULLPHYSICS,
            client=None, chunks=None, sensors=False):
    """Steps a batch of initial states nstep times each, in C on nthread threads (MuJoCo's
    rollout.rollout, with the state [time, qpos, qvel, act], or the parts in spec: adding
    STATE_MOCAP_POS | STATE_MOCAP_QUAT gives each rollout its own mocap poses).

    initial_state: (nbatch, nstate) or (nstate,) for a batch of one, nstate = state_size(m).
    control: None (controls 0), (nstep, nu) for every rollout alike, or (nbatch, nstep, nu):
    the controls set before each step. nthread: threads (default: the machine's cores, at
    most nbatch); the results are the same bit for bit for any count.
    Returns the states after each step, (nbatch, nstep, nstate); with sensors=True, the
    pair (states, sensordata), sensordata (nbatch, nstep, nsensordata) each step's values
    as MuJoCo's rollout gives them (those its forward pass read, of the state before the
    step). A rollout that diverges (a state NaN or infinite) gives a RuntimeWarning naming
    it and its step.

    Each rollout starts from a reset data, exactly as reset_data(m, d), set_state(m, d, s),
    then d.ctrl[:] = control[t] and step(m, d) for each step t: the warm start, applied
    forces and anything else in a data do not carry over from one rollout to the next.

    client: a dask.distributed Client (or a concurrent.futures executor) to spread the batch
    over its workers in `chunks` parts (default: one per worker), each a rollout on one
    thread there; the result is the same bit for bit (not with sensors=True)."""
    _check_type(m, Model, "m")
    ns, nu = state_size(m, spec), m.nu
    s0 = _np.asarray(initial_state, dtype=_np.float64)
    if s0.ndim == 1:
        s0 = s0[None, :]
    if s0.ndim != 2 or s0.shape[1] != ns:
        raise ValueError(f"initial_state: expected shape (nbatch, {ns}), "
                         f"got {_np.shape(initial_state)}")
    if isinstance(nstep, bool) or not isinstance(nstep, (int, _np.integer)) or nstep < 0:
        raise ValueError("nstep must be an int >= 0")
    nbatch, nstep = s0.shape[0], int(nstep)
    s0 = _np.ascontiguousarray(s0)
    ctrl = None
    if control is not None:
        c = _np.asarray(control, dtype=_np.float64)
        if c.ndim == 2:
            c = _np.broadcast_to(c, (nbatch,) + c.shape)
        if c.shape != (nbatch, nstep, nu):
            raise ValueError(f"control: expected shape ({nstep}, {nu}) or "
                             f"({nbatch}, {nstep}, {nu}), got {_np.shape(control)}")
        ctrl = _np.ascontiguousarray(c)
    if nthread is None:
        nthread = _os.cpu_count() or 1
    if isinstance(nthread, bool) or not isinstance(nthread, (int, _np.integer)) or nthread < 1:
        raise ValueError("nthread must be an int >= 1")
    _commit(m)  # values written into the model: checked before any rollout reads them
    if client is not None and sensors:
        raise ValueError("rollout: sensors=True runs here, not on a client")
    if client is not None:
        from .sweep import distributed_rollout
        out = distributed_rollout(m, s0, nstep, ctrl, int(spec), client, chunks)
        _warn_rollout(out, nbatch, nstep)
        return out
    out = _np.empty((nbatch, nstep, ns))
    sens = _np.empty((nbatch, nstep, m.nsensordata)) if sensors else None
    # a data made first, as for Data(m): the options are taken through the setter from then on
    if not m._frozen:
        Data(m)
    rc = _clib.cs_rollout_sensors(m._ptr, int(spec), nbatch, s0.ctypes.data_as(_lib.DP),
                        ctrl.ctypes.data_as(_lib.DP) if ctrl is not None else None,
                        nstep, int(nthread), out.ctypes.data_as(_lib.DP),
                        sens.ctypes.data_as(_lib.DP) if sens is not None else None)
    if rc != 0:
        raise MemoryError("conesim: out of memory in the rollout")
    _warn_rollout(out, nbatch, nstep)
    return (out, sens) if sensors else out


def _warn_rollout(out, nbatch, nstep):
    bad = ~_np.isfinite(out).all(axis=2) if out.size else _np.zeros((nbatch, 0), bool)
    if bad.any():
        import warnings
        which = _np.flatnonzero(bad.any(axis=1))
        b = int(which[0])
        k = int(_np.argmax(bad[b])) + 1
        warnings.warn(f"conesim.rollout: {len(which)} of {nbatch} rollouts diverged (a state "
                      f"NaN or infinite): rollout {b} (the first) from step {k} of {nstep} on",
                      RuntimeWarning, stacklevel=3)


def set(m, name, value):
    """m.set(name, value): one model parameter by name, between steps (cs_set)."""
    m.set(name, value)


def get(m, name):
    """m.get(name): one model parameter by name (cs_get)."""
    return m.get(name)


from .record import Recorder, Metrics  # noqa: E402
from .sweep import sweep  # noqa: E402


def __getattr__(name):
    """conesim.plot and conesim.figures load matplotlib when first used."""
    if name in ("plot", "figures"):
        import importlib
        return importlib.import_module("." + name, __name__)
    raise AttributeError(f"module 'conesim' has no attribute {name!r}")


def _contact_names():
    # cs_contact_field needs a contact: read the names from a scene with one
    m = Model.from_xml_string('<mujoco><worldbody><geom type="plane" size="1 1 1"/>'
                              '<body pos="0 0 0.09"><freejoint/><geom type="sphere" size="0.1"/>'
                              '</body></worldbody></mujoco>', "<contact fields>")
    d = Data(m)
    return _fields(lambda k, f: _clib.cs_contact_field(d._ptr, 0, k, f))


_CONTACT_FIELDS = _contact_names()

# pictures and videos (libconesim_render, loaded when first used)
from .renderer import Camera, Renderer, VideoWriter, render_video  # noqa: E402
