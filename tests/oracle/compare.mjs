// Line up two runs of one scene (conesim's and MuJoCo's CSVs, the README) step by
// step and measure how far apart they are. Library (compareRuns) and command line:
//   node compare.mjs OURS_TRAJ OURS_CONTACTS REF_TRAJ REF_CONTACTS [--limits OURS REF] [--json]
// Contacts are matched per step by geom pair and nearest position (greedy, closest pairs first);
// joint rows (--limits CSVs) per step by kind (friction, or the limit's side), joint and dof.
import fs from 'fs';
import { fileURLToPath } from 'url';

export function readCsv(path) {
  const lines = fs.readFileSync(path, 'utf8').split('\n').filter((l) => l.length > 0);
  if (lines.length === 0) throw new Error(`${path}: empty file`);
  const head = lines[0].split(',');
  return lines.slice(1).map((l, i) => {
    const c = l.split(',');
    if (c.length !== head.length) throw new Error(`${path}:${i + 2}: ${c.length} columns, header has ${head.length}`);
    const r = {};
    head.forEach((h, j) => { r[h] = /^(body|geom1|geom2|zone|joint|kind)$/.test(h) ? c[j] : Number(c[j]); });
    return r;
  });
}

const byStep = (rows) => {
  const m = new Map();
  for (const r of rows) { if (!m.has(r.step)) m.set(r.step, []); m.get(r.step).push(r); }
  return m;
};
const norm = (v) => Math.hypot(...v);
const sub = (a, b) => a.map((x, i) => x - b[i]);

// MuJoCo's mju_makeFrame for a contact normal without a tangent hint: t1 is world y made
// orthogonal to n (world z when n is near y), t2 = n x t1.
export function contactFrame(n) {
  const t = Math.abs(n[1]) < 0.5 ? [0, 1, 0] : [0, 0, 1];
  const d = n[0] * t[0] + n[1] * t[1] + n[2] * t[2];
  let t1 = t.map((x, i) => x - d * n[i]);
  const l = norm(t1); t1 = t1.map((x) => x / l);
  const t2 = [n[1] * t1[2] - n[2] * t1[1], n[2] * t1[0] - n[0] * t1[2], n[0] * t1[1] - n[1] * t1[0]];
  return [n, t1, t2];
}
// World force on geom2 (geom1 gets its negative).
function worldForce(c) {
  const [n, t1, t2] = contactFrame([c.nx, c.ny, c.nz]);
  return [0, 1, 2].map((i) => c.fn * n[i] + (c.dim >= 3 ? c.f1 * t1[i] + c.f2 * t2[i] : 0));
}
const cpos = (c) => [c.px, c.py, c.pz];
const cforce = (c) => [c.fn, c.f1, c.f2, c.f3, c.f4, c.f5];
const cvel = (c) => [c.vn, c.v1, c.v2, c.v3, c.v4, c.v5];
const active = (c) => c.zone !== 'none';

// Greedy nearest matching within each geom pair. Returns { pairs: [[a, b, d]], unmatchedA, unmatchedB }.
export function matchContacts(A, B) {
  const cand = [];
  A.forEach((a, i) => B.forEach((b, j) => {
    if (a.geom1 === b.geom1 && a.geom2 === b.geom2) cand.push([norm(sub(cpos(a), cpos(b))), i, j]);
  }));
  cand.sort((x, y) => x[0] - y[0]);
  const ua = new Set(A.keys()), ub = new Set(B.keys());
  const pairs = [];
  for (const [d, i, j] of cand) if (ua.has(i) && ub.has(j)) { ua.delete(i); ub.delete(j); pairs.push([A[i], B[j], d]); }
  return { pairs, unmatchedA: ua.size, unmatchedB: ub.size };
}

// A body counts as stopped from the first step after which its speed (linear, plus the
// angular speed times a 0.1 m lever) stays below vstop.
function stopStep(rows, vstop) {
  const bodies = new Map();
  for (const r of rows) { if (!bodies.has(r.body)) bodies.set(r.body, []); bodies.get(r.body).push(r); }
  const out = {};
  for (const [b, rs] of bodies) {
    let s = null;
    for (let i = rs.length - 1; i >= 0; i--) {
      const sp = norm([rs[i].vx, rs[i].vy, rs[i].vz]) + 0.1 * norm([rs[i].wx, rs[i].wy, rs[i].wz]);
      if (sp >= vstop) break;
      s = rs[i].step;
    }
    out[b] = s; // null: never stops
  }
  return out;
}

// Keep the maximum of each quantity, and in o.at the step where it was reached.
let curStep = null;
const upd = (o, k, v) => {
  if (!(k in o) || v > o[k] || Number.isNaN(v)) {
    o[k] = v;
    if (curStep !== null) o.at[k] = curStep; else delete o.at[k];
  }
};

// Every quantity compared; max over steps (and bodies/contacts). *_abs in the CSV's unit,
// *_rel divided by the reference's magnitude (row by row; a reference below 1e-6 of the
// run's largest counts against that floor so near-zero rows do not blow up).
export function compareRuns(oursT, oursC, refT, refC, opts = {}) {
  const vstop = opts.vstop ?? 1e-3;
  const M = { at: {} };
  curStep = null;
  // --- trajectories
  const ot = byStep(oursT), rt = byStep(refT);
  M.steps_ours = Math.max(...ot.keys()); M.steps_ref = Math.max(...rt.keys());
  let missing = 0;
  const zmax = Math.max(...refT.map((r) => Math.abs(r.z)));
  for (const [k, rs] of rt) {
    const os = ot.get(k);
    if (!os) { missing++; continue; }
    curStep = k;
    for (const r of rs) {
      const o = os.find((x) => x.body === r.body);
      if (!o) { missing++; continue; }
      const dp = norm([o.x - r.x, o.y - r.y, o.z - r.z]);
      upd(M, 'pos_abs', dp);
      upd(M, 'pos_rel', dp / Math.max(norm([r.x, r.y, r.z]), 1e-6 * zmax));
      upd(M, 'height_abs', Math.abs(o.z - r.z));
      upd(M, 'height_rel', Math.abs(o.z - r.z) / Math.max(Math.abs(r.z), 1e-6 * zmax));
      const dq = [o.qw - r.qw, o.qx - r.qx, o.qy - r.qy, o.qz - r.qz];
      const sq = [o.qw + r.qw, o.qx + r.qx, o.qy + r.qy, o.qz + r.qz];
      upd(M, 'quat_abs', Math.min(norm(dq), norm(sq)));
      upd(M, 'vel_abs', norm([o.vx - r.vx, o.vy - r.vy, o.vz - r.vz]));
      upd(M, 'angvel_abs', norm([o.wx - r.wx, o.wy - r.wy, o.wz - r.wz]));
    }
  }
  curStep = null;
  M.traj_rows_missing = missing;
  // displacement of each body over the run, relative difference
  const first = (rows, b) => rows.find((r) => r.body === b);
  const last = (rows, b) => { for (let i = rows.length - 1; i >= 0; i--) if (rows[i].body === b) return rows[i]; return null; };
  for (const b of new Set(refT.map((r) => r.body))) {
    const r0 = first(refT, b), r1 = last(refT, b), o0 = first(oursT, b), o1 = last(oursT, b);
    if (!o0 || !o1) continue;
    const dr = norm([r1.x - r0.x, r1.y - r0.y, r1.z - r0.z]), dO = norm([o1.x - o0.x, o1.y - o0.y, o1.z - o0.z]);
    upd(M, 'displacement_ref', dr); upd(M, 'displacement_ours', dO);
    upd(M, 'displacement_abs', Math.abs(dO - dr));
    upd(M, 'displacement_rel', Math.abs(dO - dr) / Math.max(dr, 1e-12));
  }
  const so = stopStep(oursT, vstop), sr = stopStep(refT, vstop);
  for (const b of Object.keys(sr)) {
    const a = so[b], r = sr[b];
    upd(M, 'stop_ref', r ?? Infinity); upd(M, 'stop_ours', a ?? Infinity);
    upd(M, 'stop_steps', a === r ? 0 : (a === null || r === null) ? Infinity : Math.abs(a - r));
  }
  // --- contacts
  const oc = byStep(oursC.filter(active)), rc = byStep(refC.filter(active));
  const steps = [...rt.keys()].filter((k) => k < M.steps_ref);
  const fscale = Math.max(1e-300, ...refC.map((c) => norm(cforce(c))));
  const fnscale = Math.max(1e-300, ...refC.map((c) => Math.abs(c.fn)));
  let noneO = 0, noneR = 0, sameSet = 0, diffCount = 0, zoneDiff = 0;
  M.zone_pairs = {}; // "ours/ref" zone labels of matched contacts that disagree -> count
  for (const k of steps) {
    curStep = k;
    const A = oc.get(k) || [], B = rc.get(k) || [];
    if (A.length === 0) noneO++;
    if (B.length === 0) noneR++;
    if (A.length !== B.length) diffCount++;
    const { pairs, unmatchedA, unmatchedB } = matchContacts(A, B);
    const same = unmatchedA === 0 && unmatchedB === 0 && pairs.every(([, , d]) => d <= (opts.sameTol ?? 1e-3));
    if (same) sameSet++;
    for (const [a, b, d] of pairs) {
      if (a.zone !== b.zone) {
        zoneDiff++;
        const z = `${a.zone}/${b.zone}`;
        M.zone_pairs[z] = (M.zone_pairs[z] || 0) + 1;
      }
      upd(M, 'cpos_abs', d);
      upd(M, 'dist_abs', Math.abs(a.dist - b.dist));
      upd(M, 'cvel_abs', norm(sub(cvel(a), cvel(b))));
      upd(M, 'fn_abs', Math.abs(a.fn - b.fn));
      upd(M, 'fn_rel', Math.abs(a.fn - b.fn) / Math.max(Math.abs(b.fn), 1e-6 * fnscale));
      const df = norm(sub(cforce(a), cforce(b)));
      upd(M, 'f_abs', df);
      upd(M, 'f_rel', df / Math.max(norm(cforce(b)), 1e-6 * fscale));
      if (same) {
        upd(M, 'f_sameset_abs', df);
        upd(M, 'f_sameset_rel', df / Math.max(norm(cforce(b)), 1e-6 * fscale));
      }
    }
    // net contact force on each geom (one geom per body in these scenes: the body's net force)
    const net = (cs) => {
      const g = new Map();
      const add = (n, f, s) => { if (!g.has(n)) g.set(n, [0, 0, 0]); const v = g.get(n); for (let i = 0; i < 3; i++) v[i] += s * f[i]; };
      for (const c of cs) { const f = worldForce(c); add(c.geom2, f, 1); add(c.geom1, f, -1); }
      return g;
    };
    const na = net(A), nb = net(B);
    for (const n of new Set([...na.keys(), ...nb.keys()])) {
      const fa = na.get(n) || [0, 0, 0], fb = nb.get(n) || [0, 0, 0];
      upd(M, 'netf_abs', norm(sub(fa, fb)));
      upd(M, 'netf_rel', norm(sub(fa, fb)) / Math.max(norm(fb), 1e-6 * fscale));
    }
  }
  curStep = null;
  const ns = Math.max(1, steps.length);
  M.nocontact_frac_ours = noneO / ns; M.nocontact_frac_ref = noneR / ns;
  M.nocontact_frac_diff = Math.abs(noneO - noneR) / ns;
  M.contact_count_differs = diffCount;
  M.zone_differs = zoneDiff;
  M.sameset_steps = sameSet; M.contact_steps = steps.length;
  if (!('f_sameset_abs' in M)) { M.f_sameset_abs = 0; M.f_sameset_rel = 0; }
  if (opts.limits) compareJointRows(M, opts.limits[0], opts.limits[1], steps);
  return M;
}

// Joint rows (the --limits CSVs) of the compared steps, matched by (kind, joint, dof): a limit
// row by its side, a friction row by its dof, an equality row by its constraint and row
// (tendon and equality rows name theirs in the joint column). Adds to M
//   jrow_unmatched       rows of either run without a partner (one run's limit active, not
//                        the other's)
//   jrow_pos_abs         |pos_ours - pos_ref|, distance from the limit (m or rad)
//   limit_f_abs / _rel   limit and equality row force error (N or N m), relative to the
//                        reference row's force, floored at 1e-6 of the run's largest such force
//   friction_f_abs / _rel  the same for the dry-friction rows (dofs and tendons)
// All 0 when neither run has such rows.
export function compareJointRows(M, oursL, refL, steps) {
  for (const q of ['jrow_pos_abs', 'limit_f_abs', 'limit_f_rel', 'friction_f_abs', 'friction_f_rel']) M[q] = 0;
  const key = (r) => `${r.kind} ${r.joint} ${r.dof}`;
  // friction rows (of dofs and tendons) apart; limit and equality rows together
  const isFr = (r) => r.kind.endsWith('friction');
  const scale = (friction) => Math.max(1e-300, ...refL.filter((r) => isFr(r) === friction).map((r) => Math.abs(r.force)));
  const lscale = scale(false), fscale = scale(true);
  const ol = byStep(oursL), rl = byStep(refL);
  let unmatched = 0;
  for (const k of steps) {
    curStep = k;
    const A = new Map((ol.get(k) || []).map((r) => [key(r), r]));
    for (const b of rl.get(k) || []) {
      const a = A.get(key(b));
      if (!a) { unmatched++; continue; }
      A.delete(key(b));
      const fr = isFr(b), df = Math.abs(a.force - b.force);
      upd(M, 'jrow_pos_abs', Math.abs(a.pos - b.pos));
      upd(M, fr ? 'friction_f_abs' : 'limit_f_abs', df);
      upd(M, fr ? 'friction_f_rel' : 'limit_f_rel', df / Math.max(Math.abs(b.force), 1e-6 * (fr ? fscale : lscale)));
    }
    unmatched += A.size;
  }
  curStep = null;
  M.jrow_unmatched = unmatched;
  M.jrows_ref = refL.length;
  return M;
}

export function fmt(x) {
  if (x === undefined) return '-';
  if (x === Infinity) return 'inf';
  if (Number.isInteger(x)) return String(x);
  return x.toExponential(2);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const a = process.argv.slice(2);
  const json = a.includes('--json');
  const li = a.indexOf('--limits');
  const limits = li >= 0 ? a.slice(li + 1, li + 3) : null;
  const files = a.filter((x, i) => x !== '--json' && (li < 0 || i < li || i > li + 2));
  if (files.length !== 4 || (limits && limits.length !== 2)) {
    process.stderr.write('usage: compare.mjs OURS_TRAJ OURS_CONTACTS REF_TRAJ REF_CONTACTS [--limits OURS REF] [--json]\n');
    process.exit(2);
  }
  try {
    const M = compareRuns(...files.map(readCsv), limits ? { limits: limits.map(readCsv) } : {});
    if (json) process.stdout.write(JSON.stringify(M, null, 1) + '\n');
    else for (const [k, v] of Object.entries(M))
      if (k === 'zone_pairs') process.stdout.write(`${k.padEnd(22)} ${JSON.stringify(v)}\n`);
      else if (k !== 'at') process.stdout.write(`${k.padEnd(22)} ${fmt(v)}${k in M.at ? `  (step ${M.at[k]})` : ''}\n`);
  } catch (e) { process.stderr.write(`compare: ${e.message}\n`); process.exit(2); }
}
