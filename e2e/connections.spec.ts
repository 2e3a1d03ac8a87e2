import { connect, type Socket } from 'node:net';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { startBuiltServer } from './fixtures/server';

const health = (port: number, localAddress: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', localAddress, path: '/healthz', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });

/**
 * The built server under its own open-file limit, as an operator's default install has one: more
 * idle connections than it may hold open (from several addresses) do not lock a new client out;
 * with no cap, they took every file the process may open and every new connection was reset.
 */
test('more idle connections than the server may hold open do not lock a new client out', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'verdict-conn-'));
  const { info, child } = await startBuiltServer(dir, {}, { openFiles: 1200 });
  const port = Number(new URL(info.url).port);
  const idle: Socket[] = [];
  try {
    for (let i = 0; i < 1500; i += 1) {
      const socket = connect({ port, host: '127.0.0.1', localAddress: `127.0.1.${1 + (i % 10)}` });
      socket.on('error', () => undefined);
      idle.push(socket);
      await new Promise((resolve) => socket.once('connect', resolve).once('close', resolve));
    }
    expect(await health(port, '127.0.2.1')).toBe(200);
  } finally {
    for (const s of idle) s.destroy();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});
