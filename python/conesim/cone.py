"""The friction-cone calculator on the solver's own C code (docs/contact-math.md §2-§7),
as `conesim cone` offers it: membership, maximum dissipation, the pyramid encodings, the
fixed-normal QCQP and the soft cone. Vectors are sequences of floats; results are numpy
arrays and floats."""
import ctypes

import numpy as np

from ._lib import lib, D, I, DP

MAXFRIC = 5
_ZONES = {0: "top", 1: "bottom", 2: "middle"}
_WHERE = {0: "inside", 1: "boundary", 2: "outside"}


class _Check(ctypes.Structure):
    _fields_ = [("scaled_norm", D), ("radius", D), ("radius_defined", I), ("signed_dist", D),
                ("zero_mu_violated", I), ("where", I)]


class _QcqpInfo(ctypes.Structure):
    _fields_ = [("lambda_", D), ("active", I), ("iterations", I), ("feasibility", D),
                ("stationarity", D), ("complementarity", D), ("stationarity_rel", D),
                ("unconstrained_norm", D), ("x_unc", D * MAXFRIC)]


def _decl(name, res, *args):
    f = getattr(lib, name)
    f.restype = res
    f.argtypes = list(args)


_decl("cs_cone_classify", None, I, DP, D, DP, D, ctypes.POINTER(_Check))
_decl("cs_cone_slide", I, I, DP, D, DP, DP, DP)
_decl("cs_pyramid_decode", None, I, DP, DP, DP, DP)
_decl("cs_pyramid_encode_full", I, I, DP, D, DP, DP)
_decl("cs_pyramid_encode_mujoco", None, I, DP, D, DP, DP)
_decl("cs_qcqp_solve", I, I, DP, DP, DP, D, DP, ctypes.POINTER(_QcqpInfo))
_decl("cs_soft_cone", I, I, DP, D, DP, D, DP, DP, DP)


def _vec(x, name, n=None):
    a = np.ascontiguousarray(np.asarray(x, dtype=np.float64).reshape(-1))
    if a.size == 0 or a.size > MAXFRIC * (MAXFRIC if name == "H" else 1) + (1 if name == "j" else 0):
        raise ValueError(f"{name}: {a.size} numbers")
    if n is not None and a.size != n:
        raise ValueError(f"{name}: {a.size} numbers, expected {n}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name}: not finite")
    return a


def _p(a):
    return a.ctypes.data_as(DP)


def check(fn, mu, f, tol=1e-9):
    """Where the friction f (r components) lies against the cone of scales mu at normal
    force fn: a dict with where ('inside', 'boundary', 'outside'), scaled_norm
    ||D^-1 f||, radius ||D^-1 f|| / fn (None when undefined) and signed_dist."""
    mu = _vec(mu, "mu")
    f = _vec(f, "f", mu.size)
    c = _Check()
    lib.cs_cone_classify(mu.size, _p(mu), float(fn), _p(f), float(tol), ctypes.byref(c))
    return {"where": _WHERE[c.where], "scaled_norm": c.scaled_norm,
            "radius": c.radius if c.radius_defined else None, "signed_dist": c.signed_dist}


def slide(fn, mu, v):
    """Maximum-dissipation friction for sliding velocity v: (f, power) with
    f = -fn D^2 v / ||D v|| and power = f.v; f = 0 when D v = 0."""
    mu = _vec(mu, "mu")
    v = _vec(v, "v", mu.size)
    f = np.zeros(mu.size)
    power = ctypes.c_double(0)
    lib.cs_cone_slide(mu.size, _p(mu), float(fn), _p(v), _p(f), ctypes.byref(power))
    return f, power.value


def pyramid_encode(fn, mu, f, mujoco=False):
    """Edge coefficients (alpha_1+, alpha_1-, ...) of (fn, f): the full-domain encoding,
    or MuJoCo's (mujoco=True). Returns (alpha, representable)."""
    mu = _vec(mu, "mu")
    f = _vec(f, "f", mu.size)
    alpha = np.zeros(2 * mu.size)
    if mujoco:
        lib.cs_pyramid_encode_mujoco(mu.size, _p(mu), float(fn), _p(f), _p(alpha))
        return alpha, True
    ok = lib.cs_pyramid_encode_full(mu.size, _p(mu), float(fn), _p(f), _p(alpha))
    return alpha, bool(ok)


def pyramid_decode(mu, alpha):
    """(fn, f) from the edge coefficients: fn = sum of edges, f_j = mu_j (a_j+ - a_j-)."""
    mu = _vec(mu, "mu")
    alpha = _vec(alpha, "alpha", 2 * mu.size) if mu.size <= MAXFRIC else None
    fn = ctypes.c_double(0)
    f = np.zeros(mu.size)
    lib.cs_pyramid_decode(mu.size, _p(mu), _p(alpha), ctypes.byref(fn), _p(f))
    return fn.value, f


def qcqp(H, b, mu, fn):
    """Fixed-normal QCQP: minimise 1/2 x'Hx + b'x subject to ||D^-1 x|| <= fn. Returns a dict
    with x, lambda (the multiplier of H x + b + lambda D^-2 x = 0), active and the
    residuals. ValueError when H is not positive definite or the arguments are bad."""
    mu = _vec(mu, "mu")
    n = mu.size
    H = np.ascontiguousarray(np.asarray(H, dtype=np.float64))
    if H.shape != (n, n):
        raise ValueError(f"H: shape {H.shape}, expected ({n}, {n})")
    b = _vec(b, "b", n)
    x = np.zeros(n)
    info = _QcqpInfo()
    rc = lib.cs_qcqp_solve(n, _p(H), _p(b), _p(mu), float(fn), _p(x), ctypes.byref(info))
    if rc == -1:
        raise ValueError("H is not positive definite")
    if rc < 0:
        raise ValueError("bad arguments (fn and mu must be finite and not negative)")
    return {"x": x, "lambda": info.lambda_, "active": bool(info.active),
            "feasibility": info.feasibility, "stationarity": info.stationarity,
            "complementarity": info.complementarity}


def soft(j, Rn, mu, kappa=None, impratio=1.0):
    """Soft-cone response to the residual j = (j_n, j_t...): (zone, f, cost, hessian).
    kappa defaults to MuJoCo's Rn mu_1^2 / impratio."""
    mu = _vec(mu, "mu")
    j = _vec(j, "j", mu.size + 1)
    if kappa is None:
        kappa = Rn * mu[0] ** 2 / impratio
    f = np.zeros(j.size)
    hess = np.zeros((j.size, j.size))
    cost = ctypes.c_double(0)
    z = lib.cs_soft_cone(mu.size, _p(j), float(Rn), _p(mu), float(kappa), _p(f),
                         ctypes.byref(cost), _p(hess))
    return _ZONES[z], f, cost.value, hess
