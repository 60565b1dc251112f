// MuJoCo 3.12 on a scene with history buffers, a control set before every step: prints, per
// step, time, qpos, qvel, actuator_force, sensordata and the history buffers as JSON lines,
// for comparison with conesim's Python package (ctrl_k = sin(0.3 k) * 5 + k % 3 on every
// actuator).
//   node delay_ctrl.mjs SCENE [STEPS]
import load from '@mujoco/mujoco';
import fs from 'fs';
const [scene, nstr] = process.argv.slice(2);
const mj = await load();
mj.FS.writeFile('/scene.xml', fs.readFileSync(scene, 'utf8'));
const m = mj.MjModel.from_xml_path('/scene.xml');
const d = new mj.MjData(m);
if (m.nkey > 0) mj.mj_resetDataKeyframe(m, d, 0);
const n = nstr ? +nstr : 200;
for (let k = 0; k < n; k++) {
  for (let u = 0; u < m.nu; u++) d.ctrl[u] = Math.sin(0.3 * k) * 5 + (k % 3) + u;
  mj.mj_step(m, d);
  process.stdout.write(JSON.stringify({
    time: d.time, qpos: Array.from(d.qpos), qvel: Array.from(d.qvel),
    force: Array.from(d.actuator_force), sensordata: Array.from(d.sensordata),
    history: Array.from(d.history),
  }) + '\n');
}
