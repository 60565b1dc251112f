// Run an MJCF scene through MuJoCo 3.12 (@mujoco/mujoco) and write conesim's CSVs (mjlib.mjs).
//   node mjrun.mjs SCENE [--steps N | --duration T] [--record F] [--contacts F] [--limits F]
//                  [--every K]
//                  [--solver pgs|cg|newton] [--cone pyramidal|elliptic] [--iterations N]
//                  [--tolerance X] [--timestep DT] [--key K|none] [--set option.NAME=VALUE]
import { runScene } from './mjlib.mjs';

function die(msg) { process.stderr.write(`mjrun: ${msg}\n`); process.exit(2); }

const argv = process.argv.slice(2);
if (argv.length < 1 || argv[0].startsWith('--')) die('usage: mjrun.mjs SCENE [options]');
const opt = { scene: argv[0], every: 1, key: 'first', set: [] };
const num = (a, s, int) => {
  const x = int ? Number.parseInt(s, 10) : Number.parseFloat(s);
  if (!Number.isFinite(x) || (int && String(x) !== s.trim())) die(`${a}: not a number: ${s}`);
  return x;
};
for (let i = 1; i < argv.length; i++) {
  const a = argv[i], v = argv[i + 1];
  const need = () => { if (v === undefined) die(`${a} needs a value`); i++; return v; };
  switch (a) {
    case '--steps': opt.steps = num(a, need(), true); break;
    case '--duration': opt.duration = num(a, need()); break;
    case '--record': opt.record = need(); break;
    case '--contacts': opt.contacts = need(); break;
    case '--limits': opt.limits = need(); break;
    case '--every': opt.every = num(a, need(), true); if (opt.every < 1) die('--every must be >= 1'); break;
    case '--solver': opt.solver = need(); break;
    case '--cone': opt.cone = need(); break;
    case '--iterations': opt.iterations = num(a, need(), true); break;
    case '--tolerance': opt.tolerance = num(a, need()); break;
    case '--timestep': opt.timestep = num(a, need()); break;
    case '--key': opt.key = need(); break;
    case '--set': {
      const s = need(), eq = s.indexOf('=');
      if (eq < 1) die(`--set wants NAME=VALUE, got ${s}`);
      opt.set.push([s.slice(0, eq), s.slice(eq + 1)]);
      break;
    }
    default: die(`unknown option ${a}`);
  }
}
try { await runScene(opt); } catch (e) { die(e.message); }
