"""The friction-cone figures of docs/contact-math.md, computed with conesim.cone (the
solver's own C code) and drawn with matplotlib.

    conesim.figures.cone(out="cone.png", fn=20, mu=(0.8, 0.4))
    python3 -m conesim.figures qcqp --out qcqp.png --data qcqp.csv

Every figure returns the numbers behind it as a list of (name, value) pairs and writes them
to `data` (CSV: name,value) when given.
"""
import argparse
import math
import sys

import numpy as np

from . import cone as _cone
from . import _draw
from ._draw import DrawError, check_out, colormap, fail, figure, save, write_data

NAMES = ("cone", "select", "pyramid", "qcqp", "zones")


def _ellipse(mu1, mu2, fn, n=241):
    t = np.linspace(0, 2 * np.pi, n)
    return mu1 * fn * np.cos(t), mu2 * fn * np.sin(t)


def _pair(x, name):
    x = tuple(float(v) for v in x)
    if len(x) != 2:
        raise ValueError(f"{name}: expected 2 numbers, got {len(x)}")
    return x


def _positive(x, name):
    if not (x > 0 and math.isfinite(x)):
        raise ValueError(f"{name} must be a positive number, got {x}")


def cone(out, data=None, fn=20.0, mu=(0.8, 0.4), f=(9.6, 6.4), sections=4):
    """Force space: f_n up, the friction components across; the elliptic cone with
    cross-sections, and the force f at the top section classified by conesim.cone.check."""
    mu1, mu2 = _pair(mu, "mu")
    f = _pair(f, "f")
    _positive(fn, "fn")
    chk = _cone.check(fn, (mu1, mu2), f)
    fig = figure((6.4, 5.6))
    ax = fig.add_subplot(projection="3d")
    t = np.linspace(0, 2 * np.pi, 73)
    h = np.linspace(0, fn, 2)
    T, Hh = np.meshgrid(t, h)
    ax.plot_surface(mu1 * Hh * np.cos(T), mu2 * Hh * np.sin(T), Hh, color="tab:blue",
                    alpha=0.18, linewidth=0)
    rows = [("fn", fn), ("mu1", mu1), ("mu2", mu2)]
    cmap = colormap("viridis")
    for k in range(1, sections + 1):
        hk = fn * k / sections
        x, y = _ellipse(mu1, mu2, hk)
        colour = cmap(k / (sections + 1))
        ax.plot(x, y, hk, color=colour, lw=1.6, label=f"section f_n = {hk:g} N")
        rows += [(f"section{k}.fn", hk), (f"section{k}.semi_axis1", mu1 * hk),
                 (f"section{k}.semi_axis2", mu2 * hk)]
    ax.plot([0, 0], [0, 0], [0, fn * 1.1], color="k", lw=1)
    ax.scatter([f[0]], [f[1]], [fn], color="tab:red", s=30, depthshade=False,
               label=f"f = ({f[0]:g}, {f[1]:g}) at f_n = {fn:g}: {chk['where']}")
    ax.set_xlabel("f_t1 (N)")
    ax.set_ylabel("f_t2 (N)")
    ax.set_zlabel("f_n (N)")
    r = max(mu1, mu2) * fn
    ax.set_xlim(-r, r)
    ax.set_ylim(-r, r)
    ax.set_zlim(0, fn * 1.1)
    ax.set_title(f"Elliptic friction cone, mu = ({mu1:g}, {mu2:g})")
    ax.legend(loc="upper left", fontsize=7)
    rows += [("f1", f[0]), ("f2", f[1]), ("where", chk["where"]), ("radius", chk["radius"]),
             ("signed_dist", chk["signed_dist"])]
    save(fig, out)
    write_data(data, rows)
    return rows


def select(out, data=None, fn=20.0, mu=(0.8, 0.4), f=(9.6, 6.4), v=(1.0, 1.0)):
    """One cross-section: the equilibrium force f tested against it, and the
    maximum-dissipation force for sliding velocity v beside the direction -v."""
    mu1, mu2 = _pair(mu, "mu")
    f, v = _pair(f, "f"), _pair(v, "v")
    _positive(fn, "fn")
    chk = _cone.check(fn, (mu1, mu2), f)
    fs, power = _cone.slide(fn, (mu1, mu2), v)
    fig = figure((6.4, 4.6))
    ax = fig.add_subplot()
    x, y = _ellipse(mu1, mu2, fn)
    ax.fill(x, y, color="tab:blue", alpha=0.12)
    ax.plot(x, y, color="tab:blue", lw=1.8, label=f"section at f_n = {fn:g} N")
    ax.plot([f[0]], [f[1]], "o", color="tab:green", ms=7,
            label=f"equilibrium force ({f[0]:g}, {f[1]:g}): {chk['where']}")
    ax.annotate("", xy=fs, xytext=(0, 0),
                arrowprops=dict(arrowstyle="-|>", color="tab:red", lw=2))
    ax.plot([fs[0]], [fs[1]], "o", color="tab:red", ms=6,
            label=f"max dissipation ({fs[0]:.2f}, {fs[1]:.2f}), P = {power:.2f} W")
    vn = math.hypot(*v)
    if vn > 0:
        c, sn = -v[0] / vn, -v[1] / vn  # drawn as long as the cone's capacity along -v
        s = fn / math.sqrt((c / mu1) ** 2 + (sn / mu2) ** 2) / vn
        ax.annotate("", xy=(-v[0] * s, -v[1] * s), xytext=(0, 0),
                    arrowprops=dict(arrowstyle="-|>", color="tab:orange", lw=1.6, ls="--"))
        ax.plot([], [], "--", color="tab:orange", label=f"-v, v = ({v[0]:g}, {v[1]:g}) m/s")
    ax.axhline(0, color="0.6", lw=0.6)
    ax.axvline(0, color="0.6", lw=0.6)
    ax.set_aspect("equal")
    ax.set_xlabel("f_t1 (N)")
    ax.set_ylabel("f_t2 (N)")
    ax.set_title(f"Cross-section, mu = ({mu1:g}, {mu2:g})")
    ax.legend(loc="upper left", fontsize=7, bbox_to_anchor=(0, -0.12), ncol=1)
    ax.grid(alpha=0.3)
    rows = [("fn", fn), ("mu1", mu1), ("mu2", mu2), ("f1", f[0]), ("f2", f[1]),
            ("where", chk["where"]), ("radius", chk["radius"]), ("v1", v[0]), ("v2", v[1]),
            ("slide_f1", fs[0]), ("slide_f2", fs[1]), ("slide_power", power),
            ("slide_angle_deg", math.degrees(math.atan2(fs[1], fs[0]))),
            ("minus_v_angle_deg", math.degrees(math.atan2(-v[1], -v[0])))]
    save(fig, out)
    write_data(data, rows)
    return rows


def pyramid(out, data=None, fn=1.0, mu=(1.0, 1.0), f=(0.3, 0.4)):
    """The disk (elliptic section) and the diamond (pyramidal section); f encoded into edge
    coefficients with the full-domain encoding and decoded back, the edges drawn scaled."""
    mu1, mu2 = _pair(mu, "mu")
    f = _pair(f, "f")
    _positive(fn, "fn")
    alpha, ok = _cone.pyramid_encode(fn, (mu1, mu2), f)
    dfn, df = _cone.pyramid_decode((mu1, mu2), alpha)
    amj, _ = _cone.pyramid_encode(fn, (mu1, mu2), f, mujoco=True)
    mfn, mf = _cone.pyramid_decode((mu1, mu2), amj)
    fig = figure((6.4, 5.4))
    ax = fig.add_subplot()
    x, y = _ellipse(mu1, mu2, fn)
    ax.fill(x, y, color="tab:blue", alpha=0.10)
    ax.plot(x, y, color="tab:blue", lw=1.6, label="elliptic section")
    dx = [mu1 * fn, 0, -mu1 * fn, 0, mu1 * fn]
    dy = [0, mu2 * fn, 0, -mu2 * fn, 0]
    ax.fill(dx, dy, color="tab:purple", alpha=0.12)
    ax.plot(dx, dy, color="tab:purple", lw=1.6, label="pyramidal section")
    edges = [(mu1, 0), (-mu1, 0), (0, mu2), (0, -mu2)]  # alpha order 1+, 1-, 2+, 2-
    for k, ((ex, ey), a) in enumerate(zip(edges, alpha)):
        ax.annotate("", xy=(ex * a, ey * a), xytext=(0, 0),
                    arrowprops=dict(arrowstyle="-|>", color="tab:gray", lw=1.4))
        ax.text(ex * a * 1.08 + 0.02 * fn, ey * a * 1.08 + 0.02 * fn,
                f"a{k // 2 + 1}{'+-'[k % 2]} = {a:.3f}", fontsize=7, color="0.3")
    ax.plot([f[0]], [f[1]], "o", color="tab:red", ms=7,
            label=f"f = ({f[0]:g}, {f[1]:g})")
    ax.plot([df[0]], [df[1]], "x", color="k", ms=10, mew=2,
            label=f"decoded ({df[0]:.3g}, {df[1]:.3g}), f_n = {dfn:.3g}")
    ax.plot([mf[0]], [mf[1]], "+", color="tab:orange", ms=12, mew=2,
            label=f"MuJoCo's encoding decoded ({mf[0]:.3g}, {mf[1]:.3g})")
    ax.set_aspect("equal")
    ax.grid(alpha=0.3)
    ax.set_xlabel("f_t1")
    ax.set_ylabel("f_t2")
    ax.set_title(f"Disk and diamond at f_n = {fn:g}, mu = ({mu1:g}, {mu2:g})")
    ax.legend(loc="upper left", fontsize=7, bbox_to_anchor=(0, -0.12))
    rows = [("fn", fn), ("mu1", mu1), ("mu2", mu2), ("f1", f[0]), ("f2", f[1]),
            ("representable", int(ok))]
    rows += [(f"alpha{k // 2 + 1}{'+-'[k % 2]}", a) for k, a in enumerate(alpha)]
    rows += [("decoded_fn", dfn), ("decoded_f1", df[0]), ("decoded_f2", df[1])]
    rows += [(f"mujoco_alpha{k // 2 + 1}{'+-'[k % 2]}", a) for k, a in enumerate(amj)]
    rows += [("mujoco_decoded_fn", mfn), ("mujoco_decoded_f1", mf[0]),
             ("mujoco_decoded_f2", mf[1])]
    save(fig, out)
    write_data(data, rows)
    return rows


def qcqp(out, data=None, H=((1.0, 0.0), (0.0, 4.0)), b=(-2.0, -2.0), mu=(1.0, 0.5), fn=1.0):
    """Left: contours of 1/2 x'Hx + b'x, the cone's ellipse and the optimum where a contour
    touches it. Right: psi(lambda) = ||y(lambda)||^2 - f_n^2 and its root, the multiplier."""
    H = np.asarray(H, dtype=float).reshape(2, 2)
    b = np.asarray(_pair(b, "b"))
    mu1, mu2 = _pair(mu, "mu")
    _positive(fn, "fn")
    sol = _cone.qcqp(H, b, (mu1, mu2), fn)
    x, lam = sol["x"], sol["lambda"]
    xu = -np.linalg.solve(H, b)
    obj = lambda p: 0.5 * p @ H @ p + b @ p  # noqa: E731
    fig = figure((11, 4.8))
    ax, bx = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    span = max(abs(xu[0]), abs(xu[1]), mu1 * fn, mu2 * fn) * 1.4
    g = np.linspace(-span, span, 201)
    X, Y = np.meshgrid(g, g)
    Z = 0.5 * (H[0, 0] * X * X + 2 * H[0, 1] * X * Y + H[1, 1] * Y * Y) + b[0] * X + b[1] * Y
    ax.contourf(X, Y, Z, levels=24, cmap="Blues_r", alpha=0.55)
    ax.contour(X, Y, Z, levels=24, colors="0.45", linewidths=0.5)
    ax.contour(X, Y, Z, levels=[obj(x)], colors="tab:red", linewidths=1.6, linestyles="solid")
    ex, ey = _ellipse(mu1, mu2, fn)
    ax.plot(ex, ey, color="k", lw=2, label="||D^-1 x|| = f_n")
    ax.plot([xu[0]], [xu[1]], "s", color="tab:orange", label=f"unconstrained ({xu[0]:.3g}, {xu[1]:.3g})")
    ax.plot([x[0]], [x[1]], "o", color="tab:red", ms=7, label=f"optimum ({x[0]:.4f}, {x[1]:.4f})")
    ax.set_aspect("equal")
    ax.set_xlabel("x1")
    ax.set_ylabel("x2")
    ax.set_title("Objective contours and the cone's ellipse")
    ax.legend(loc="lower left", fontsize=7)
    # psi on the scaled problem: B = D H D, c = D b, (B + lambda I) y = -c
    D = np.diag([mu1, mu2])
    B, c = D @ H @ D, D @ b
    lmax = max(3 * lam, 1.0) + 1.0
    ls = np.linspace(0, lmax, 400)
    psi = [float(np.sum(np.linalg.solve(B + li * np.eye(2), -c) ** 2) - fn * fn) for li in ls]
    bx.plot(ls, psi, color="tab:blue", lw=2, label="psi(lambda) = ||y||^2 - f_n^2")
    bx.axhline(0, color="0.5", lw=0.8)
    bx.plot([lam], [0], "o", color="tab:red", ms=7, label=f"root lambda = {lam:.10f}")
    bx.set_xlabel("lambda")
    bx.set_ylabel("psi")
    bx.set_title("The multiplier")
    bx.grid(alpha=0.3)
    bx.legend(fontsize=8)
    rows = [("H11", H[0, 0]), ("H12", H[0, 1]), ("H21", H[1, 0]), ("H22", H[1, 1]),
            ("b1", b[0]), ("b2", b[1]), ("mu1", mu1), ("mu2", mu2), ("fn", fn),
            ("unconstrained_x1", xu[0]), ("unconstrained_x2", xu[1]),
            ("active", int(sol["active"])), ("lambda", lam), ("x1", x[0]), ("x2", x[1]),
            ("objective", obj(x)), ("feasibility", sol["feasibility"]),
            ("stationarity", sol["stationarity"])]
    save(fig, out)
    write_data(data, rows)
    return rows


def zones(out, data=None, Rn=1.0, kappa=1.0, T=1.0):
    """The soft cone's zones in the residual plane (j_n, T) and f_n along the line T."""
    _positive(Rn, "Rn")
    _positive(kappa, "kappa")
    if not (T >= 0 and math.isfinite(T)):
        raise ValueError(f"T must be a number >= 0, got {T}")
    codes = {"top": 0, "middle": 1, "bottom": 2}
    # one friction direction of scale 1: the tangential residual is T itself
    soft = lambda jn, t: _cone.soft((jn, t), Rn, (1.0,), kappa=kappa)  # noqa: E731
    span = 3 * max(T, Rn * T / kappa, 1.0)
    jn = np.linspace(-span, span, 241)
    ts = np.linspace(0, 1.5 * max(T, 1.0), 61)
    jg = jn[::2]
    Z = np.array([[codes[soft(a, t)[0]] for a in jg] for t in ts])
    fig = figure((11, 4.6))
    ax, bx = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    from matplotlib.colors import ListedColormap
    ax.pcolormesh(jg, ts, Z, cmap=ListedColormap(["#cfe8cf", "#fde2b8", "#f6c1c1"]),
                  vmin=-0.5, vmax=2.5, shading="auto")
    ax.plot(ts, ts, color="tab:green", lw=1.5, label="j_n = T (top border)")
    ax.plot(-Rn * ts / kappa, ts, color="tab:red", lw=1.5, label="kappa j_n + R_n T = 0")
    ax.axhline(T, color="k", ls="--", lw=1, label=f"T = {T:g} (right)")
    ax.text(span * 0.55, ts[-1] * 0.3, "top\nf = 0", ha="center")
    ax.text(-span * 0.0, ts[-1] * 0.85, "middle", ha="center")
    ax.text(-span * 0.7, ts[-1] * 0.3, "bottom", ha="center")
    ax.set_xlim(-span, span)
    ax.set_xlabel("j_n")
    ax.set_ylabel("T = ||u||")
    ax.set_title(f"Soft-cone zones, R_n = {Rn:g}, kappa = {kappa:g}")
    ax.legend(loc="upper right", fontsize=7)
    line = [soft(a, T) for a in jn]
    fnl = np.array([s[1][0] for s in line])
    zl = [s[0] for s in line]
    for name, colour in (("top", "tab:green"), ("middle", "tab:orange"), ("bottom", "tab:red")):
        sel = np.array([z == name for z in zl])
        bx.plot(jn[sel], fnl[sel], ".", ms=3, color=colour, label=name)
    top, bottom = T, -Rn * T / kappa
    bx.axvline(top, color="tab:green", lw=0.8, ls=":")
    bx.axvline(bottom, color="tab:red", lw=0.8, ls=":")
    bx.set_xlabel("j_n")
    bx.set_ylabel("f_n")
    bx.set_title(f"f_n along T = {T:g}")
    bx.grid(alpha=0.3)
    bx.legend(fontsize=8)
    h = 1e-6
    fn_at = lambda a: soft(a, T)[1][0]  # noqa: E731
    rows = [("Rn", Rn), ("kappa", kappa), ("T", T), ("top_border_jn", top),
            ("bottom_border_jn", bottom), ("fn_at_bottom_border", fn_at(bottom)),
            ("fn_at_0", fn_at(0.0)),
            ("slope_middle", (fn_at((top + bottom) / 2 + h) - fn_at((top + bottom) / 2 - h)) / (2 * h)),
            ("slope_bottom", (fn_at(bottom - 1 + h) - fn_at(bottom - 1 - h)) / (2 * h)),
            ("fn_top", fn_at(top + 1))]
    save(fig, out)
    write_data(data, rows)
    return rows


def _floats(text, n=None):
    try:
        v = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a comma-separated list of numbers")
    if n is not None and len(v) != n:
        raise argparse.ArgumentTypeError(f"'{text}': expected {n} numbers")
    return v


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="conesim figure",
        description="The friction-cone figures, computed with conesim's cone code.",
        epilog="defaults: cone/select fn 20, mu 0.8,0.4, f 9.6,6.4, v 1,1; pyramid fn 1, "
               "mu 1,1, f 0.3,0.4; qcqp H 1,0,0,4, b -2,-2, mu 1,0.5, fn 1; "
               "zones Rn 1, kappa 1, T 1")
    p.add_argument("name", choices=NAMES)
    p.add_argument("--out", required=True, help="FILE.png, .svg or .pdf")
    p.add_argument("--dpi", type=float, default=110, help="PNG resolution (default 110)")
    p.add_argument("--data", help="write the numbers behind the figure to this CSV")
    p.add_argument("--fn", type=float)
    p.add_argument("--mu", type=lambda s: _floats(s, 2))
    p.add_argument("--f", type=lambda s: _floats(s, 2))
    p.add_argument("--v", type=lambda s: _floats(s, 2))
    p.add_argument("--H", type=lambda s: _floats(s, 4))
    p.add_argument("--b", type=lambda s: _floats(s, 2))
    p.add_argument("--Rn", type=float)
    p.add_argument("--kappa", type=float)
    p.add_argument("--T", type=float)
    a = p.parse_args(argv)
    if not (a.dpi > 0 and math.isfinite(a.dpi)):
        p.error("--dpi must be a positive number")
    _draw.DPI = a.dpi
    allowed = {"cone": ("fn", "mu", "f"), "select": ("fn", "mu", "f", "v"),
               "pyramid": ("fn", "mu", "f"), "qcqp": ("H", "b", "mu", "fn"),
               "zones": ("Rn", "kappa", "T")}[a.name]
    kw = {}
    for k in ("fn", "mu", "f", "v", "H", "b", "Rn", "kappa", "T"):
        val = getattr(a, k)
        if val is None:
            continue
        if k not in allowed:
            p.error(f"--{k} does not apply to '{a.name}' (it takes {', '.join('--' + x for x in allowed)})")
        kw[k] = val
    try:
        check_out(a.out)
        globals()[a.name](a.out, data=a.data, **kw)
    except DrawError as e:
        fail(e, "conesim figure")
    except ValueError as e:
        p.error(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
