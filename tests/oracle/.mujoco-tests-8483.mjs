
import load from '@mujoco/mujoco';
import fs from 'fs';
import path from 'path';
const [root, list, nstr, out] = process.argv.slice(2);
const mj = await load();
const copy = (src, dst) => {
  for (const f of fs.readdirSync(src)) {
    const s = path.join(src, f), d = dst + '/' + f;
    if (fs.statSync(s).isDirectory()) { mj.FS.mkdirTree(d); copy(s, d); }
    else mj.FS.writeFile(d, fs.readFileSync(s));
  }
};
mj.FS.mkdirTree('/w/test');
copy(path.join(root, 'test'), '/w/test');
for (const file of JSON.parse(fs.readFileSync(list, 'utf8'))) {
  let r, m;
  try { m = mj.MjModel.from_xml_path('/w/' + file); }
  catch (e) { r = { status: 'refused', msg: String(e.message || e).split('\n').slice(0, 2).join(' | ') }; }
  if (m) {
    try {
      const d = new mj.MjData(m);
      if (m.nkey > 0) mj.mj_resetDataKeyframe(m, d, 0);
      for (let k = 0; k < +nstr; k++) mj.mj_step(m, d);
      r = { status: 'ran', qpos: Array.from(d.qpos) };
      d.delete();
    } catch (e) { r = { status: 'failed', msg: String(e.message || e).split('\n')[0] }; }
    m.delete();
  }
  fs.appendFileSync(out, JSON.stringify({ file, ...r }) + '\n');
}
