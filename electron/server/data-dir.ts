import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where Verdict keeps its data when no --data-dir or VERDICT_DATA_DIR is given, per platform. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env['VERDICT_DATA_DIR']) return env['VERDICT_DATA_DIR'];
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Verdict');
  if (platform === 'win32') return join(env['APPDATA'] ?? join(homedir(), 'AppData', 'Roaming'), 'Verdict');
  return join(env['XDG_DATA_HOME'] ?? join(homedir(), '.local', 'share'), 'verdict');
}
