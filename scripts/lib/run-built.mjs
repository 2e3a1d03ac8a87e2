// Runs a bundled entry point of dist/, building first when the build is missing or older than the
// sources, so `npm run serve` and `npm run eval` work straight after `npm ci`. Signals pass through
// to the child; its exit code becomes ours.
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

export function runBuilt(output, args) {
  const built = existsSync(output) && existsSync('dist/renderer/index.html') ? statSync(output).mtimeMs : 0;
  const sources = Math.max(newest('electron'), newest('shared'), newest('renderer'));
  if (built < sources) {
    const result = spawnSync('npm', ['run', 'build', '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  const child = spawn(process.execPath, [output, ...args], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 1));
}
