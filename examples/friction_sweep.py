"""Sweep the friction coefficient of a box on a slope and say whether it sticks or slides.

    python3 friction_sweep.py

The slope is tilted to tan(gamma) = 0.45: Coulomb says the box slides for mu < 0.45 and
sticks above. Each coefficient is a scene of its own, loaded from a string."""
import numpy as np

import conesim

# the slope of scenes/incline_stick.xml with a 1 kg box on it; {mu}: both geoms' friction
SCENE = """<mujoco model="incline">
  <option timestep="0.002" cone="elliptic" impratio="10"/>
  <worldbody>
    <geom name="slope" type="plane" size="2 2 0.1" euler="24.22774531795417 0 0"
          friction="{mu} 0.005 0.0001"/>
    <body name="box" pos="0 -0.041446832410208592 0.092104072022685751"
          euler="24.22774531795417 0 0">
      <freejoint/>
      <geom type="box" size="0.1 0.1 0.1" mass="1" condim="3" friction="{mu} 0.005 0.0001"/>
    </body>
  </worldbody>
</mujoco>"""

for mu in (0.3, 0.4, 0.5, 0.6):
    m = conesim.Model.from_xml_string(SCENE.format(mu=mu), "incline")
    d = conesim.Data(m)
    box = m.body("box").id
    start = d.xpos[box].copy()
    conesim.step(m, d, round(1.0 / m.opt.timestep))  # one second
    moved = np.linalg.norm(d.xpos[box] - start)
    print(f"mu {mu:.2f} {'slide' if moved > 0.01 else 'stick'} (moved {moved:.4f} m in 1 s)")
