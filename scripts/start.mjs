// `npm start`: the desktop app when the Electron binary is present and a display exists;
// otherwise the same app in the browser, served by the headless server, with the reason.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    const path = require('electron');
    return typeof path === 'string' && existsSync(path) ? { path } : { why: 'the Electron binary is not installed here' };
  } catch {
    return { why: 'the Electron binary could not be downloaded when it was installed (no access to its release host)' };
  }
}

function run(command, args) {
  const child = spawn(command, args, { stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const forced = process.env.VERDICT_MODE === 'browser';
const electron = electronBinary();
const headlessLinux = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;

if (!forced && electron.path && !headlessLinux) {
  run(electron.path, ['.', ...process.argv.slice(2)]);
} else {
  const why = forced ? 'VERDICT_MODE=browser is set' : electron.path ? 'there is no display to open a window on' : electron.why;
  process.stdout.write(`Starting Verdict in browser mode because ${why}.\n`);
  run(process.execPath, ['dist/server/cli.mjs', ...process.argv.slice(2)]);
}
