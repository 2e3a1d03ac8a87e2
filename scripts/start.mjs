// `npm start`: the desktop app when the Electron binary is present and a display exists;
// otherwise the same app in the browser, served by the headless server, with the reason.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const electronDir = dirname(require.resolve('electron/package.json'));

/** The installed Electron executable, without triggering the package's own noisy download. */
function installedElectron() {
  try {
    const path = join(electronDir, 'dist', readFileSync(join(electronDir, 'path.txt'), 'utf8').trim());
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/** Electron's binary is fetched on first start (the npm package ships without it); once, quietly. */
function electronBinary() {
  const present = installedElectron();
  if (present) return { path: present };
  process.stdout.write('Fetching the Electron binary (first start only)…\n');
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], { stdio: 'pipe', timeout: 180_000 });
  const fetched = installedElectron();
  if (fetched) return { path: fetched };
  const reason = result.error?.code === 'ETIMEDOUT' ? 'timed out' : 'failed';
  return { why: `the Electron binary could not be fetched (its download ${reason}; no access to its release host?)` };
}

function run(command, args) {
  const child = spawn(command, args, { stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const forced = process.env.VERDICT_MODE === 'browser';
const electron = forced ? {} : electronBinary();
const headlessLinux = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;

if (!forced && electron.path && !headlessLinux) {
  run(electron.path, ['.', ...process.argv.slice(2)]);
} else {
  const why = forced ? 'VERDICT_MODE=browser is set' : electron.path ? 'there is no display to open a window on' : electron.why;
  process.stdout.write(`Starting Verdict in browser mode because ${why}.\n`);
  run(process.execPath, ['dist/server/cli.mjs', ...process.argv.slice(2)]);
}
