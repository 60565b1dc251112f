// MuJoCo's mjd_transitionFD and mj_inverse on a damped two-link arm with a motor and a ball
// pendulum (tangent-space positions): writes transition_fd_mujoco.json. Run with node where
// @mujoco/mujoco (MuJoCo 3.12 as WebAssembly) is installed: node transition_fd_mujoco.mjs
import loadMujoco from '@mujoco/mujoco';
const mj = await loadMujoco();
const xml = `<mujoco><option timestep="0.01"/><worldbody>
  <body pos="0 0 1"><joint name="j0" type="hinge" axis="0 1 0" damping="0.3"/>
    <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.03" mass="1"/>
    <body pos="0.5 0 0"><joint type="hinge" axis="0 1 0" stiffness="2"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.03" mass="0.5"/></body></body>
  <body pos="2 0 1"><joint type="ball" damping="0.1"/>
    <geom type="box" size="0.1 0.2 0.3" pos="0 0 -0.4" mass="1"/></body>
</worldbody><actuator><motor joint="j0" gear="2"/></actuator></mujoco>`;
const m = mj.MjModel.from_xml_string(xml);
const d = new mj.MjData(m);
const qpos = [0.4, -0.7, 0.9, 0.1, 0.2, 0.3];
const n4 = Math.hypot(0.9, 0.1, 0.2, 0.3);
for (let i = 2; i < 6; i++) qpos[i] /= n4;
const qvel = [0.3, -0.2, 0.5, 0.1, -0.4], ctrl = [0.5];
qpos.forEach((x, i) => d.qpos[i] = x);
qvel.forEach((x, i) => d.qvel[i] = x);
d.ctrl[0] = ctrl[0];
mj.mj_forward(m, d);
const qacc = Array.from(d.qacc);  // before the derivatives: they leave the last perturbed step's
const n = 2 * m.nv + m.na;
const A = new mj.DoubleBuffer(n * n), B = new mj.DoubleBuffer(n * m.nu);
mj.mjd_transitionFD(m, d, 1e-6, true, A, B, null, null);
mj.mj_forward(m, d);
mj.mj_inverse(m, d);
console.log(JSON.stringify({
  source: "MuJoCo 3.12 (@mujoco/mujoco WebAssembly): mjd_transitionFD(m, d, 1e-6, centred) " +
          "after mj_forward, and mj_inverse at the forward's qacc",
  xml, qpos, qvel, ctrl, eps: 1e-6, A: Array.from(A.GetView()), B: Array.from(B.GetView()),
  qacc, qfrc_inverse: Array.from(d.qfrc_inverse)}, null, 1));
