#!/usr/bin/env python3
"""Times models as their authors wrote them (own <option>: solver, integrator, timestep; first
keyframe if any) under conesim and native MuJoCo, interleaved, in one sitting.

usage: python3 bench/vs_models.py [--rounds R] [--duration T] [--conesim PATH] [--mjdrive PATH]
                                  [--csv FILE] [--callgrind-steps N] [LABEL=]MODEL.xml...

Each round runs, for every model, `conesim bench MODEL --duration T --repeat 3 --no-stages
--threads 1` (the fastest of 3 runs) and `mjdrive MODEL --duration T --bench` three times (the
fastest kept), no solver override. A cell is the best CPU time over the rounds, given per step
(microseconds); ratio = MuJoCo / conesim (above 1: conesim faster); the last row is the geometric
mean of the ratios. With --callgrind-steps N both programs also run N steps under
`valgrind --tool=callgrind` (conesim: `bench --steps N --no-stages --threads 1` collecting
inside cs_step; mjdrive: `--steps N --bench` collecting inside mj_step, after its mj_forward),
and the table adds instructions per step, which do not depend on the machine's load.

Models are not part of this repository (bench/README.md: where to get them); mjdrive neither:
point --mjdrive (or $MJDRIVE) at a build of it.
"""
import argparse
import csv
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def conesim_bench(exe, model, duration):
    with tempfile.NamedTemporaryFile(suffix=".csv") as tmp:
        subprocess.run([exe, "bench", model, "--duration", str(duration), "--repeat", "3",
                        "--no-stages", "--threads", "1", "--csv", tmp.name],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        row = next(csv.DictReader(open(tmp.name)))
    return (float(row["cpu_s"]), int(row["steps"]), float(row["iter_mean"]),
            float(row["contacts_mean"]), row["solver"])


def mujoco_bench(exe, model, duration, repeat=3):
    best = None
    for _ in range(repeat):
        out = subprocess.run([exe, model, "--duration", str(duration), "--bench", "--quiet"],
                             check=True, capture_output=True, text=True).stdout
        kv = dict(line.split(None, 1) for line in out.splitlines() if " " in line)
        r = (float(kv["cpu_seconds"]), int(kv["steps"]), float(kv["mean_solver_iterations"]),
             float(kv["mean_contacts"]), kv["solver"].strip())
        if best is None or r[0] < best[0]:
            best = r
    return best


def callgrind(cmd, fn):
    """instructions inside fn (inclusive) for the command"""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                        "--toggle-collect=" + fn] + cmd, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for line in open(out):
            m = re.match(r"(summary|totals):\s+(\d+)", line)
            if m:
                return int(m.group(2))
    raise RuntimeError("no callgrind total for %s" % cmd)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="+")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--duration", type=float, default=1.0)
    ap.add_argument("--conesim", default=os.path.join(HERE, "..", "build", "conesim"))
    ap.add_argument("--mjdrive", default=os.environ.get("MJDRIVE", "/work/mujoco-native/mjdrive"))
    ap.add_argument("--csv", help="also write every run")
    ap.add_argument("--callgrind-steps", type=int, default=0)
    a = ap.parse_args()
    models = []
    for s in a.models:
        label, _, path = s.rpartition("=")
        models.append((label or os.path.splitext(os.path.basename(path))[0], path))

    runs = []  # (round, label, engine, cpu, steps, iterations, contacts, solver)
    for r in range(a.rounds):
        for label, path in models:
            runs.append((r, label, "conesim") + conesim_bench(a.conesim, path, a.duration))
            runs.append((r, label, "mujoco") + mujoco_bench(a.mjdrive, path, a.duration))
            print("round %d %s done" % (r + 1, label), file=sys.stderr)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["round", "model", "engine", "cpu_s", "steps", "iter_mean",
                        "contacts_mean", "solver"])
            w.writerows(runs)
    instr = {}
    if a.callgrind_steps > 0:
        n = a.callgrind_steps
        for label, path in models:
            ic = callgrind([a.conesim, "bench", path, "--steps", str(n), "--no-stages",
                            "--threads", "1"], "cs_step")
            im = callgrind([a.mjdrive, path, "--steps", str(n), "--bench", "--quiet", "--nothread"],
                           "mj_step")
            instr[label] = (ic / n, im / n)
            print("callgrind %s done" % label, file=sys.stderr)

    head = "| model | solver | steps | conesim us/step (iter.) | MuJoCo us/step (iter.) | ratio |"
    if instr:
        head += " conesim instr./step | MuJoCo instr./step | instr. ratio |"
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    logs, ilogs = [], []
    for label, path in models:
        best = {}
        for e in ("conesim", "mujoco"):
            rs = [x for x in runs if x[1] == label and x[2] == e]
            best[e] = min(rs, key=lambda x: x[3])
        c, m = best["conesim"], best["mujoco"]
        ratio = m[3] / c[3]
        logs.append(math.log(ratio))
        solver = c[7] if c[7] == m[7] else "%s / %s" % (c[7], m[7])
        row = "| %s | %s | %d | %.1f (%.1f) | %.1f (%.1f) | %.2f |" % (
            label, solver, c[4], 1e6 * c[3] / c[4], c[5], 1e6 * m[3] / m[4], m[5], ratio)
        if instr:
            ic, im = instr[label]
            ilogs.append(math.log(im / ic))
            row += " %.0f k | %.0f k | %.2f |" % (ic / 1e3, im / 1e3, im / ic)
        print(row)
    row = "| geometric mean | | | | | %.2f |" % math.exp(sum(logs) / len(logs))
    if instr:
        row += " | | %.2f |" % math.exp(sum(ilogs) / len(ilogs))
    print(row)
    print("\nBest CPU time of %d rounds (each the fastest of 3 runs), %g s simulated per run; "
          "ratio = MuJoCo / conesim (above 1: conesim faster)." % (a.rounds, a.duration))


if __name__ == "__main__":
    main()
