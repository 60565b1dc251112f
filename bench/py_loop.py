"""The cost of a Python control loop beyond the step itself.

    CONESIM_LIBRARY=build/libconesim.so PYTHONPATH=python python3 bench/py_loop.py [N]

Times, per step, on scenes/sphere_plane.xml (no actuators: the loop writes qfrc_applied and
d.ctrl, which is empty) and scenes/gripper_lift.xml (three actuators: it writes d.ctrl):
  c       the steps alone in C (conesim.rollout, one batch, one thread)
  step    a Python loop of conesim.step(m, d)
  loop    the same loop reading d.qpos and d.qvel and writing the controls each step
The overhead of the loop is loop - step; of Python altogether, loop - c. Each figure is the
best of 7 runs of N steps (default 20000) from the initial state, in process CPU time
(the machine is shared).
"""
import os
import sys
import time

import numpy as np

import conesim

N = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
HERE = os.path.dirname(os.path.abspath(__file__))
SCENES = os.path.join(HERE, "..", "scenes")


def best(fn, reps=7):
    out = []
    for _ in range(reps):
        t0 = time.process_time()
        fn()
        out.append(time.process_time() - t0)
    return min(out) / N * 1e6  # us per step


def measure(name):
    m = conesim.Model.from_xml_path(os.path.join(SCENES, name))
    d = conesim.Data(m)
    gain = np.full(m.nv, -0.01)
    u = np.zeros(m.nu)
    has_rollout = hasattr(conesim, "rollout")

    def c_only():
        s0 = np.concatenate(([0.0], m.qpos0, np.zeros(m.nv), np.zeros(m.na)))
        conesim.rollout(m, s0, N, nthread=1)

    def step_only():
        conesim.reset_data(m, d)
        for _ in range(N):
            conesim.step(m, d)

    def loop():
        conesim.reset_data(m, d)
        for _ in range(N):
            q = d.qpos
            v = d.qvel
            if m.nu:
                u[:] = q[:m.nu] * 0.0  # 0, as step alone has: the same physics
                d.ctrl[:] = u
            else:
                d.qfrc_applied[:] = gain * v
                d.ctrl  # noqa: B018  the read a policy makes
            conesim.step(m, d)

    c = best(c_only) if has_rollout else float("nan")
    s = best(step_only)
    lp = best(loop)
    return c, s, lp


if __name__ == "__main__":
    print(f"conesim {conesim.version()} from {os.path.dirname(conesim.__file__)}, N={N}")
    print(f"{'scene':16} {'c us':>8} {'step us':>8} {'loop us':>8} {'loop-step':>9}")
    for scene in ("sphere_plane.xml", "gripper_lift.xml"):
        c, s, lp = measure(scene)
        print(f"{scene[:-4]:16} {c:8.2f} {s:8.2f} {lp:8.2f} {lp - s:9.2f}")
