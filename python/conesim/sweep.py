"""Parameter sweeps and batched rollouts on this machine or on a cluster engine.

`sweep` runs `conesim sweep`'s grid from Python, with the same runs and metrics (a row equals
the command's row, wall time aside). Given `client`, a dask.distributed Client (or any
concurrent.futures executor), the runs and rollout chunks go to its workers: each worker
loads the scene itself, so the scene path must be readable there, and conesim installed."""

import itertools as _it
import os as _os

import numpy as _np

from . import _lib

_lib._decl("cs_set_knows", _lib.I, _lib.S)
_clib = _lib.lib

# Element geometry: edited into the MJCF before compiling, as the command does, so that what
# the compiler derives from it (inertias, frames) follows.
_GEOMETRY = ("pos", "quat", "euler", "axisangle", "xyaxes", "zaxis", "fromto", "size")


def _recompiles(name):
    """Whether a name takes the MJCF path (the command's rule, cli/overrides.c)."""
    if name.startswith("mjcf."):
        return True
    if name.startswith(("ctrl.", "option.", "opt.")) or "." not in name:
        return False
    parts = name.split("[", 1)[0].split(".")
    if len(parts) < 3:
        return False
    if parts[-1] in _GEOMETRY:
        return True
    return not _clib.cs_set_knows(name.encode())


def _values(name, spec):
    """A --vary value list: a sequence of numbers, or 'START:STOP:COUNT' as the command."""
    if isinstance(spec, str):
        try:
            start, stop, count = spec.split(":")
            start, stop, count = float(start), float(stop), int(count)
        except ValueError:
            raise ValueError(f"vary[{name!r}]: {spec!r} is not START:STOP:COUNT") from None
        if count < 1:
            raise ValueError(f"vary[{name!r}]: COUNT must be >= 1")
        if count == 1:
            return [start]
        # the command's points: the ends exact, the rest start + (stop - start) i / (n - 1)
        return [start if i == 0 else stop if i == count - 1 else
                start + (stop - start) * i / (count - 1) for i in range(count)]
    vals = [float(v) for v in _np.atleast_1d(_np.asarray(spec, dtype=_np.float64))]
    if not vals:
        raise ValueError(f"vary[{name!r}]: no values")
    return vals


def _text(v):
    if isinstance(v, str):
        return v
    if _np.ndim(v):
        return " ".join(repr(float(x)) for x in _np.ravel(v))
    return repr(float(v))


def _ctrl(m, d, name, value):
    key = name[5:]
    i = _clib.cs_name2id_ctrl(m._ptr, key.encode())  # a control's name or index
    if not 0 <= i < m.nu:
        raise KeyError(f"{name}: no control {key!r}")
    d.ctrl[i] = float(value)


def _run(job):
    """One run of the grid; picklable, so it can go to another process or machine."""
    from . import Model, Data, Metrics, reset_data_keyframe
    (scene, sets, names, values, steps, duration, key, slide_speed) = job
    edits = {k: _text(v) for k, v in sets if _recompiles(k)}
    edits.update({k: _text(v) for k, v in zip(names, values) if _recompiles(k)})
    m = Model.from_xml_path(scene, edits)
    for k, v in list(sets) + list(zip(names, values)):
        if not _recompiles(k) and not k.startswith("ctrl."):
            m.set(k, v)
    if key is not None and key >= m.nkey:
        raise ValueError(f"key {key}: the scene has {m.nkey} keyframe(s)")
    if steps is None:
        n = int(round((1.0 if duration is None else duration) / m.opt.timestep))
    else:
        n = int(steps)
    d = Data(m)
    k = (0 if m.nkey else None) if key is None else (None if key < 0 else key)
    if k is not None:
        reset_data_keyframe(m, d, k)
    for name, v in list(sets) + list(zip(names, values)):
        if name.startswith("ctrl."):
            _ctrl(m, d, name, v)
    met = Metrics(m, d, n, slide_speed)
    cstep, check = _clib.cs_step, _clib.cs_check_finite
    mp, dp = m._ptr, d._ptr
    diverged = 0
    for i in range(n):
        last = d.qpos.copy()
        cstep(mp, dp)
        if check(mp, dp) >= 0:
            d.qpos[:] = last  # as the command: the outcome of the last finite state
            diverged = i + 1
            break
        met.step()
    met.end()
    return met.text(), diverged


def _map(client, fn, jobs):
    if client is None:
        return [fn(j) for j in jobs]
    if hasattr(client, "gather"):  # dask.distributed
        return client.gather(client.map(fn, jobs, pure=False))
    return list(client.map(fn, jobs))  # concurrent.futures


def sweep(scene, vary, *, steps=None, duration=None, key=None, set=None, metrics=None,
          slide_speed=0.005, client=None):
    """Runs `scene` once per combination of the `vary` values (the last name changes
    fastest), as `conesim sweep SCENE --vary ...`, and returns one dict a run: the varied
    values, then the metrics (numbers as floats; 'verdict' 'stick' or 'slide').

    vary: {name: values}, each values a sequence of numbers or 'START:STOP:COUNT'; a name is
    anything `run --set` takes (option.impratio, geom.NAME.friction[0], body.NAME.mass,
    geom.NAME.size[0] recompiled per run, ctrl.NAME). steps or duration (default 1 s), key
    (default the first keyframe if any; -1 none), set ({name: value} for every run, before
    the varied ones), metrics (names; default all but wall, which Python does not time),
    slide_speed as --slide-speed. client: None (here, one run after another), a
    dask.distributed Client, or a concurrent.futures executor: the runs go to its workers
    and the rows are the same, in the same order. A run that diverges gives a
    RuntimeWarning; its row describes its last finite state."""
    from .record import METRICS
    if not isinstance(vary, dict) or not vary:
        raise ValueError("vary: give {name: values} with at least one name")
    if steps is not None and duration is not None:
        raise ValueError("give steps or duration, not both")
    names = [str(k) for k in vary]
    grid = [_values(k, v) for k, v in vary.items()]
    want = [x for x in METRICS if x != "wall"] if metrics is None else list(metrics)
    for x in want:
        if x not in METRICS:
            raise ValueError(f"unknown metric {x!r} (one of {', '.join(METRICS)})")
    sets = tuple((str(k), v) for k, v in (set or {}).items())
    path = _os.path.abspath(_os.fspath(scene))
    combos = list(_it.product(*grid))
    jobs = [(path, sets, names, c, steps, duration, key, slide_speed) for c in combos]
    results = _map(client, _run, jobs)
    rows, bad = [], []
    for c, (text, diverged) in zip(combos, results):
        row = dict(zip(names, c))
        for x in want:
            row[x] = text[x] if x == "verdict" else float(text[x])
        rows.append(row)
        if diverged:
            bad.append((c, diverged))
    if bad:
        import warnings
        c, k = bad[0]
        warnings.warn(f"conesim.sweep: {len(bad)} of {len(rows)} runs diverged: the first at "
                      f"{dict(zip(names, c))}, step {k}; their rows describe the last finite "
                      "state", RuntimeWarning, stacklevel=2)
    return rows


def _rollout_chunk(job):
    from . import rollout
    m, s0, nstep, ctrl, spec = job
    return rollout(m, s0, nstep, control=ctrl, nthread=1, spec=spec)


def distributed_rollout(m, s0, nstep, ctrl, spec, client, chunks):
    """rollout(..., client=): the batch in `chunks` parts, one task each (the model is
    pickled to the workers); the states are the same bit for bit as a local rollout."""
    nbatch = s0.shape[0]
    if chunks is None:
        try:
            chunks = max(1, len(client.scheduler_info()["workers"]))
        except Exception:
            chunks = _os.cpu_count() or 1
    chunks = max(1, min(int(chunks), nbatch))
    edges = [round(i * nbatch / chunks) for i in range(chunks + 1)]
    jobs = [(m, s0[a:b], nstep, None if ctrl is None else ctrl[a:b], spec)
            for a, b in zip(edges, edges[1:]) if b > a]
    parts = _map(client, _rollout_chunk, jobs)
    return _np.concatenate(parts, axis=0) if parts else _np.empty((0, nstep, s0.shape[1]))


__all__ = ["sweep"]
