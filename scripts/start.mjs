// `npm start`: the desktop app when the Electron binary is present and a display exists;
// otherwise the same app in the browser, served by the headless server, with the reason.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { electronBinary } from './lib/electron-binary.mjs';

const require = createRequire(import.meta.url);
const electronDir = dirname(require.resolve('electron/package.json'));

function run(command, args) {
  const child = spawn(command, args, { stdio: 'inherit' });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const forced = process.env.VERDICT_MODE === 'browser';
const electron = forced
  ? {}
  : electronBinary({
      electronDir,
      markerFile: join('node_modules', '.cache', 'verdict', 'electron-download-failed'),
      retry: process.env.VERDICT_FETCH_ELECTRON === '1',
    });
const headlessLinux = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;

if (!forced && electron.path && !headlessLinux) {
  run(electron.path, ['.', ...process.argv.slice(2)]);
} else {
  const why = forced ? 'VERDICT_MODE=browser is set' : electron.path ? 'there is no display to open a window on' : electron.why;
  process.stdout.write(`Starting Verdict in browser mode because ${why}.\n`);
  run(process.execPath, ['dist/server/cli.mjs', ...process.argv.slice(2)]);
}
