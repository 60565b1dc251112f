// MuJoCo 3.12 (the official WebAssembly build, npm's @mujoco/mujoco) as conesim's reference: run an MJCF scene and write
// the same trajectory, contact and joint-row CSVs `conesim run` writes (the README), with the
// same step convention: trajectory row k = state after k steps; contact and joint rows k = the
// contacts, rows and forces computed at state k (MuJoCo computes them inside mj_step before
// integrating).
import load from '@mujoco/mujoco';
import fs from 'fs';
import path from 'path';

let mjPromise = null;
// One wasm instance per process: loading it costs most of a short run.
export function loadMujoco() {
  if (!mjPromise) mjPromise = load();
  return mjPromise;
}

// C's %.17g: 17 significant digits; scientific when the exponent is < -4 or >= 17.
export function g17(x) {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : (x > 0 ? 'inf' : '-inf');
  const strip = (t) => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);
  const [mant, exp] = x.toExponential(16).split('e');
  const e = parseInt(exp, 10);
  if (e < -4 || e >= 17) return `${strip(mant)}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return strip(x.toFixed(Math.max(0, 16 - e)));
}

const mjOBJ_BODY = 1, mjOBJ_XBODY = 2, mjOBJ_JOINT = 3, mjOBJ_GEOM = 5;
const SOLVERS = { pgs: 0, cg: 1, newton: 2 };
const mjCNSTR_EQUALITY = 0, mjCNSTR_FRICTION_DOF = 1, mjCNSTR_FRICTION_TENDON = 2;
const mjCNSTR_LIMIT_JOINT = 3, mjCNSTR_LIMIT_TENDON = 4;
const mjOBJ_EQUALITY = 17, mjOBJ_TENDON = 18;
const mjJNT_BALL = 1;
const CONES = { pyramidal: 0, elliptic: 1 };

// Mesh files named by <mesh file="..."> go into the wasm file system where MuJoCo looks
// for them next to /scene.xml (compiler meshdir, else assetdir).
function writeMeshFiles(mj, scene, xml) {
  const comp = xml.match(/<compiler\b[^>]*>/);
  const dirOf = (a) => (comp && comp[0].match(new RegExp(`\\b${a}="([^"]*)"`)) || [])[1];
  const dir = dirOf('meshdir') ?? dirOf('assetdir') ?? '';
  for (const m of xml.matchAll(/<(?:mesh|hfield)\b[^>]*\bfile="([^"]+)"/g)) {
    const rel = path.posix.join(dir, m[1]);
    let at = '';
    for (const part of path.posix.dirname('/' + rel).split('/').filter(Boolean)) {
      at += '/' + part;
      try { mj.FS.mkdir(at); } catch (e) { /* exists */ }
    }
    mj.FS.writeFile('/' + rel, fs.readFileSync(path.join(path.dirname(scene), rel)));
  }
}

// <include>d files and model assets (<asset><model file>) go into the wasm file system beside
// /scene.xml (names relative to the main file's directory, as MuJoCo resolves them); returns
// every file's text, for the meshes.
function writeIncludes(mj, scene, xml) {
  const texts = [xml], seen = new Set();
  for (let i = 0; i < texts.length; i++) {
    for (const m of texts[i].matchAll(/<(?:include|model)\b[^>]*\bfile="([^"]+)"/g)) {
      if (seen.has(m[1])) continue;
      seen.add(m[1]);
      const t = fs.readFileSync(path.join(path.dirname(scene), m[1]), 'utf8');
      let at = '';
      for (const part of path.posix.dirname('/' + m[1]).split('/').filter(Boolean)) {
        at += '/' + part;
        try { mj.FS.mkdir(at); } catch (e) { /* exists */ }
      }
      mj.FS.writeFile('/' + m[1], t);
      texts.push(t);
    }
  }
  return texts.join('\n');
}

// opt: { scene, steps | duration, record, contacts, limits, every, solver, cone, iterations,
//        tolerance, timestep, key ('first' | 'none' | index), set: [[name, value], ...] }
// Returns { steps, timestep, ncon_max }.
export async function runScene(opt) {
  const mj = await loadMujoco();
  const xml = fs.readFileSync(opt.scene, 'utf8');
  mj.FS.writeFile('/scene.xml', xml);
  writeMeshFiles(mj, opt.scene, writeIncludes(mj, opt.scene, xml));
  let m;
  try { m = mj.MjModel.from_xml_path('/scene.xml'); } catch (e) {
    throw new Error(`${opt.scene}: MuJoCo could not load it`);
  }
  try {
    if (opt.timestep !== undefined) m.opt.timestep = opt.timestep;
    if (opt.solver !== undefined) {
      const s = SOLVERS[String(opt.solver).toLowerCase()];
      if (s === undefined) throw new Error(`unknown solver ${opt.solver}`);
      m.opt.solver = s;
    }
    if (opt.cone !== undefined) {
      const c = CONES[String(opt.cone).toLowerCase()];
      if (c === undefined) throw new Error(`unknown cone ${opt.cone}`);
      m.opt.cone = c;
    }
    if (opt.iterations !== undefined) m.opt.iterations = opt.iterations;
    if (opt.tolerance !== undefined) m.opt.tolerance = opt.tolerance;
    for (const [k, v] of opt.set || []) {
      const f = k.replace(/^option\./, '');
      if (!(f in m.opt)) throw new Error(`unknown option ${k}`);
      m.opt[f] = parseFloat(v);
    }
    const d = new mj.MjData(m);
    try {
      return writeRun(mj, m, d, opt);
    } finally { d.delete(); }
  } finally { m.delete(); }
}

function writeRun(mj, m, d, opt) {
  const key = opt.key === undefined ? 'first' : opt.key;
  if (key !== 'none' && m.nkey > 0) mj.mj_resetDataKeyframe(m, d, key === 'first' ? 0 : parseInt(key, 10));
  const h = m.opt.timestep;
  const every = opt.every || 1;
  const nsteps = opt.steps !== undefined ? opt.steps
    : Math.round((opt.duration !== undefined ? opt.duration : 1.0) / h);
  // The WebAssembly build's mj_id2name returns the string at address 0 ("emsc...") for an
  // unnamed object instead of null: a name counts only when it maps back to the same id.
  const name = (type, id, prefix) => {
    const nm = mj.mj_id2name(m, type, id);
    return nm && mj.mj_name2id(m, type, nm) === id ? nm : `${prefix}${id}`;
  };
  const elliptic = m.opt.cone === 1;

  // Moving bodies in model order, as conesim records them: every body welded to one with a
  // joint (body_weldid != 0). A free body's row is its joint's qpos and qvel as stored; any
  // other's is the body frame (xpos, xquat) with the world velocity of its origin and the
  // angular velocity in the body frame (mj_objectVelocity on the XBODY object). Model and data
  // arrays are views into the wasm heap that go stale when it grows: copy what we keep.
  const jntType = Array.from(m.jnt_type), bodyJnt = Array.from(m.body_jntadr);
  const jntQpos = Array.from(m.jnt_qposadr), jntDof = Array.from(m.jnt_dofadr);
  const weld = Array.from(m.body_weldid);
  const moving = [];
  for (let b = 1; b < m.nbody; b++) if (weld[b] !== 0) moving.push(b);
  const isFree = moving.map((b) => bodyJnt[b] >= 0 && jntType[bodyJnt[b]] === 0);
  const bodyName = moving.map((b) => name(mjOBJ_BODY, b, 'body'));
  const geomName = [];
  for (let g = 0; g < m.ngeom; g++) geomName.push(name(mjOBJ_GEOM, g, 'geom'));

  const rec = opt.record ? fs.openSync(opt.record, 'w') : null;
  const con = opt.contacts ? fs.openSync(opt.contacts, 'w') : null;
  const lim = opt.limits ? fs.openSync(opt.limits, 'w') : null;
  if (rec) fs.writeSync(rec, 'step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n');
  if (con) fs.writeSync(con, 'step,time,geom1,geom2,dim,px,py,pz,nx,ny,nz,dist,fn,f1,f2,f3,f4,f5,vn,v1,v2,v3,v4,v5,zone\n');
  if (lim) fs.writeSync(lim, 'step,time,joint,kind,dof,pos,force\n');

  const vbuf = new mj.DoubleBuffer(6);
  const writeState = (k) => {
    // the body frames and velocities of this state (mj_step recomputes them all from qpos and
    // qvel, so computing them here changes nothing that follows)
    if (!isFree.every((x) => x)) { mj.mj_kinematics(m, d); mj.mj_comPos(m, d); mj.mj_comVel(m, d); }
    const qpos = d.qpos, qvel = d.qvel; // re-read: views go stale
    let out = '';
    moving.forEach((b, i) => {
      out += `${g17(k)},${g17(k * h)},${bodyName[i]}`;
      if (isFree[i]) {
        const qa = jntQpos[bodyJnt[b]], va = jntDof[bodyJnt[b]];
        for (let j = 0; j < 7; j++) out += ',' + g17(qpos[qa + j]);
        for (let j = 0; j < 6; j++) out += ',' + g17(qvel[va + j]);
      } else {
        mj.mj_objectVelocity(m, d, mjOBJ_XBODY, b, vbuf, 0); // [angular; linear], world
        const v = Array.from(vbuf.GetView());
        const xpos = d.xpos, xquat = d.xquat, xmat = d.xmat;
        const R = Array.from(xmat.subarray(9 * b, 9 * b + 9));
        for (let j = 0; j < 3; j++) out += ',' + g17(xpos[3 * b + j]);
        for (let j = 0; j < 4; j++) out += ',' + g17(xquat[4 * b + j]);
        for (let j = 0; j < 3; j++) out += ',' + g17(v[3 + j]);
        for (let j = 0; j < 3; j++) out += ',' + g17(R[j] * v[0] + R[3 + j] * v[1] + R[6 + j] * v[2]);
      }
      out += '\n';
    });
    fs.writeSync(rec, out);
  };

  const fbuf = new mj.DoubleBuffer(6);
  let nconMax = 0;
  const writeContacts = (k) => {
    const ncon = d.ncon;
    if (ncon > nconMax) nconMax = ncon;
    let out = '';
    const cv = d.contact; // a copy of this step's contacts (freed below)
    try {
    for (let i = 0; i < ncon; i++) {
      const c = cv.get(i);
      try {
        const dim = c.dim, adr = c.efc_address;
        const f = [0, 0, 0, 0, 0, 0], v = [0, 0, 0, 0, 0, 0];
        const mu = Array.from(c.friction);
        let zone = 'none';
        if (adr >= 0) {
          mj.mj_contactForce(m, d, i, fbuf);
          const fv = fbuf.GetView();
          for (let j = 0; j < dim; j++) f[j] = fv[j];
          const vel = d.efc_vel;
          if (dim === 1) { v[0] = vel[adr]; zone = 'normal'; }
          else if (elliptic) {
            for (let j = 0; j < dim; j++) v[j] = vel[adr + j];
            // PGS leaves efc_state unset, so the zone is read off the force itself:
            // top = separated (zero force), middle = on the cone surface, bottom = inside.
            let r2 = 0;
            for (let j = 1; j < dim; j++) r2 += (f[j] / mu[j - 1]) ** 2;
            zone = f[0] <= 0 ? 'top' : Math.abs(Math.sqrt(r2) / f[0] - 1) < 1e-6 ? 'middle' : 'bottom';
          } else {
            // pyramid edge rows are J_n +- mu_j J_j: their velocities give vn and v_j back
            v[0] = 0.5 * (vel[adr] + vel[adr + 1]);
            for (let j = 0; j < dim - 1; j++) v[j + 1] = (vel[adr + 2 * j] - vel[adr + 2 * j + 1]) / (2 * mu[j]);
            zone = 'pyramid';
          }
        }
        const p = Array.from(c.pos), fr = Array.from(c.frame);
        const cols = [g17(k), g17(k * h), geomName[c.geom1], geomName[c.geom2], String(dim)];
        for (let j = 0; j < 3; j++) cols.push(g17(p[j]));
        for (let j = 0; j < 3; j++) cols.push(g17(fr[j]));
        cols.push(g17(c.dist));
        for (let j = 0; j < 6; j++) cols.push(g17(f[j]));
        for (let j = 0; j < 6; j++) cols.push(g17(v[j]));
        cols.push(zone);
        out += cols.join(',') + '\n';
      } finally { c.delete(); }
    }
    } finally { cv.delete(); }
    if (out) fs.writeSync(con, out);
  };

  // Joint rows (conesim's --limits): MuJoCo's friction rows per dof (efc_type
  // mjCNSTR_FRICTION_DOF, efc_id = the dof) and limit rows per joint (mjCNSTR_LIMIT_JOINT,
  // efc_id = the joint), with efc_pos and efc_force. A hinge or slide limit row's side is
  // the range end whose distance at state k is efc_pos (MuJoCo makes the lower side's row
  // first when a joint has both); a ball joint's is its rotation angle.
  const jntName = [];
  for (let j = 0; j < m.njnt; j++) jntName.push(name(mjOBJ_JOINT, j, 'joint'));
  const jntRange = Array.from(m.jnt_range), dofJnt = Array.from(m.dof_jntid);
  // Equality rows (kind equality, dof = the row within its constraint), tendon friction
  // (tendon_friction, dof -1) and tendon limits (tendon_lower/_upper, dof -1: the side whose
  // distance is efc_pos at state k), labelled by the constraint's or tendon's name.
  const eqName = [], tenName = [];
  for (let e = 0; e < m.neq; e++) eqName.push(name(mjOBJ_EQUALITY, e, 'equality'));
  for (let t = 0; t < m.ntendon; t++) tenName.push(name(mjOBJ_TENDON, t, 'tendon'));
  const tenRange = Array.from(m.tendon_range);
  let tenLen = null; // tendon lengths of state k (mj_step leaves them: it integrates qpos only)
  let qpos0 = null; // qpos of state k, for the limit sides
  const writeLimits = (k) => {
    const nefc = d.nefc;
    const type = d.efc_type, id = d.efc_id, pos = d.efc_pos, force = d.efc_force;
    let out = '';
    const seen = new Map(); // joint -> limit rows so far in this step
    if (m.ntendon) tenLen = Array.from(d.ten_length);
    for (let r = 0; r < nefc; r++) {
      const t = type[r], i = id[r];
      let joint, kind, dof, label;
      if (t === mjCNSTR_EQUALITY) {
        kind = 'equality'; label = eqName[i];
        dof = 0;
        while (r - dof - 1 >= 0 && type[r - dof - 1] === mjCNSTR_EQUALITY && id[r - dof - 1] === i) dof++;
      } else if (t === mjCNSTR_FRICTION_TENDON) { kind = 'tendon_friction'; label = tenName[i]; dof = -1; }
      else if (t === mjCNSTR_LIMIT_TENDON) {
        label = tenName[i]; dof = -1;
        const lo = tenLen[i] - tenRange[2 * i], hi = tenRange[2 * i + 1] - tenLen[i];
        kind = Math.abs(pos[r] - lo) <= Math.abs(pos[r] - hi) ? 'tendon_lower' : 'tendon_upper';
      } else if (t === mjCNSTR_FRICTION_DOF) { joint = dofJnt[i]; kind = 'friction'; dof = i; }
      else if (t === mjCNSTR_LIMIT_JOINT) {
        joint = i; dof = jntDof[i];
        if (jntType[i] === mjJNT_BALL) kind = 'limit_angle';
        else {
          const q = qpos0[jntQpos[i]], lo = q - jntRange[2 * i], hi = jntRange[2 * i + 1] - q;
          const n = seen.get(i) || 0;
          seen.set(i, n + 1);
          if (n > 0) kind = 'limit_upper';
          else if (r + 1 < nefc && type[r + 1] === mjCNSTR_LIMIT_JOINT && id[r + 1] === i) kind = 'limit_lower';
          else kind = Math.abs(pos[r] - lo) <= Math.abs(pos[r] - hi) ? 'limit_lower' : 'limit_upper';
        }
      } else continue;
      out += `${g17(k)},${g17(k * h)},${label ?? jntName[joint]},${kind},${dof},${g17(pos[r])},${g17(force[r])}\n`;
    }
    if (out) fs.writeSync(lim, out);
  };

  try {
    for (let k = 0; k < nsteps; k++) {
      if (rec && k % every === 0) writeState(k);
      if (lim) qpos0 = Array.from(d.qpos);
      mj.mj_step(m, d); // contacts and forces now belong to state k (computed before integrating)
      if (con && k % every === 0) writeContacts(k);
      if (lim && k % every === 0) writeLimits(k);
    }
    if (rec) writeState(nsteps);
  } finally {
    fbuf.delete();
    vbuf.delete();
    if (rec) fs.closeSync(rec);
    if (con) fs.closeSync(con);
    if (lim) fs.closeSync(lim);
  }
  return { steps: nsteps, timestep: h, ncon_max: nconMax };
}
