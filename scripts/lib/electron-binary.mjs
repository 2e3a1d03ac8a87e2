// Finds Electron's binary for `npm start`, fetching it at most once: a failed download is remembered
// (in node_modules/.cache/verdict/), so later starts go straight to browser mode and say how to retry.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const RETRY_HINT = 'to try the download again: VERDICT_FETCH_ELECTRON=1 npm start';

/** The installed Electron executable, without triggering the package's own noisy download. */
export function installedElectron(electronDir) {
  try {
    const path = join(electronDir, 'dist', readFileSync(join(electronDir, 'path.txt'), 'utf8').trim());
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

const defaultFetch = (electronDir) => {
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], { stdio: 'pipe', timeout: 180_000 });
  return result.error?.code === 'ETIMEDOUT' ? 'timed out' : 'failed';
};

/**
 * `{ path }` when the binary is there (fetched now if no earlier attempt failed), otherwise `{ why }`.
 * options: electronDir, markerFile (where a failed attempt is remembered), retry (ignore the marker),
 * fetch (downloads; returns "failed" or "timed out"), say (progress lines).
 */
export function electronBinary({ electronDir, markerFile, retry = false, fetch = defaultFetch, say = (line) => process.stdout.write(line) }) {
  const present = installedElectron(electronDir);
  if (present) return { path: present };
  if (!retry && existsSync(markerFile)) {
    const earlier = readFileSync(markerFile, 'utf8').trim();
    return { why: `the Electron binary is not installed and its download ${earlier}; not trying again (${RETRY_HINT})` };
  }
  say('Fetching the Electron binary (once; a failed download is not retried on later starts)…\n');
  const reason = fetch(electronDir);
  const fetched = installedElectron(electronDir);
  if (fetched) {
    rmSync(markerFile, { force: true });
    return { path: fetched };
  }
  mkdirSync(dirname(markerFile), { recursive: true });
  writeFileSync(markerFile, `${reason} on ${new Date().toISOString()}\n`);
  return {
    why: `the Electron binary could not be fetched (its download ${reason}; no access to its release host?); later starts will not try again (${RETRY_HINT})`,
  };
}
