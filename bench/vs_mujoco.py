#!/usr/bin/env python3
"""Times scenes under conesim and native MuJoCo (PGS, Newton, CG each) in one sitting.

usage: python3 bench/vs_mujoco.py [--rounds R] [--duration T] [--solvers pgs,newton,cg]
                                  [--conesim PATH] [--mjdrive PATH] [--csv FILE] SCENE.xml...

Each round runs, for every scene, `conesim bench SCENE --duration T --repeat 3 --no-stages
--solver pgs|newton|cg --threads 1` and `mjdrive SCENE --duration T --solver pgs|newton|cg --bench`
three times (MuJoCo's driver: CPU time of the mj_step loop; the fastest is kept, as conesim's
--repeat 3 keeps its fastest), interleaved so that both see the same load.
The table gives the best CPU time over the rounds (the machine is shared: the fastest run is the
one least disturbed), the mean solver iterations per step, the steps at the iteration limit
(conesim: steps with an island at the limit, from `run --solver-log`; MuJoCo: mjdrive's count),
and the ratios MuJoCo / conesim (above 1: conesim faster).

mjdrive is not part of this repository: point --mjdrive (or $MJDRIVE) at a build of it.
"""
import argparse
import csv
import io
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def conesim_bench(exe, scene, solver, duration):
    with tempfile.NamedTemporaryFile(suffix=".csv") as tmp:
        subprocess.run([exe, "bench", scene, "--duration", str(duration), "--repeat", "3",
                        "--no-stages", "--solver", solver, "--threads", "1", "--csv", tmp.name],
                       check=True, stdout=subprocess.DEVNULL)
        row = next(csv.DictReader(open(tmp.name)))
    return float(row["cpu_s"]), float(row["iter_mean"])


def conesim_at_limit(exe, scene, solver, duration):
    """steps with at least one island at the iteration limit"""
    with tempfile.NamedTemporaryFile(suffix=".csv") as tmp:
        subprocess.run([exe, "run", scene, "--duration", str(duration), "--solver", solver,
                        "--threads", "1", "--quiet", "--solver-log", tmp.name],
                       check=True, stdout=subprocess.DEVNULL)
        steps = {r["step"] for r in csv.DictReader(open(tmp.name)) if r["at_limit"] == "1"}
    return len(steps)


def mujoco_bench(exe, scene, solver, duration, repeat=3):
    """the fastest of `repeat` runs, as conesim's --repeat 3"""
    best = None
    for _ in range(repeat):
        out = subprocess.run([exe, scene, "--duration", str(duration), "--solver", solver,
                              "--bench"], check=True, capture_output=True, text=True).stdout
        kv = dict(line.split(None, 1) for line in out.splitlines() if " " in line)
        r = (float(kv["cpu_seconds"]), float(kv["mean_solver_iterations"]),
             int(kv["steps_at_max_iterations"]))
        if best is None or r[0] < best[0]:
            best = r
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenes", nargs="+")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--duration", type=float, default=1.0)
    ap.add_argument("--solvers", default="pgs,newton,cg",
                    help="comma-separated, of pgs, newton, cg (both engines run each)")
    ap.add_argument("--conesim", default=os.path.join(HERE, "..", "build", "conesim"))
    ap.add_argument("--mjdrive", default=os.environ.get("MJDRIVE", "/work/mujoco-native/mjdrive"))
    ap.add_argument("--csv", help="also write every run (round, scene, engine, solver, cpu_s)")
    a = ap.parse_args()
    solvers = [v for v in ("pgs", "newton", "cg") if v in a.solvers.split(",")]

    runs = []  # (round, scene, engine, solver, cpu, iterations, at_limit)
    for r in range(a.rounds):
        for scene in a.scenes:
            for solver in solvers:
                cpu, it = conesim_bench(a.conesim, scene, solver, a.duration)
                runs.append((r, scene, "conesim", solver, cpu, it, None))
                cpu, it, lim = mujoco_bench(a.mjdrive, scene, solver, a.duration)
                runs.append((r, scene, "mujoco", solver, cpu, it, lim))
            print("round %d %s done" % (r + 1, os.path.basename(scene)), file=sys.stderr)
    limits = {(s, v): conesim_at_limit(a.conesim, s, v, a.duration)
              for s in a.scenes for v in solvers}

    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["round", "scene", "engine", "solver", "cpu_s", "iter_mean", "at_limit"])
            w.writerows(runs)

    def best(scene, engine, solver):
        rs = [x for x in runs if x[1] == scene and x[2] == engine and x[3] == solver]
        b = min(rs, key=lambda x: x[4])
        lim = b[6] if engine == "mujoco" else limits[(scene, solver)]
        return b[4], b[5], lim, max(x[4] for x in rs)

    names = {"pgs": "PGS", "newton": "Newton", "cg": "CG"}
    cols = [("mujoco", v) for v in solvers] + [("conesim", v) for v in solvers]
    out = io.StringIO()
    out.write("| scene | " + " | ".join(("MuJoCo " if e == "mujoco" else "conesim ") + names[v]
                                        for e, v in cols)
              + " | " + " | ".join(names[v] + " ratio" for v in solvers) + " |\n")
    out.write("|---" * (1 + len(cols) + len(solvers)) + "|\n")
    for scene in a.scenes:
        name = os.path.splitext(os.path.basename(scene))[0]
        cells = []
        bests = {}
        for e, v in cols:
            cpu, it, lim, worst = best(scene, e, v)
            bests[(e, v)] = cpu
            cells.append("%.4f (%.1f; %d)" % (cpu, it, lim))
        ratios = ["%.2f" % (bests[("mujoco", v)] / bests[("conesim", v)]) for v in solvers]
        out.write("| %s | %s | %s |\n" % (name, " | ".join(cells), " | ".join(ratios)))
    out.write("\nCPU seconds for %g s simulated, best of %d rounds (mean iterations; steps at the "
              "limit). Ratio = MuJoCo / conesim.\n" % (a.duration, a.rounds))
    sys.stdout.write(out.getvalue())


if __name__ == "__main__":
    main()
