// Cross-validation: run scenes through conesim (its defaults: MuJoCo 3.12's rules) and MuJoCo 3.12
// (@mujoco/mujoco), compare (compare.mjs),
// check the agreement targets (targets.mjs) and print the table.
//   node crossval.mjs [--conesim PATH] [--check] [--duration T] [--only SUBSTR]... [--metrics]
// The duration is 2 s unless targets.mjs's DURATION gives the scene its own (--duration: all).
// --check: exit 1 if a target is missed that tests/oracle/known-gaps does not list.
// Verdicts: ok (met), GAP (missed, listed in known-gaps), FAIL (missed, not listed),
// ok+listed (met although known-gaps lists it: the listing is stale).
import fs from 'fs';
import os from 'os';
import path from 'path';
import { execFile } from 'child_process';
import { fileURLToPath } from 'url';
import { runScene } from './mjlib.mjs';
import { readCsv, compareRuns, fmt } from './compare.mjs';
import { CONFIGS, DURATION, targetsFor, hasRules } from './targets.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const args = process.argv.slice(2);
const opt = { conesim: path.join(root, 'build/conesim'), check: false, duration: null, only: [], metrics: false };
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const need = () => { if (i + 1 >= args.length) { console.error(`crossval: ${a} needs a value`); process.exit(2); } return args[++i]; };
  if (a === '--conesim') opt.conesim = need();
  else if (a === '--check') opt.check = true;
  else if (a === '--duration') opt.duration = parseFloat(need());
  else if (a === '--only') opt.only.push(need());
  else if (a === '--metrics') opt.metrics = true;
  else { console.error(`crossval: unknown option ${a}`); process.exit(2); }
}
if (!fs.existsSync(opt.conesim)) { console.error(`crossval: no conesim at ${opt.conesim} (build it first)`); process.exit(2); }

// known-gaps: "scene config quantity reached reason..." per line, # comments.
const gaps = new Map();
for (const line of fs.readFileSync(path.join(here, 'known-gaps'), 'utf8').split('\n')) {
  const t = line.trim();
  if (!t || t.startsWith('#')) continue;
  const [scene, config, quantity, reached, ...reason] = t.split(/\s+/);
  gaps.set(`${scene} ${config} ${quantity}`, { reached, reason: reason.join(' ') });
}

const scenes = [];
for (const dir of [path.join(root, 'scenes'), path.join(here, 'scenes')])
  if (fs.existsSync(dir)) for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.xml')) scenes.push(path.join(dir, f));

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'crossval-'));
const runOurs = (scene, cfg, dur, t, c, l) => new Promise((resolve, reject) => {
  execFile(opt.conesim, ['run', scene, '--duration', String(dur), '--solver', cfg.solver,
    '--cone', cfg.cone, '--record', t, '--contacts', c, '--limits', l, '--quiet'], (err, so, se) => {
    if (err) reject(new Error(`conesim failed on ${scene} (${cfg.name}): ${se || err.message}`)); else resolve();
  });
});

const rows = [];
const seen = new Set();
const newtonRef = new Map(); // "scene cone" -> MuJoCo Newton CSVs of this run
let fails = 0;
try {
  for (const scene of scenes) {
    const sname = path.basename(scene, '.xml');
    for (const cfg of CONFIGS) {
      const id = `${sname} ${cfg.name}`;
      if (opt.only.length && !opt.only.some((s) => id.includes(s))) continue;
      const tg = targetsFor(sname, cfg);
      // nothing to assert: keep the suite short (a scene without targets still runs its Newton
      // configurations, so that it is seen to load and run in both programs)
      if (opt.check && tg.length === 0 && (cfg.solver !== 'newton' || hasRules(sname))) continue;
      const f = (w) => path.join(tmp, `${sname}.${cfg.solver}.${cfg.cone}.${w}.csv`);
      // a scene whose run parts from MuJoCo's by chaos after a while is compared before it
      const dur = opt.duration ?? DURATION[sname] ?? 2;
      const ours = runOurs(scene, cfg, dur, f('ot'), f('oc'), f('ol'));
      await runScene({ scene, duration: dur, solver: cfg.solver, cone: cfg.cone, record: f('rt'), contacts: f('rc'), limits: f('rl') });
      await ours;
      const M = compareRuns(readCsv(f('ot')), readCsv(f('oc')), readCsv(f('rt')), readCsv(f('rc')),
        { limits: [readCsv(f('ol')), readCsv(f('rl'))] });
      if (opt.metrics) console.log(id, JSON.stringify(M));
      // a quantity X_abs / X_rel is shown as X with both columns; the target names one of them
      const both = (q) => {
        const base = q.replace(/_(abs|rel|diff|steps)$/, '');
        const kind = q.slice(base.length + 1);
        const a = kind === 'rel' || kind === 'abs' ? M[`${base}_abs`] : M[q];
        const r = kind === 'rel' || kind === 'abs' ? M[`${base}_rel`] : undefined;
        const at = M.at[q] ?? M.at[`${base}_abs`];
        return [base, fmt(a), fmt(r), kind === 'rel' ? 'rel' : 'abs', at === undefined ? '-' : String(at)];
      };
      if (tg.length === 0) {
        const [b, a, r, , at] = both('pos_abs');
        rows.push([sname, cfg.name, b, a, r, at, '-', 'info']);
      }
      if (cfg.solver === 'newton') newtonRef.set(`${sname} ${cfg.cone}`, [f('rt'), f('rc')]);
      else if (newtonRef.has(`${sname} ${cfg.cone}`)) {
        // our PGS against MuJoCo's Newton: the converged optimum both solvers aim at
        const [nt, nc] = newtonRef.get(`${sname} ${cfg.cone}`);
        const N = compareRuns(readCsv(f('ot')), readCsv(f('oc')), readCsv(nt), readCsv(nc));
        rows.push([sname, cfg.name, 'pos vs MuJoCo newton', fmt(N.pos_abs), fmt(N.pos_rel), String(N.at.pos_abs ?? '-'), '-', 'info']);
      }
      for (const { q, max } of tg) {
        const v = M[q];
        const met = v !== undefined && v <= max;
        const gap = gaps.get(`${sname} ${cfg.name} ${q}`);
        seen.add(`${sname} ${cfg.name} ${q}`);
        const verdict = met ? (gap ? 'ok+listed' : 'ok') : (gap ? 'GAP' : 'FAIL');
        if (verdict === 'FAIL') fails++;
        const [b, a, r, kind, at] = both(q);
        rows.push([sname, cfg.name, b, a, r, at, `${kind}<=${fmt(max)}`, verdict]);
      }
    }
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

const head = ['scene', 'solver/cone', 'quantity', 'max abs', 'max rel', 'at step', 'target', 'verdict'];
const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (r) => r.map((c, i) => c.padEnd(w[i])).join('  ').trimEnd();
console.log(line(head));
for (const r of rows) console.log(line(r));
const verdicts = rows.map((r) => r[7]);
console.log(`\n${verdicts.filter((v) => v.startsWith('ok')).length} met, ` +
  `${verdicts.filter((v) => v === 'GAP').length} known gaps, ${fails} regressions`);
for (const sc of scenes) {
  const n = path.basename(sc, '.xml');
  if (!hasRules(n)) console.log(`warning: ${n} has no targets in tests/oracle/targets.mjs`);
}
if (opt.only.length === 0)
  for (const k of gaps.keys()) if (!seen.has(k)) console.log(`warning: known-gaps lists "${k}", which is no target`);
if (opt.check && fails > 0) process.exit(1);
