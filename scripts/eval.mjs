// `npm run eval -- …`: a question set over a labelled dataset, without the UI. Builds first when the
// build is missing or older than the sources, so it works straight after `npm ci`.
import { spawnSync, spawn } from 'node:child_process';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

const output = 'dist/server/eval.mjs';
const built = existsSync(output) && existsSync('dist/renderer/index.html') ? statSync(output).mtimeMs : 0;
const sources = Math.max(newest('electron'), newest('shared'), newest('renderer'));
if (built < sources) {
  const result = spawnSync('npm', ['run', 'build', '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
const child = spawn(process.execPath, [output, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 1));
