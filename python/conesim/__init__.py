"""conesim from Python, with the names of MuJoCo's bindings.

    m = conesim.Model.from_xml_path("scenes/sphere_plane.xml")
    d = conesim.Data(m)
    conesim.step(m, d, 500)
    conesim.contact_force(m, d, 0)[0]   # the normal force, 19.62 N

Arrays are numpy views of the C memory. Every view keeps its Model or Data alive, so C
memory is freed only when nothing in Python can reach it.
"""
import ctypes
import os

import numpy as np

from . import _lib
from ._lib import lib

__all__ = ["Model", "Data", "step", "forward", "reset_data", "reset_data_keyframe",
           "contact_force", "energy", "cone_capacity", "version", "__version__"]

__version__ = lib.cs_version().decode()

from . import cone  # noqa: E402  the cone calculator: conesim.cone.check, .slide, ...

_CTYPE = {0: np.intc, 1: np.float64}
_CONTACT_FIELDS = None  # name -> index, filled at import below
_ERRSZ = 1024


def version():
    return lib.cs_version().decode()


class _Holder:
    """Exposes C memory to numpy and keeps its owner alive for as long as the array lives."""

    def __init__(self, owner, ptr, shape, strides, dtype, readonly):
        self._owner = owner
        self.__array_interface__ = {
            "shape": shape, "typestr": np.dtype(dtype).str, "strides": strides,
            "data": (ptr, readonly), "version": 3}


def _view(owner, f, readonly=False):
    dtype = _CTYPE[f.type]
    item = np.dtype(dtype).itemsize
    if f.ndim == 1:
        shape, strides = (f.shape[0],), None
    else:
        rows, cols = f.shape[0], f.shape[1]
        rowstride = f.stride or cols * item
        if cols == 1:
            shape, strides = (rows,), (rowstride,)
        else:
            shape, strides = (rows, cols), (rowstride, item)
    if not f.ptr or 0 in shape:  # nothing to point at
        out = np.empty(shape, dtype)
        out.flags.writeable = False
        return out
    return np.asarray(_Holder(owner, f.ptr, shape, strides, dtype, readonly))


def _scalar(f):
    ct = ctypes.c_int if f.type == 0 else ctypes.c_double
    return ct.from_address(f.ptr)


def _fields(getter):
    """name -> index of every field the getter describes."""
    out, f, k = {}, _lib.Field(), 0
    while getter(k, ctypes.byref(f)) == 0:
        out[f.name.decode()] = k
        k += 1
    return out


def _check_type(x, cls, what):
    if not isinstance(x, cls):
        raise TypeError(f"{what} must be a conesim.{cls.__name__}, not {type(x).__name__}")


def _assign(view, value, name):
    arr = np.asarray(value)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name}: expected numbers, got {arr.dtype}")
    if arr.shape != view.shape:
        raise ValueError(f"{name}: expected shape {view.shape}, got {arr.shape}")
    view[...] = arr


class _Named:
    """m.geom('floor') / m.body(1): the id and the name of one element."""

    def __init__(self, kind, id, name):
        self.id, self.name, self._kind = id, name, kind

    def __repr__(self):
        return f"<{self._kind} {self.id} {self.name!r}>"


# ---- options ----------------------------------------------------------------------------
_KEYWORDS = {"cone": ("pyramidal", "elliptic"), "solver": ("pgs", "cg", "newton"),
             "pgs_blocks": ("contact", "pair"), "contact": ("soft", "coulomb"),
             "integrator": ("euler", "rk4", "implicit", "implicitfast")}


class Option:
    """m.opt: writable until a Data is made from the model (the model is fixed after)."""

    def __init__(self, model):
        object.__setattr__(self, "_model", model)

    def _field(self, name):
        m = self._model
        k = m._opt_fields.get(name)
        if k is None:
            raise AttributeError(f"Option has no field {name!r}")
        f = _lib.Field()
        lib.cs_option_field(m._optptr(), k, ctypes.byref(f))
        return f

    def __getattr__(self, name):
        f = self._field(name)
        if f.ndim == 0:
            return _scalar(f).value
        return _view(self._model, f, readonly=self._model._frozen)

    def __setattr__(self, name, value):
        m = self._model
        f = self._field(name)
        if m._frozen:
            raise RuntimeError("options are fixed once a Data has been made from the model")
        if name in ("disableflags", "enableflags"):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise TypeError(f"opt.{name} must be an int")
            _scalar(f).value = int(value)
            return
        if f.ndim == 0:
            if isinstance(value, str):
                text = value
            elif isinstance(value, (bool, np.bool_)):
                raise TypeError(f"opt.{name} must be a number")
            elif name in _KEYWORDS and isinstance(value, (int, np.integer)):
                words = _KEYWORDS[name]
                if not 0 <= value < len(words):
                    raise ValueError(f"opt.{name}: {value} is not one of 0..{len(words) - 1}")
                text = words[value]
            elif f.type == 0 and isinstance(value, (int, np.integer)):
                text = str(int(value))
            elif f.type == 1 and isinstance(value, (int, float, np.integer, np.floating)):
                text = repr(float(value))
            else:
                raise TypeError(f"opt.{name}: expected a number, got {type(value).__name__}")
        else:
            arr = np.asarray(value, dtype=object)
            if arr.shape != (f.shape[0],):
                raise ValueError(f"opt.{name}: expected shape ({f.shape[0]},), got {arr.shape}")
            arr = np.asarray(value)
            if arr.dtype.kind not in "iuf":
                raise TypeError(f"opt.{name}: expected numbers, got {arr.dtype}")
            text = " ".join(repr(float(x)) for x in arr)
        err = ctypes.create_string_buffer(_ERRSZ)
        if lib.cs_option_set(m._optptr(), name.encode(), text.encode(), err, _ERRSZ) != 0:
            raise ValueError(err.value.decode())


# ---- model ------------------------------------------------------------------------------
class Model:
    """A compiled scene (cs_model). Made by from_xml_path or from_xml_string."""

    def __init__(self, *a, **k):
        raise TypeError("use conesim.Model.from_xml_path(path) or from_xml_string(xml)")

    @classmethod
    def _wrap(cls, ptr):
        self = object.__new__(cls)
        self._ptr = ptr
        self._frozen = False
        self._fields = _fields(lambda k, f: lib.cs_model_field(ptr, k, f))
        self._opt_fields = _fields(lambda k, f: lib.cs_option_field(self._optptr(), k, f))
        self.opt = Option(self)
        return self

    @classmethod
    def from_xml_path(cls, path):
        if not isinstance(path, (str, bytes, os.PathLike)):
            raise TypeError(f"path must be a str or os.PathLike, not {type(path).__name__}")
        err = ctypes.create_string_buffer(_ERRSZ)
        ptr = lib.cs_load_xml(os.fsencode(path), None, err, _ERRSZ)
        if not ptr:
            raise ValueError(err.value.decode(errors="replace"))
        return cls._wrap(ptr)

    @classmethod
    def from_xml_string(cls, xml, name="<string>"):
        if not isinstance(xml, str):
            raise TypeError(f"xml must be a str, not {type(xml).__name__}")
        if "\0" in xml:
            raise ValueError(f"{name}: the scene contains a NUL character")
        err = ctypes.create_string_buffer(_ERRSZ)
        ptr = lib.cs_load_xml_string(xml.encode(), name.encode(), None, err, _ERRSZ)
        if not ptr:
            raise ValueError(err.value.decode(errors="replace"))
        return cls._wrap(ptr)

    def _optptr(self):
        return lib.cs_model_option(self._ptr)

    def __getattr__(self, name):
        k = self.__dict__.get("_fields", {}).get(name)
        if k is None:
            raise AttributeError(f"Model has no field {name!r}")
        f = _lib.Field()
        lib.cs_model_field(self._ptr, k, ctypes.byref(f))
        if f.ndim == 0:
            return _scalar(f).value
        return _view(self, f, readonly=True)

    def _lookup(self, kind, key, n, names_fn, id2name_fn):
        if isinstance(key, str):
            i = names_fn(self._ptr, key.encode())
            if i < 0:
                raise KeyError(f"no {kind} named {key!r}")
            return _Named(kind, i, key)
        if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
            if not 0 <= key < n:
                raise IndexError(f"{kind} index {key} out of range 0..{n - 1}")
            name = id2name_fn(self._ptr, int(key))  # as MuJoCo: "" when unnamed
            return _Named(kind, int(key), name.decode() if name is not None else "")
        raise TypeError(f"{kind} key must be a name or an index, not {type(key).__name__}")

    def geom(self, key):
        return self._lookup("geom", key, self.ngeom, lib.cs_name2id_geom, lib.cs_id2name_geom)

    def body(self, key):
        return self._lookup("body", key, self.nbody, lib.cs_name2id_body, lib.cs_id2name_body)

    def joint(self, key):
        return self._lookup("joint", key, self.njnt, lib.cs_name2id_joint, lib.cs_id2name_joint)

    jnt = joint

    def actuator(self, key):
        return self._lookup("actuator", key, self.nu, lib.cs_name2id_actuator,
                            lib.cs_id2name_actuator)

    def __del__(self):
        ptr = self.__dict__.get("_ptr")
        if ptr:
            self._ptr = None
            lib.cs_free_model(ptr)


# ---- data -------------------------------------------------------------------------------
class Contact:
    """d.contact[i]: read each time from the data, so it follows the contact array."""

    def __init__(self, data, i):
        self._data, self._i = data, i

    def __getattr__(self, name):
        d = self.__dict__["_data"]
        k = _CONTACT_FIELDS.get(name)
        if k is None:
            raise AttributeError(f"Contact has no field {name!r}")
        f = _lib.Field()
        if lib.cs_contact_field(d._ptr, self._i, k, ctypes.byref(f)) != 0:
            raise IndexError(f"contact {self._i} is gone (ncon is {d.ncon})")
        if f.ndim == 0:
            return _scalar(f).value
        return _view(d, f, readonly=True)


class _Contacts:
    def __init__(self, data):
        self._data = data

    def __len__(self):
        return self._data.ncon

    def __getitem__(self, i):
        if not isinstance(i, (int, np.integer)) or isinstance(i, bool):
            raise TypeError(f"contact index must be an int, not {type(i).__name__}")
        n = self._data.ncon
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"contact index out of range (ncon is {n})")
        return Contact(self._data, int(i))

    def __iter__(self):
        return (self[i] for i in range(len(self)))


class Data:
    """Everything a step changes (cs_data), made from a Model: conesim.Data(m).

    It starts from the reference pose qpos0 (zero velocity), as MuJoCo's mj_makeData, and
    applies no keyframe. `conesim run` starts from the scene's first <key> by default: to
    start where it does, call conesim.reset_data_keyframe(m, d, 0) (then the two agree bit
    for bit; examples/keyframe_parity.py)."""

    def __init__(self, model):
        _check_type(model, Model, "model")
        # the contact array gets its full room now, so it never moves: a view of a
        # contact taken before a step still points at live memory after it
        f = _lib.Field()
        lib.cs_model_field(model._ptr, model._fields["ncon_reserve"], ctypes.byref(f))
        _scalar(f).value = model.nconmax
        ptr = lib.cs_make_data(model._ptr)
        if not ptr:
            raise MemoryError("conesim: out of memory making the data")
        model._frozen = True
        self.__dict__.update(_ptr=ptr, _model=model,
                             _fields=_fields(lambda k, f: lib.cs_data_field(model._ptr, ptr, k, f)))

    @property
    def model(self):
        return self._model

    @property
    def contact(self):
        return _Contacts(self)

    def _field(self, name):
        k = self.__dict__["_fields"].get(name)
        if k is None:
            raise AttributeError(f"Data has no field {name!r}")
        f = _lib.Field()
        lib.cs_data_field(self._model._ptr, self._ptr, k, ctypes.byref(f))
        return f

    def __getattr__(self, name):
        f = self._field(name)
        if f.ndim == 0:
            return _scalar(f).value
        return _view(self, f, readonly=name in ("geom_xpos", "geom_xmat"))

    def __setattr__(self, name, value):
        f = self._field(name)
        if f.ndim == 0:
            if name != "time":
                raise AttributeError(f"Data.{name} is read-only")
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
                raise TypeError("Data.time must be a number")
            _scalar(f).value = float(value)
            return
        _assign(_view(self, f), value, name)

    def __del__(self):
        ptr = self.__dict__.get("_ptr")
        if ptr:
            self.__dict__["_ptr"] = None
            lib.cs_free_data(ptr)


# ---- functions --------------------------------------------------------------------------
def _pair(m, d):
    _check_type(m, Model, "m")
    _check_type(d, Data, "d")
    if d._model is not m:
        raise ValueError("d was made from another model")


def step(m, d, nstep=1):
    _pair(m, d)
    if isinstance(nstep, bool) or not isinstance(nstep, (int, np.integer)):
        raise TypeError(f"nstep must be an int, not {type(nstep).__name__}")
    if nstep < 0:
        raise ValueError("nstep must be >= 0")
    for _ in range(int(nstep)):
        lib.cs_step(m._ptr, d._ptr)


def forward(m, d):
    _pair(m, d)
    lib.cs_forward(m._ptr, d._ptr)


def reset_data(m, d):
    _pair(m, d)
    lib.cs_reset(m._ptr, d._ptr)


def reset_data_keyframe(m, d, key):
    _pair(m, d)
    if isinstance(key, bool) or not isinstance(key, (int, np.integer)):
        raise TypeError("key must be an int")
    if lib.cs_reset_key(m._ptr, d._ptr, int(key)) != 0:
        raise ValueError(f"no keyframe {key} (nkey is {m.nkey})")


def contact_force(m, d, i):
    """Contact i's force in its contact frame (normal, t1, t2, spin, roll1, roll2)."""
    _pair(m, d)
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
        raise TypeError(f"contact index must be an int, not {type(i).__name__}")
    if not 0 <= i < d.ncon:
        raise ValueError(f"contact index {i} out of range (ncon is {d.ncon})")
    f = np.zeros(6)
    lib.cs_contact_force(m._ptr, d._ptr, int(i), f.ctypes.data_as(_lib.DP))
    return f


def energy(m, d):
    """(potential, kinetic) energy."""
    _pair(m, d)
    return (lib.cs_energy_potential(m._ptr, d._ptr), lib.cs_energy_kinetic(m._ptr, d._ptr))


def cone_capacity(fn, mu1, mu2, alpha):
    """Friction capacity along tangent direction alpha (radians) of the elliptic cone."""
    return lib.cs_cone_capacity(float(fn), float(mu1), float(mu2), float(alpha))


def _contact_names():
    # cs_contact_field needs a contact: read the names from a scene with one
    m = Model.from_xml_string('<mujoco><worldbody><geom type="plane" size="1 1 1"/>'
                              '<body pos="0 0 0.09"><freejoint/><geom type="sphere" size="0.1"/>'
                              '</body></worldbody></mujoco>', "<contact fields>")
    d = Data(m)
    return _fields(lambda k, f: lib.cs_contact_field(d._ptr, 0, k, f))


_CONTACT_FIELDS = _contact_names()
