import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

/** Where Debian's redis-server is (`apt-get install redis-server`; CI installs it). */
export const REDIS_SERVER = process.env['VERDICT_REDIS_SERVER'] ?? '/usr/bin/redis-server';

/** Why the Redis tests cannot run here, or null when they can. */
export function redisMissing(): string | null {
  if (existsSync(REDIS_SERVER)) return null;
  return `no redis-server at ${REDIS_SERVER} (Debian's redis-server package; .ci/run installs it, or set VERDICT_REDIS_SERVER)`;
}

export interface TestRedis {
  readonly url: string;
  /** Stops it with SIGSTOP (frozen: connections open, nothing answered) until `thaw`. */
  freeze(): void;
  thaw(): void;
  /** Stops the server; `start` brings one back on the same port, empty. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** A real Redis on loopback, on a free port, in a temporary directory, nothing saved to disk. */
export async function startRedis(extra: string[] = []): Promise<TestRedis & { close(): Promise<void> }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'verdict-redis-'));
  let child: ChildProcess | null = null;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const c = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extra], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = c;
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
      c.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      c.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${out}`));
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
      c.removeAllListeners('exit');
      c.once('exit', () => resolve());
      c.kill('SIGCONT');
      c.kill('SIGKILL');
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    freeze: () => void (child as ChildProcess | null)?.kill('SIGSTOP'),
    thaw: () => void (child as ChildProcess | null)?.kill('SIGCONT'),
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Which redis-server it is, for messages. */
export function redisVersion(): string {
  return spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' }).stdout.trim();
}
