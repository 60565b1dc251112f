// Run an MJCF scene through MuJoCo (the mujoco-js WebAssembly build) and write the same
// trajectory and contact CSVs that `conesim run` writes (../../shared/spec/interface.md),
// so the two can be compared row by row.
//   node mjrun.mjs SCENE [--steps N | --duration T] [--record F] [--contacts F] [--every K]
//                  [--solver pgs|cg|newton] [--cone pyramidal|elliptic] [--iterations N]
//                  [--tolerance X] [--timestep DT] [--key K|none]
import load from 'mujoco-js';
import fs from 'fs';

function die(msg) { process.stderr.write(`mjrun: ${msg}\n`); process.exit(2); }

const argv = process.argv.slice(2);
if (argv.length < 1) die('usage: mjrun.mjs SCENE [options]');
const opt = { scene: argv[0], every: 1, key: 'first' };
for (let i = 1; i < argv.length; i++) {
  const a = argv[i], v = argv[i + 1];
  const need = () => { if (v === undefined) die(`${a} needs a value`); i++; return v; };
  switch (a) {
    case '--steps': opt.steps = parseInt(need(), 10); break;
    case '--duration': opt.duration = parseFloat(need()); break;
    case '--record': opt.record = need(); break;
    case '--contacts': opt.contacts = need(); break;
    case '--every': opt.every = parseInt(need(), 10); break;
    case '--solver': opt.solver = need(); break;
    case '--cone': opt.cone = need(); break;
    case '--iterations': opt.iterations = parseInt(need(), 10); break;
    case '--tolerance': opt.tolerance = parseFloat(need()); break;
    case '--timestep': opt.timestep = parseFloat(need()); break;
    case '--key': opt.key = need(); break;
    default: die(`unknown option ${a}`);
  }
}

const mj = await load();
mj.FS.writeFile('/scene.xml', fs.readFileSync(opt.scene, 'utf8'));
let m;
try { m = mj.MjModel.loadFromXML('/scene.xml'); } catch (e) { die(`${opt.scene}: MuJoCo could not load it`); }
if (opt.timestep !== undefined) m.opt.timestep = opt.timestep;
if (opt.solver !== undefined) m.opt.solver = { pgs: 0, cg: 1, newton: 2 }[opt.solver.toLowerCase()];
if (opt.cone !== undefined) m.opt.cone = { pyramidal: 0, elliptic: 1 }[opt.cone];
if (opt.iterations !== undefined) m.opt.iterations = opt.iterations;
if (opt.tolerance !== undefined) m.opt.tolerance = opt.tolerance;
const d = new mj.MjData(m);
if (opt.key !== 'none' && m.nkey > 0) mj.mj_resetDataKeyframe(m, d, opt.key === 'first' ? 0 : parseInt(opt.key, 10));

const h = m.opt.timestep;
const nsteps = opt.steps !== undefined ? opt.steps
  : Math.round((opt.duration !== undefined ? opt.duration : 1.0) / h);
// C's %.17g: 17 significant digits; scientific when the exponent is < -4 or >= 17.
const g17 = (x) => {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const strip = (t) => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);
  const [mant, exp] = x.toExponential(16).split('e');
  const e = parseInt(exp, 10);
  if (e < -4 || e >= 17) return `${strip(mant)}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return strip(x.toFixed(Math.max(0, 16 - e)));
};
const name = (type, id, prefix) => mj.mj_id2name(m, type, id) || `${prefix}${id}`;
const mjOBJ_BODY = 1, mjOBJ_GEOM = 5;

// Free bodies in model order: those whose first joint is free (type 0). Model and data
// arrays are views into the wasm heap that go stale when it grows: copy what we keep.
const jntType = Array.from(m.jnt_type), bodyJnt = Array.from(m.body_jntadr);
const jntQpos = Array.from(m.jnt_qposadr), jntDof = Array.from(m.jnt_dofadr);
const free = [];
for (let b = 1; b < m.nbody; b++) if (bodyJnt[b] >= 0 && jntType[bodyJnt[b]] === 0) free.push(b);

const rec = opt.record ? fs.openSync(opt.record, 'w') : null;
const con = opt.contacts ? fs.openSync(opt.contacts, 'w') : null;
if (rec) fs.writeSync(rec, 'step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n');
if (con) fs.writeSync(con, 'step,time,geom1,geom2,dim,px,py,pz,nx,ny,nz,dist,fn,f1,f2,f3,f4,f5,vn,v1,v2,v3,v4,v5,zone\n');

function writeState(k) {
  const qpos = d.qpos, qvel = d.qvel;
  let out = '';
  for (const b of free) {
    const qa = jntQpos[bodyJnt[b]], va = jntDof[bodyJnt[b]];
    out += `${g17(k)},${g17(k * h)},${name(mjOBJ_BODY, b, 'body')}`;
    for (let i = 0; i < 7; i++) out += ',' + g17(qpos[qa + i]);
    for (let i = 0; i < 6; i++) out += ',' + g17(qvel[va + i]);
    out += '\n';
  }
  fs.writeSync(rec, out);
}

const fbuf = new mj.DoubleBuffer(6);
function writeContacts(k) {
  const ncon = d.ncon;
  let out = '';
  for (let i = 0; i < ncon; i++) {
    const c = d.contact.get(i);
    const dim = c.dim, adr = c.efc_address;
    const f = [0, 0, 0, 0, 0, 0], v = [0, 0, 0, 0, 0, 0];
    let zone = 'none';
    if (adr >= 0) {
      mj.mj_contactForce(m, d, i, fbuf);
      const fv = fbuf.GetView();
      for (let j = 0; j < dim; j++) f[j] = fv[j];
      const vel = d.efc_vel;
      if (dim === 1) { v[0] = vel[adr]; zone = 'normal'; }
      else if (m.opt.cone === 1) {
        for (let j = 0; j < dim; j++) v[j] = vel[adr + j];
        // PGS leaves efc_state unset, so the zone is read off the force itself.
        let r2 = 0;
        for (let j = 1; j < dim; j++) r2 += (f[j] / c.friction[j - 1]) ** 2;
        zone = f[0] <= 0 ? 'top' : Math.abs(Math.sqrt(r2) / f[0] - 1) < 1e-6 ? 'middle' : 'bottom';
      } else {
        const fr = c.friction;
        v[0] = 0.5 * (vel[adr] + vel[adr + 1]);
        for (let j = 0; j < dim - 1; j++) v[j + 1] = (vel[adr + 2 * j] - vel[adr + 2 * j + 1]) / (2 * fr[j]);
        zone = 'pyramid';
      }
    }
    const p = c.pos, fr = c.frame;
    const cols = [k, k * h].map(g17);
    cols.push(name(mjOBJ_GEOM, c.geom1, 'geom'), name(mjOBJ_GEOM, c.geom2, 'geom'), String(dim));
    for (let j = 0; j < 3; j++) cols.push(g17(p[j]));
    for (let j = 0; j < 3; j++) cols.push(g17(fr[j]));
    cols.push(g17(c.dist));
    for (let j = 0; j < 6; j++) cols.push(g17(f[j]));
    for (let j = 0; j < 6; j++) cols.push(g17(v[j]));
    cols.push(zone);
    out += cols.join(',') + '\n';
    c.delete();
  }
  fs.writeSync(con, out);
}

for (let k = 0; k < nsteps; k++) {
  if (rec && k % opt.every === 0) writeState(k);
  mj.mj_step(m, d); // contacts and forces now belong to state k (computed before integrating)
  if (con && k % opt.every === 0) writeContacts(k);
}
if (rec) writeState(nsteps);
if (rec) fs.closeSync(rec);
if (con) fs.closeSync(con);
