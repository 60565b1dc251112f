"""Plots of a recorded run (`conesim run --record T.csv --contacts C.csv`): one panel per
quantity over time.

    conesim.plot.trajectory("traj.csv", "contacts.csv", out="run.png")
    python3 -m conesim.plot traj.csv --contacts contacts.csv --out run.png

Panels (`what`): pos, vel, angvel (per body, from the trajectory); normal, friction,
penetration, slip (from the contacts). Contact panels sum or take the largest value over the
contacts of each step, on every recorded step of the trajectory: a step without a contact (the
contacts file has no row for it) has zero normal and friction force and zero penetration, and
no slip speed (a gap in that line); see `contact_series`. The friction panel sets sum |f_t| against the cone bound sum mu f_n;
the contacts file does not hold mu, so without `mu` the bound uses mu estimated as the median
|f_t|/f_n of the sliding (middle zone) contacts, and says so in its label.
"""
import argparse
import csv
import math
import os
import sys

import numpy as np

from . import _draw
from ._draw import (EXIT_INPUT, EXIT_USAGE, DrawError, check_out, figure, fail, save)

TRAJ_COLUMNS = ("step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz").split(",")
CONTACT_COLUMNS = ("step,time,geom1,geom2,dim,px,py,pz,nx,ny,nz,dist,fn,f1,f2,f3,f4,f5,"
                   "vn,v1,v2,v3,v4,v5,zone").split(",")
TRAJ_PANELS = ("pos", "vel", "angvel")
CONTACT_PANELS = ("normal", "friction", "penetration", "slip")
PANELS = TRAJ_PANELS + CONTACT_PANELS


def _read(path, columns, text):
    """Rows of a conesim CSV as dicts; numbers as floats except the columns in text."""
    try:
        fh = open(path, newline="")
    except OSError as e:
        raise DrawError(EXIT_INPUT, f"{path}: cannot read: {e.strerror or e}") from None
    rows = []
    with fh:
        r = csv.reader(fh)
        try:
            header = next(r)
        except StopIteration:
            raise DrawError(EXIT_INPUT, f"{path}:1: empty file") from None
        except (csv.Error, UnicodeDecodeError) as e:
            raise DrawError(EXIT_INPUT, f"{path}:1: {e}") from None
        missing = [c for c in columns if c not in header]
        if missing:
            raise DrawError(EXIT_INPUT, f"{path}:1: not a conesim file of this kind: no column "
                            f"{', '.join(missing)} (expected {','.join(columns)})")
        idx = {c: header.index(c) for c in columns}
        try:
            for rec in r:
                line = r.line_num
                if not rec:
                    continue
                if len(rec) != len(header):
                    raise DrawError(EXIT_INPUT, f"{path}:{line}: {len(rec)} fields, the header "
                                    f"has {len(header)}")
                row = {}
                for c, i in idx.items():
                    if c in text:
                        row[c] = rec[i]
                        continue
                    try:
                        row[c] = float(rec[i])
                    except ValueError:
                        raise DrawError(EXIT_INPUT, f"{path}:{line}: {c} = '{rec[i]}' is not "
                                        "a number") from None
                rows.append(row)
        except (csv.Error, UnicodeDecodeError) as e:
            raise DrawError(EXIT_INPUT, f"{path}:{r.line_num}: {e}") from None
    return rows


def read_trajectory(path):
    return _read(path, TRAJ_COLUMNS, ("body",))


def read_contacts(path):
    return _read(path, CONTACT_COLUMNS, ("geom1", "geom2", "zone"))


def contact_series(traj, contacts):
    """The contact panels' data on every step of the trajectory `traj` (rows of
    read_trajectory) and of the contacts (rows of read_contacts): a dict of numpy arrays
    step, time, ncon, normal (sum f_n), friction (sum |f_t|), penetration (largest, >= 0) and
    slip (largest tangential slip speed). A step with no contact row has ncon 0, normal,
    friction and penetration 0, and slip NaN (no contact, no slip: a gap in the line)."""
    times = {}
    for r in traj:
        times.setdefault(int(r["step"]), r["time"])
    by_step = {}
    for r in contacts:
        k = int(r["step"])
        times.setdefault(k, r["time"])
        by_step.setdefault(k, []).append(r)
    steps = sorted(times)
    n = len(steps)
    out = {"step": np.array(steps, dtype=np.int64),
           "time": np.array([times[k] for k in steps], dtype=float),
           "ncon": np.zeros(n, dtype=np.int64), "normal": np.zeros(n),
           "friction": np.zeros(n), "penetration": np.zeros(n), "slip": np.full(n, np.nan)}
    for i, k in enumerate(steps):
        rs = by_step.get(k)
        if not rs:
            continue
        out["ncon"][i] = len(rs)
        out["normal"][i] = sum(r["fn"] for r in rs)
        out["friction"][i] = sum(_friction(r) for r in rs)
        out["penetration"][i] = max(0.0, max(-r["dist"] for r in rs))
        out["slip"][i] = max(math.hypot(r["v1"], r["v2"]) for r in rs)
    return out


def title(scene=None, bodies=()):
    """The figure's title: the scene (its file name) and the bodies plotted (the first five
    and how many more)."""
    bodies = list(bodies)
    who = ""
    if bodies:
        more = f" and {len(bodies) - 5} more" if len(bodies) > 5 else ""
        who = ("body " if len(bodies) == 1 else "bodies ") + ", ".join(bodies[:5]) + more
    if scene:
        return f"{os.path.basename(str(scene))}: {who}" if who else os.path.basename(str(scene))
    return who


def _friction(r):
    return math.hypot(r["f1"], r["f2"])


def estimate_mu(contacts):
    """The median |f_t|/f_n over sliding contacts (zone middle: the force is on the cone),
    or None when no contact slid."""
    ratios = [_friction(r) / r["fn"] for r in contacts
              if r["zone"] == "middle" and r["fn"] > 0 and r["dim"] >= 3]
    return float(np.median(ratios)) if ratios else None


def trajectory(traj_csv, contacts_csv=None, what=None, body=None, out="trajectory.png",
               mu=None, scene=None):
    """Draws the panels `what` (a list or comma-separated string, default: pos, vel and,
    with contacts, normal, friction, penetration, slip) for the free body `body` (default:
    all) into `out` (.png, .svg or .pdf). `mu` is the friction coefficient for the cone
    bound; without it the bound is estimated from the contacts. The title names `scene` (the
    scene file the run was recorded from; the CSVs do not hold it) and the bodies. Returns
    the panel names."""
    check_out(out)
    if isinstance(what, str):
        what = [w.strip() for w in what.split(",") if w.strip()]
    if not what:
        what = list(TRAJ_PANELS[:2]) + (list(CONTACT_PANELS) if contacts_csv else [])
    bad = [w for w in what if w not in PANELS]
    if bad:
        raise DrawError(EXIT_USAGE, f"unknown panel {', '.join(bad)} (panels: {', '.join(PANELS)})")
    if any(w in CONTACT_PANELS for w in what) and not contacts_csv:
        raise DrawError(EXIT_USAGE, "the panels " + ", ".join(w for w in what if w in CONTACT_PANELS)
                        + " need the contacts file")
    traj = read_trajectory(traj_csv)
    bodies = list(dict.fromkeys(r["body"] for r in traj))
    if body is not None:
        if body not in bodies:
            raise DrawError(EXIT_INPUT, f"{traj_csv}: no body '{body}' (bodies: "
                            f"{', '.join(bodies) or 'none'})")
        bodies = [body]
    if not bodies:
        raise DrawError(EXIT_INPUT, f"{traj_csv}: no trajectory rows")
    contacts = read_contacts(contacts_csv) if contacts_csv else []

    fig = figure((8, 2.3 * len(what) + 0.6))
    axes = fig.subplots(len(what), 1, sharex=True, squeeze=False)[:, 0]
    styles = ["-", "--", ":", "-."]
    comps = {"pos": (("x", "y", "z"), "position (m)"),
             "vel": (("vx", "vy", "vz"), "velocity (m/s)"),
             "angvel": (("wx", "wy", "wz"), "angular velocity (rad/s, local)")}
    series = contact_series(traj, contacts)
    ct = series["time"]
    for ax, w in zip(axes, what):
        if w in comps:
            names, label = comps[w]
            for k, b in enumerate(bodies):
                rows = [r for r in traj if r["body"] == b]
                t = [r["time"] for r in rows]
                for c, colour in zip(names, ("tab:red", "tab:green", "tab:blue")):
                    ax.plot(t, [r[c] for r in rows], styles[k % 4], color=colour, lw=1.3,
                            label=f"{c} {b}" if len(bodies) > 1 else c)
            ax.set_ylabel(label)
        elif w == "normal":
            ax.plot(ct, series["normal"], color="tab:blue", lw=1.3,
                    label="sum f_n (0: no contact)")
            ax.set_ylabel("normal force (N)")
        elif w == "friction":
            fnsum = series["normal"]
            ax.plot(ct, series["friction"], color="tab:red", lw=1.3, label="sum |f_t|")
            m, how = (mu, f"mu = {mu:g}") if mu is not None else (estimate_mu(contacts), None)
            if m is not None:
                if how is None:
                    how = f"mu ~ {m:.3g}, estimated from |f_t|/f_n while sliding"
                ax.plot(ct, m * fnsum, "--", color="k", lw=1.1, label=f"bound mu f_n ({how})")
            else:
                ax.plot([], [], " ", label="no sliding contact: mu not estimated")
            ax.set_ylabel("friction force (N)")
        elif w == "penetration":
            ax.plot(ct, series["penetration"], color="tab:purple", lw=1.3,
                    label="max penetration")
            ax.set_ylabel("penetration (m)")
        elif w == "slip":
            ax.plot(ct, series["slip"], color="tab:orange", lw=1.3,
                    label="max slip speed (gaps: no contact)")
            ax.set_ylabel("slip speed (m/s)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    axes[-1].set_xlabel("time (s)")
    fig.suptitle(title(scene, bodies), fontsize=9)
    save(fig, out)
    return what


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="conesim plot",
        description="Plot a trajectory recorded by 'conesim run --record' (and its contacts).")
    p.add_argument("trajectory", help="the --record CSV")
    p.add_argument("--contacts", help="the --contacts CSV of the same run")
    p.add_argument("--what", help="comma-separated panels: " + ", ".join(PANELS)
                   + " (default: pos,vel and, with --contacts, normal,friction,penetration,slip)")
    p.add_argument("--body", help="only this free body (default: all)")
    p.add_argument("--scene", help="the scene the run was recorded from, for the title")
    p.add_argument("--mu", type=float, help="friction coefficient of the cone bound "
                   "(default: estimated from the sliding contacts)")
    p.add_argument("--out", required=True, help="FILE.png, .svg or .pdf")
    p.add_argument("--dpi", type=float, default=110, help="PNG resolution (default 110)")
    a = p.parse_args(argv)
    if not (a.dpi > 0 and math.isfinite(a.dpi)):
        p.error("--dpi must be a positive number")
    _draw.DPI = a.dpi
    try:
        trajectory(a.trajectory, a.contacts, a.what, a.body, a.out, mu=a.mu, scene=a.scene)
    except DrawError as e:
        fail(e, "conesim plot")
    return 0


if __name__ == "__main__":
    sys.exit(main())
