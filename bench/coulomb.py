#!/usr/bin/env python3
"""The Coulomb model against the soft model, scene by scene, and its iterations against the
height of a stack.

usage: python3 bench/coulomb.py [--rounds R] [--duration T] [--conesim PATH] [--csv FILE]
                                [--plot FILE.png] [--soft-solver S] [SCENE.xml ...]
       python3 bench/coulomb.py --from-csv FILE [--plot FILE.png]   (table and plot again)

Default scenes: the stack-height series (bench/tower_5, _10, _20, _40), scenes/box_stack,
scenes/gripper_hold, bench/quadruped_legs, scenes/walker, bench/chain_20, bench/comb_10,
bench/pyramid_55, and the piles bench/boxes_bin_100 and bench/mixed_pile_512.

For each scene: `conesim bench SCENE --contact both --threads 1 --no-stages` once per round,
soft and coulomb in the same process one after the other (so both see the same load); a
cell is the median over the rounds. The soft model runs with the scene's own solver and
cone; the Coulomb model with the scene's cone. Then one `conesim run SCENE --contact coulomb`
gives the steps that stopped at the iteration limit and the worst step's Coulomb residual,
and one with `--set coulomb_solver=nsgs` the same for block Gauss-Seidel alone.

The table: CPU microseconds per step, soft and coulomb, their ratio (coulomb / soft), mean
iterations a step, steps at the limit, the worst residual (m/s; the tolerance is 1e-8 m/s).
--plot draws mean iterations a step against the number of boxes of the towers, for proximal
Newton (the default) and block Gauss-Seidel.
"""
import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TOWERS = ["tower_5", "tower_10", "tower_20", "tower_40"]
DEFAULT = ([os.path.join(HERE, t + ".xml") for t in TOWERS] +
           [os.path.join(ROOT, "scenes", s + ".xml") for s in ("box_stack", "gripper_hold")] +
           [os.path.join(HERE, s + ".xml") for s in ("quadruped_legs",)] +
           [os.path.join(ROOT, "scenes", "walker.xml")] +
           [os.path.join(HERE, s + ".xml") for s in ("chain_20", "comb_10", "pyramid_55",
                                                      "boxes_bin_100", "mixed_pile_512")])


def bench(exe, scene, duration, soft_solver):
    """{'soft': (cpu per step us, iterations mean), 'coulomb': ...} from one bench run"""
    extra = ["--solver", soft_solver] if soft_solver else []
    with tempfile.NamedTemporaryFile(suffix=".csv") as tmp:
        subprocess.run([exe, "bench", scene, "--duration", str(duration), "--no-stages",
                        "--contact", "both", "--threads", "1", "--csv", tmp.name] + extra,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out = {}
        for row in csv.DictReader(open(tmp.name)):
            steps = float(row["steps"])
            out[row["contact"]] = (1e6 * float(row["cpu_s"]) / steps, float(row["iter_mean"]))
        return out


def run_summary(exe, scene, duration, extra):
    """(steps at the limit, steps, worst residual, mean iterations) of `conesim run`"""
    p = subprocess.run([exe, "run", scene, "--duration", str(duration), "--quiet",
                        "--contact", "coulomb"] + extra, capture_output=True, text=True)
    text = p.stdout
    lim = re.search(r"on (\d+) of (\d+) steps", text)
    steps = re.search(r"^steps (\d+)", text, re.M)
    res = re.search(r"worst step: ([0-9.eE+-]+) m/s", text)
    it = re.search(r"iterations mean ([0-9.eE+-]+)", text)
    return (int(lim.group(1)) if lim else 0, int(steps.group(1)) if steps else 0,
            float(res.group(1)) if res else float("nan"), float(it.group(1)) if it else 0.0)


def print_table(rows):
    print("| scene | soft us/step | coulomb us/step | ratio | coulomb iterations | at the limit "
          "| worst residual m/s | block Gauss-Seidel alone: iterations, at the limit |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %.0f | %.0f | %.2f | %.2f | %d of %d | %.2g | %.1f, %d |" % tuple(r))


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    n, newton, nsgs = [], [], []
    for r in rows:
        if r[0] in TOWERS:
            n.append(int(r[0].split("_")[1]))
            newton.append(r[4])
            nsgs.append(r[8])
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    ax.plot(n, newton, "o-", label="proximal Newton (default)")
    ax.plot(n, nsgs, "s--", label="block Gauss-Seidel alone")
    ax.set_xlabel("boxes in the tower")
    ax.set_ylabel("iterations a step (mean, 1 s)")
    ax.set_title("Coulomb model: iterations against stack height")
    ax.set_ylim(0, 110)
    ax.axhline(100, color="grey", lw=0.8, ls=":")
    ax.text(n[0], 102, "iteration limit", fontsize=8, color="grey")
    ax.legend(loc="center right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenes", nargs="*")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--duration", type=float, default=1.0)
    ap.add_argument("--conesim", default=os.path.join(ROOT, "build", "conesim"))
    ap.add_argument("--csv")
    ap.add_argument("--plot")
    ap.add_argument("--from-csv")
    ap.add_argument("--soft-solver", help="pgs|newton|cg: the soft model's solver in every "
                    "scene (default: each scene's own; the Coulomb model has its own methods)")
    a = ap.parse_args()
    if a.from_csv:
        rows = []
        for r in csv.DictReader(open(a.from_csv)):
            rows.append([r["scene"], float(r["soft_us"]), float(r["coulomb_us"]), float(r["ratio"]),
                         float(r["coulomb_iterations"]), int(r["at_limit"]), int(r["steps"]),
                         float(r["worst_residual"]), float(r["nsgs_iterations"]),
                         int(r["nsgs_at_limit"])])
        print_table(rows)
        if a.plot:
            plot(rows, a.plot)
        return 0
    scenes = a.scenes or DEFAULT
    cells = {s: {"soft": [], "coulomb": []} for s in scenes}
    iters = {}
    for _ in range(a.rounds):
        for s in scenes:
            r = bench(a.conesim, s, a.duration, a.soft_solver)
            for model in ("soft", "coulomb"):
                cells[s][model].append(r[model][0])
                iters[(s, model)] = r[model][1]
    rows = []
    for s in scenes:
        soft = statistics.median(cells[s]["soft"])
        coul = statistics.median(cells[s]["coulomb"])
        lim, steps, res, _ = run_summary(a.conesim, s, a.duration, [])
        glim, gsteps, gres, git = run_summary(a.conesim, s, a.duration,
                                              ["--set", "coulomb_solver=nsgs"])
        name = os.path.splitext(os.path.basename(s))[0]
        rows.append([name, soft, coul, coul / soft, iters[(s, "coulomb")], lim, steps, res,
                     git, glim])
    print_table(rows)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["scene", "soft_us", "coulomb_us", "ratio", "coulomb_iterations",
                        "at_limit", "steps", "worst_residual", "nsgs_iterations",
                        "nsgs_at_limit"])
            w.writerows(rows)
    if a.plot:
        plot(rows, a.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
