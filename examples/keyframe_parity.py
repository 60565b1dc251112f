"""Python and `conesim run` from the same start state, bit for bit.

    python3 keyframe_parity.py [--conesim PROGRAM] [SCENE]

`conesim run` starts from the scene's first <key> when it has one (its summary says
`from key 0 "NAME"`); `conesim.Data(m)` starts from the reference pose qpos0, as MuJoCo's
mj_makeData does. So the same scene stepped the same number of times ends in different
states unless Python applies the keyframe too: `conesim.reset_data_keyframe(m, d, 0)`. This
records a run with `--joints` (qpos and qvel in MuJoCo's layout, %.17g: every double reads
back exactly), steps the scene in Python both ways and compares every recorded step.
SCENE defaults to scenes/ball_roll.xml (a ball rolling from its keyframe), PROGRAM to
`conesim` on PATH. Exits 1 when the keyframe run is not bit-identical."""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

import numpy as np

import conesim

HERE = os.path.dirname(os.path.abspath(__file__))


def recorded_joints(program, scene, steps):
    """qpos and qvel of every step of `conesim run SCENE --joints`: arrays (steps + 1, nq)
    and (steps + 1, nv), in the model's joint order."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "joints.csv")
        subprocess.run([program, "run", scene, "--steps", str(steps), "--joints", path,
                        "--quiet"], check=True, stdout=subprocess.DEVNULL)
        with open(path, newline="") as fh:
            rows = list(csv.DictReader(fh))
    qpos, qvel = {}, {}
    for r in rows:
        k = int(r["step"])
        qpos.setdefault(k, []).extend(float(r[f"q{i}"]) for i in range(7) if r[f"q{i}"] != "")
        qvel.setdefault(k, []).extend(float(r[f"v{i}"]) for i in range(6) if r[f"v{i}"] != "")
    order = sorted(qpos)
    return np.array([qpos[k] for k in order]), np.array([qvel[k] for k in order])


def stepped(m, d, steps):
    """qpos and qvel of d now and after each of `steps` steps."""
    qpos, qvel = [d.qpos.copy()], [d.qvel.copy()]
    for _ in range(steps):
        conesim.step(m, d)
        qpos.append(d.qpos.copy())
        qvel.append(d.qvel.copy())
    return np.array(qpos), np.array(qvel)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("scene", nargs="?",
                   default=os.path.join(HERE, os.pardir, "scenes", "ball_roll.xml"))
    p.add_argument("--conesim", default="conesim", help="the conesim program")
    p.add_argument("--steps", type=int, default=500)
    a = p.parse_args(argv)

    cli_q, cli_v = recorded_joints(a.conesim, a.scene, a.steps)
    m = conesim.Model.from_xml_path(a.scene)

    d = conesim.Data(m)  # the reference pose qpos0: no keyframe applied
    q, v = stepped(m, d, a.steps)
    print(f"Data(m):                     max |qpos - conesim run| {np.max(np.abs(q - cli_q)):.3g}")

    d = conesim.Data(m)
    if m.nkey:
        conesim.reset_data_keyframe(m, d, 0)  # what `conesim run` does by default
    q, v = stepped(m, d, a.steps)
    same = np.array_equal(q, cli_q) and np.array_equal(v, cli_v)
    print(f"reset_data_keyframe(m, d, 0): max |qpos - conesim run| {np.max(np.abs(q - cli_q)):.3g}"
          f" ({'bit-identical' if same else 'DIFFERENT'} over {a.steps} steps)")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
