"""The CSVs of `conesim run` and the metrics of `conesim sweep`, from a Python loop, written
and computed by the same C code (sim/output/record.c, sim/output/metrics.c), so the bytes and the numbers
are the CLI's:

    m = conesim.Model.from_xml_path("scenes/incline_slide.xml")
    d = conesim.Data(m)
    with conesim.Recorder(m, d, "t.csv", "trajectory") as traj, \\
         conesim.Recorder(m, d, "c.csv", "contacts") as con:
        met = conesim.Metrics(m, d, 500)
        traj.write(0)                      # the state before the first step
        for k in range(500):
            conesim.step(m, d)
            con.write(k)                   # the step's contacts: found at state k
            met.step()
            traj.write(k + 1)              # the state after it
    met.end()                              # {'verdict': 'slide', 'max_slip': ..., ...}
"""
import ctypes

from . import _lib
from ._lib import lib

# kind -> (header function, rows function); the README's "Output files"
KINDS = {
    "trajectory": ("cs_traj_header", "cs_traj_rows"),   # --record
    "joints": ("cs_joint_header", "cs_joint_rows"),     # --joints
    "contacts": ("cs_contact_header", "cs_contact_rows"),  # --contacts
    "limits": ("cs_limit_header", "cs_limit_rows"),     # --limits
    "solver": ("cs_solver_header", "cs_solver_rows"),   # --solver-log
    "actuators": ("cs_actuator_header", "cs_actuator_rows"),  # --actuators
}

_libc = ctypes.CDLL(None, use_errno=True)
_libc.fopen.restype = ctypes.c_void_p
_libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
_libc.fclose.restype = ctypes.c_int
_libc.fclose.argtypes = [ctypes.c_void_p]
_libc.ferror.restype = ctypes.c_int
_libc.ferror.argtypes = [ctypes.c_void_p]
for _h, _r in KINDS.values():
    _lib._decl(_h, None, _lib.P)
    _lib._decl(_r, None, _lib.P, _lib.P, _lib.P, ctypes.c_long, _lib.D)


class Recorder:
    """One CSV of `conesim run` (kind: trajectory, joints, contacts, limits, solver,
    actuators), its header written at once. write(step) adds the rows of the data's current
    state with `step` and the time `t0 + step * timestep` (t0: d.time when the recorder was
    made), as `conesim run` numbers them: trajectory and joint rows after the step, the
    others (contacts, limits, solver, actuators) for the step just taken from state `step`.
    close() (or the with block's end) finishes the file."""

    def __init__(self, m, d, path, kind="trajectory"):
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        self._m, self._d = m, d
        self._rows = getattr(lib, KINDS[kind][1])
        self._t0 = d.time
        self._h = m.opt.timestep
        self._f = _libc.fopen(str(path).encode(), b"w")
        if not self._f:
            e = ctypes.get_errno()
            raise OSError(e, f"cannot write {path}", str(path))
        getattr(lib, KINDS[kind][0])(self._f)

    def write(self, step, time=None):
        if not self._f:
            raise ValueError("the recorder is closed")
        t = self._t0 + step * self._h if time is None else float(time)
        m, d = self._m, self._d
        self._rows(self._f, m._ptr, d._ptr, int(step), t)

    def close(self):
        f, self._f = self._f, None
        if f:
            bad = _libc.ferror(f)
            if _libc.fclose(f) != 0 or bad:
                raise OSError("conesim: the CSV could not be written completely")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_f", None):
            _libc.fclose(self._f)
            self._f = None


_lib._decl("cs_metrics_new", _lib.P, _lib.P, _lib.P, ctypes.c_long, _lib.D)
_lib._decl("cs_metrics_step", None, _lib.P, _lib.P, _lib.P)
_lib._decl("cs_metrics_end", None, _lib.P, _lib.P, _lib.P)
_lib._decl("cs_metrics_format", None, _lib.P, _lib.I, ctypes.c_char_p, ctypes.c_size_t)
_lib._decl("cs_metrics_free", None, _lib.P)
_lib._decl("cs_metric_name", _lib.S, _lib.I)

METRICS = []
while lib.cs_metric_name(len(METRICS)):
    METRICS.append(lib.cs_metric_name(len(METRICS)).decode())


class Metrics:
    """The metrics of `conesim sweep` and `run --summary` (cli's definitions, the same C
    code): made before the first step of a run of `nsteps`, step() after every step, end()
    after the last. end() returns {name: value}: numbers as floats, 'verdict' as 'stick' or
    'slide' (`slide_speed` as --slide-speed); text() the same as the CSV writes them. The
    'wall' metric is 0: the loop's timing is Python's."""

    def __init__(self, m, d, nsteps, slide_speed=0.005):
        self._m, self._d = m, d
        self._r = lib.cs_metrics_new(m._ptr, d._ptr, int(nsteps), float(slide_speed))
        if not self._r:
            raise MemoryError("conesim: out of memory")
        self._ended = False

    def step(self):
        if self._ended:
            raise ValueError("the metrics have ended")
        lib.cs_metrics_step(self._r, self._m._ptr, self._d._ptr)

    def end(self):
        if not self._ended:
            lib.cs_metrics_end(self._r, self._m._ptr, self._d._ptr)
            self._ended = True
        return {k: (v if k == "verdict" else float(v)) for k, v in self.text().items()}

    def text(self):
        buf = ctypes.create_string_buffer(64)
        out = {}
        for i, name in enumerate(METRICS):
            lib.cs_metrics_format(self._r, i, buf, 64)
            out[name] = buf.value.decode()
        return out

    def __del__(self):
        r = getattr(self, "_r", None)
        if r:
            self._r = None
            lib.cs_metrics_free(r)
