"""Sweep the friction coefficient of a box on a slope, then film the two extreme cases side
by side: the most slippery box slides away, the grippiest one stays put.

    python3 friction_sweep_video.py [OUT.mp4]

The slope of scenes/incline_stick.xml, tilted to tan(gamma) = 0.45, with both geoms'
friction coefficient replaced: Coulomb says the box slides for mu < 0.45 and sticks above. The video (default friction_sweep.mp4) shows 1.5 s of
simulated time at 30 frames a second, mu = 0.3 on the left and 0.6 on the right, with the
contact forces drawn. Rendering needs no window: EGL, else a display."""
import os
import sys

import numpy as np

import conesim

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "../scenes/incline_stick.xml")) as f:
    XML = f.read()
assert XML.count('friction="0.5 ') == 2  # the slope's and the box's


def scene(mu):
    return conesim.Model.from_xml_string(XML.replace('friction="0.5 ', f'friction="{mu} '),
                                         f"incline_stick mu={mu}")


MUS = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
DURATION, FPS, W, H = 1.5, 30, 480, 360
# side view of the slope (azimuth 0: looking along +x), the box sliding to the left
CAMERA = conesim.Camera(azimuth=0, elevation=-12, distance=3.2, lookat=(0, -0.75, -0.25))

moved = {}
for mu in MUS:
    m = scene(mu)
    d = conesim.Data(m)
    box = m.body("box").id
    start = d.xpos[box].copy()
    conesim.step(m, d, round(DURATION / m.opt.timestep))
    moved[mu] = np.linalg.norm(d.xpos[box] - start)
    print(f"mu {mu:.2f} {'slide' if moved[mu] > 0.01 else 'stick'} "
          f"(moved {moved[mu]:.4f} m in {DURATION:g} s)")

# the two extremes, stepped side by side: frame k shows the step nearest k / FPS seconds
out = sys.argv[1] if len(sys.argv) > 1 else "friction_sweep.mp4"
cases = []
for mu in (MUS[0], MUS[-1]):
    m = scene(mu)
    cases.append((m, conesim.Data(m), conesim.Renderer(m, H, W, overlay="contacts,forces")))
h = cases[0][0].opt.timestep
with conesim.VideoWriter(out, 2 * W, H, FPS) as video:
    for k in range(round(DURATION * FPS)):
        halves = []
        for m, d, r in cases:
            conesim.step(m, d, round(k / FPS / h) - round(d.time / h))
            r.update_scene(d, camera=CAMERA)
            halves.append(r.render())
        video.write(np.concatenate(halves, axis=1))
print(f"{out}: {video.frames} frames, mu {MUS[0]} (left) and {MUS[-1]} (right)")
