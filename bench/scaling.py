#!/usr/bin/env python3
"""Cost per step against contacts per step, conesim and native MuJoCo, over a series of piles.

usage: python3 bench/scaling.py [--rounds R] [--duration T] [--solvers pgs,newton,cg]
                                [--mujoco-solvers pgs,cg] [--conesim PATH] [--mjdrive PATH]
                                [--csv FILE] [--plot FILE.png] [SCENE.xml ...]
       python3 bench/scaling.py --from-csv FILE [--plot FILE.png]   (table and plot again)

Default scenes: the mixed piles of 64, 125, 216, 343 and 512 bodies (bench/mixed_pile_*.xml).
Each round runs, for every scene and solver, `conesim bench SCENE --duration T --no-stages
--solver S --threads 1` and `mjdrive SCENE --duration T --solver S --bench` once each,
interleaved so that both see the same load; a cell is the median over the rounds. MuJoCo's
Newton is left out by default: on piles its dense factor is an order of magnitude slower than
its CG (bench/RESULTS.md), and its CG is its fastest there.

The table gives CPU milliseconds per step, contacts per step (what collision reported, the
mean over the steps), and for each engine's fastest solver the cost per contact relative to
the series' first scene (1.0 = cost in proportion to contacts). --plot draws ms/step against
contacts/step on log-log axes with a line of slope 1 through conesim's first point.

mjdrive is not part of this repository: point --mjdrive (or $MJDRIVE) at a build of it.
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SERIES = ["mixed_pile_64", "mixed_pile_125", "mixed_pile_216", "mixed_pile_343",
          "mixed_pile_512"]
NAMES = {"pgs": "PGS", "newton": "Newton", "cg": "CG"}


def conesim_run(exe, scene, solver, duration):
    with tempfile.NamedTemporaryFile(suffix=".csv") as tmp:
        subprocess.run([exe, "bench", scene, "--duration", str(duration), "--no-stages",
                        "--solver", solver, "--threads", "1", "--csv", tmp.name],
                       check=True, stdout=subprocess.DEVNULL)
        row = next(csv.DictReader(open(tmp.name)))
    steps = int(row["steps"])
    return (1000 * float(row["cpu_s"]) / steps, float(row["contacts_mean"]),
            float(row["iter_mean"]))


def mujoco_run(exe, scene, solver, duration):
    out = subprocess.run([exe, scene, "--duration", str(duration), "--solver", solver,
                          "--bench"], check=True, capture_output=True, text=True).stdout
    kv = dict(line.split(None, 1) for line in out.splitlines() if " " in line)
    if "mean_contacts" not in kv:
        sys.exit("scaling.py: this mjdrive does not print mean_contacts")
    steps = int(kv["steps"])
    return (1000 * float(kv["cpu_seconds"]) / steps, float(kv["mean_contacts"]),
            float(kv["mean_solver_iterations"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenes", nargs="*")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--duration", type=float, default=1.0)
    ap.add_argument("--solvers", default="pgs,newton,cg", help="conesim's solvers")
    ap.add_argument("--mujoco-solvers", default="pgs,cg", help="MuJoCo's solvers")
    ap.add_argument("--conesim", default=os.path.join(HERE, "..", "build", "conesim"))
    ap.add_argument("--mjdrive", default=os.environ.get("MJDRIVE", "/work/mujoco-native/mjdrive"))
    ap.add_argument("--csv", help="write every run (round, scene, engine, solver, ms_step, "
                    "contacts, iterations)")
    ap.add_argument("--plot", help="write the plot (PNG; needs matplotlib)")
    ap.add_argument("--from-csv", help="read the runs from a CSV this script wrote instead of "
                    "running anything")
    a = ap.parse_args()
    scenes = a.scenes or [os.path.join(HERE, s + ".xml") for s in SERIES]
    order = ("pgs", "newton", "cg")
    engines = [("conesim", v) for v in order if v in a.solvers.split(",")] + \
              [("mujoco", v) for v in order if v in a.mujoco_solvers.split(",")]

    runs = []
    if a.from_csv:
        with open(a.from_csv) as f:
            for x in csv.DictReader(f):
                runs.append((int(x["round"]), x["scene"], x["engine"], x["solver"],
                             float(x["ms_step"]), float(x["contacts"]), float(x["iterations"])))
        scenes = list(dict.fromkeys(x[1] for x in runs))
        engines = [(e, v) for e in ("conesim", "mujoco") for v in order
                   if any((x[2], x[3]) == (e, v) for x in runs)]
        a.rounds = len({x[0] for x in runs})
    for r in range(0 if a.from_csv else a.rounds):
        for scene in scenes:
            for e, v in engines:
                f = conesim_run if e == "conesim" else mujoco_run
                ms, con, it = f(a.conesim if e == "conesim" else a.mjdrive, scene, v,
                                a.duration)
                runs.append((r, scene, e, v, ms, con, it))
            print("round %d %s done" % (r + 1, os.path.basename(scene)), file=sys.stderr)
    if a.csv and not a.from_csv:
        with open(a.csv, "w", newline="") as out:
            w = csv.writer(out)
            w.writerow(["round", "scene", "engine", "solver", "ms_step", "contacts",
                        "iterations"])
            w.writerows(runs)

    def cell(scene, e, v):
        rs = [x for x in runs if x[1] == scene and x[2] == e and x[3] == v]
        return (statistics.median(x[4] for x in rs), statistics.median(x[5] for x in rs),
                statistics.median(x[6] for x in rs))

    def label(e, v):
        return ("conesim " if e == "conesim" else "MuJoCo ") + NAMES[v]

    print("| scene | contacts (conesim / MuJoCo) | " +
          " | ".join(label(e, v) for e, v in engines) +
          " | conesim fastest, cost per contact | MuJoCo fastest, cost per contact | ratio |")
    print("|---" * (len(engines) + 5) + "|")
    first = {}
    points = {ev: [] for ev in engines}
    for scene in scenes:
        name = os.path.splitext(os.path.basename(scene))[0]
        cells = {ev: cell(scene, *ev) for ev in engines}
        for ev, c in cells.items():
            points[ev].append((c[1], c[0]))
        con = {e: statistics.median(c[1] for ev, c in cells.items() if ev[0] == e)
               for e in ("conesim", "mujoco") if any(ev[0] == e for ev in engines)}
        fast = {}
        for e in con:
            ev = min((ev for ev in engines if ev[0] == e), key=lambda ev: cells[ev][0])
            per = cells[ev][0] / max(cells[ev][1], 1e-9)
            first.setdefault(e, per)
            fast[e] = (ev, cells[ev][0], per / first[e])
        row = ["%.0f / %.0f" % (con.get("conesim", 0), con.get("mujoco", 0))]
        row += ["%.3f (%.1f)" % (cells[ev][0], cells[ev][2]) for ev in engines]
        for e in ("conesim", "mujoco"):
            row.append("%s %.2f" % (NAMES[fast[e][0][1]], fast[e][2]) if e in fast else "-")
        row.append("%.2f" % (fast["mujoco"][1] / fast["conesim"][1])
                   if "mujoco" in fast and "conesim" in fast else "-")
        print("| %s | %s |" % (name, " | ".join(row)))
    print("\nCPU ms per step (mean solver iterations a step), medians of %d rounds, %g s "
          "simulated. Cost per contact: the fastest solver's ms per step over contacts per "
          "step, relative to the first scene. Ratio = MuJoCo fastest / conesim fastest."
          % (a.rounds, a.duration))

    if a.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 5), dpi=110)
        style = {"conesim": "-", "mujoco": "--"}
        marks = {"pgs": "o", "newton": "s", "cg": "^"}
        colour = {"conesim": "tab:blue", "mujoco": "tab:red"}
        for ev, pts in points.items():
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style[ev[0]], marker=marks[ev[1]],
                    color=colour[ev[0]], alpha=1.0 if ev[1] != "pgs" else 0.6,
                    label=label(*ev))
        ref = [min(points[ev])[::-1] for ev in engines if ev[0] == "conesim"]
        if ref:
            t0, c0 = min(ref)  # conesim's fastest on the first scene
            xs = [c0, max(p[0] for pts in points.values() for p in pts)]
            ax.plot(xs, [t0 * x / c0 for x in xs], ":", color="gray",
                    label="cost in proportion to contacts")
        ax.set_xscale("log")
        ax.set_yscale("log")
        from matplotlib.ticker import LogLocator, ScalarFormatter
        for axis in (ax.xaxis, ax.yaxis):
            axis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))
            axis.set_major_formatter(ScalarFormatter())
        ax.set_xlabel("contacts per step (mean)")
        ax.set_ylabel("CPU ms per step (median of %d)" % a.rounds)
        ax.set_title("Piles of 64 to 512 bodies: cost against contacts")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(a.plot)
        print("wrote %s" % a.plot, file=sys.stderr)


if __name__ == "__main__":
    main()
