// Checks of the oracle's own tools (no MuJoCo needed): the %.17g formatter against C's
// printf (expected strings produced by printf), the contact frame convention, and the
// contact matching and metrics on hand-made runs with known differences.
import assert from 'assert/strict';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { g17 } from './mjlib.mjs';
import { contactFrame, matchContacts, compareRuns, readCsv } from './compare.mjs';

// value (as a JS literal) -> C's printf("%.17g")
const G17 = JSON.parse(fs.readFileSync(new URL('./selftest-g17.json', import.meta.url), 'utf8'));
for (const [lit, want] of G17) assert.equal(g17(Number(lit)), want, `g17(${lit})`);
assert.equal(g17(-0), '-0');

// +z normal: t1 = world +y, t2 = world -x (mju_makeFrame without a hint)
const [, t1, t2] = contactFrame([0, 0, 1]);
assert.deepEqual(t1, [0, 1, 0]);
assert.deepEqual(t2.map((x) => x + 0), [-1, 0, 0]);

// matching ignores order and respects geom pairs
const c = (g1, g2, x, y, fn) => ({ geom1: g1, geom2: g2, px: x, py: y, pz: 0, fn });
const A = [c('f', 'b', 1, 1, 1), c('f', 'b', -1, 1, 2), c('b', 'c', 1, 1, 3)];
const B = [c('b', 'c', 1, 1.001, 3), c('f', 'b', -1, 1.002, 2), c('f', 'b', 1, 0.999, 1)];
const m = matchContacts(A, B);
assert.equal(m.pairs.length, 3);
assert.equal(m.unmatchedA + m.unmatchedB, 0);
for (const [a, b] of m.pairs) assert.equal(a.fn, b.fn);
assert.equal(matchContacts(A, [c('x', 'b', 1, 1, 1)]).pairs.length, 0);

// metrics on two tiny runs: ours is 1e-3 m higher at step 1 and pushes 1 % harder
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'oracle-selftest-'));
const T = 'step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n';
const C = 'step,time,geom1,geom2,dim,px,py,pz,nx,ny,nz,dist,fn,f1,f2,f3,f4,f5,vn,v1,v2,v3,v4,v5,zone\n';
const w = (n, s) => { const p = path.join(tmp, n); fs.writeFileSync(p, s); return p; };
const rt = w('rt', T + '0,0,b,0,0,1,1,0,0,0,0,0,0,0,0,0\n1,0.1,b,0,0,1,1,0,0,0,0,0,0,0,0,0\n');
const ot = w('ot', T + '0,0,b,0,0,1,1,0,0,0,0,0,0,0,0,0\n1,0.1,b,0,0,1.001,1,0,0,0,0,0,0,0,0,0\n');
const rc = w('rc', C + '0,0,floor,b,3,0,0,0,0,0,1,-0.001,10,0,0,0,0,0,0,0,0,0,0,0,bottom\n');
const oc = w('oc', C + '0,0,floor,b,3,0,0,0,0,0,1,-0.001,10.1,0,0,0,0,0,0,0,0,0,0,0,bottom\n');
const M = compareRuns(readCsv(ot), readCsv(oc), readCsv(rt), readCsv(rc));
const near = (x, y) => assert.ok(Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(y)), `${x} != ${y}`);
near(M.pos_abs, 1e-3);
near(M.height_rel, 1e-3);
near(M.fn_abs, 0.1);
near(M.fn_rel, 0.01);
near(M.netf_rel, 0.01);
assert.equal(M.nocontact_frac_diff, 0);
assert.equal(M.sameset_steps, 1);
// joint rows: matched by kind, joint and dof whatever their order; a row only one run has
// counts as unmatched
const L = 'step,time,joint,kind,dof,pos,force\n';
const ol = w('ol', L + '0,0,s,limit_lower,0,0.01,0\n0,0,s,limit_upper,0,-0.001,8.08\n'
  + '0,0,h,friction,1,0,-0.5\n');
const rl = w('rl', L + '0,0,h,friction,1,0,-0.49\n0,0,s,limit_upper,0,-0.002,8\n');
const J = compareRuns(readCsv(ot), readCsv(oc), readCsv(rt), readCsv(rc), { limits: [readCsv(ol), readCsv(rl)] });
near(J.limit_f_abs, 0.08);
near(J.limit_f_rel, 0.01);
near(J.friction_f_abs, 0.01);
near(J.friction_f_rel, 0.01 / 0.49);
near(J.jrow_pos_abs, 0.001);
assert.equal(J.jrow_unmatched, 1); // our lower row
assert.equal(J.at.limit_f_abs, 0);
fs.rmSync(tmp, { recursive: true, force: true });
console.log('oracle selftest: ok');
