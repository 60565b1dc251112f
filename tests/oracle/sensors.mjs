// MuJoCo 3.12 (@mujoco/mujoco) against `conesim run --sensors`: every sensor value of a
// scene at chosen states. MuJoCo's sensordata after j steps is state j-1's (mj_step reads
// the sensors in its forward pass, before integrating); conesim's CSV row `step k` is state
// k's. A value passes when |conesim - MuJoCo| <= rtol * scale, scale the largest of |MuJoCo's
// value|, the largest magnitude among the sensor's values at that state (a vector's
// components are measured against the vector) and floor (default 1e-3: a value that is 0 by
// the physics, such as the force on a free body, comes out as rounding noise in both).
//
//   node sensors.mjs SCENE.xml CONESIM STEPS [rtol] [floor]
// prints each sensor's worst error and exits 1 when any value fails.
import loadMujoco from '@mujoco/mujoco';
import { execFileSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';

const [scene, conesim, stepsArg, rtolArg, floorArg] = process.argv.slice(2);
const steps = parseInt(stepsArg || '200', 10);
const rtol = parseFloat(rtolArg || '1e-5'), floor = parseFloat(floorArg || '1e-3');
const mjOBJ_SENSOR = 20;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sensors-'));
const csv = path.join(tmp, 'sensors.csv');
execFileSync(conesim, ['run', scene, '--steps', String(steps + 1), '--sensors', csv, '--quiet'],
             { stdio: ['ignore', 'ignore', 'inherit'] });
const ours = new Map(); // "k,name,i" -> value
for (const line of fs.readFileSync(csv, 'utf8').trim().split('\n').slice(1)) {
  const [k, , name, i, v] = line.split(',');
  ours.set(`${k},${name},${i}`, parseFloat(v));
}
fs.rmSync(tmp, { recursive: true });

const mj = await loadMujoco();
const m = mj.MjModel.from_xml_string(fs.readFileSync(scene, 'utf8'));
const d = new mj.MjData(m);
if (m.nkey > 0) mj.mj_resetDataKeyframe(m, d, 0);
const states = [0, 1, Math.floor(steps / 2), steps];
const worst = new Map();
let fails = 0;
for (let j = 1; j <= steps + 1; j++) {
  mj.mj_step(m, d);
  const k = j - 1;
  if (!states.includes(k)) continue;
  for (let s = 0; s < m.nsensor; s++) {
    // an unnamed sensor is sensor<id> in the CSV
    const given = mj.mj_id2name(m, mjOBJ_SENSOR, s);
    const name = given && ours.has(`${k},${given},0`) ? given : `sensor${s}`;
    let big = floor;
    for (let i = 0; i < m.sensor_dim[s]; i++)
      big = Math.max(big, Math.abs(d.sensordata[m.sensor_adr[s] + i]));
    for (let i = 0; i < m.sensor_dim[s]; i++) {
      const ref = d.sensordata[m.sensor_adr[s] + i], got = ours.get(`${k},${name},${i}`);
      const err = got === undefined ? Infinity : Math.abs(got - ref) / big;
      const w = worst.get(name);
      if (!w || err > w.err) worst.set(name, { err, k, i, got, ref });
      if (!(err <= rtol)) fails++;
    }
  }
}
for (const [name, w] of worst)
  console.log(`${w.err <= rtol ? 'ok  ' : 'FAIL'} ${name.padEnd(14)} worst ${w.err.toExponential(2)}` +
              ` (state ${w.k}, value ${w.i}: conesim ${w.got}, MuJoCo ${w.ref})`);
console.log(`${fails} value(s) beyond ${rtol} relative (floor ${floor}) at states ${states.join(' ')}`);
process.exit(fails ? 1 : 0);
