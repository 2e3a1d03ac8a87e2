import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/temp-core';
import { serverBanner } from './banner';
import { allowedHostnames, isLoopbackAddress } from './hosts';
import { startServer } from './start-server';

const get = (url: string, host: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });

describe('which Host names a server answers to', () => {
  it('loopback is the whole 127.0.0.0/8 range, ::1 and localhost; nothing else', () => {
    for (const h of ['127.0.0.1', '127.0.0.2', '127.255.0.9', '::1', '[::1]', 'localhost', 'LOCALHOST']) expect(isLoopbackAddress(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', 'example.com', '127.0.0.1.example.com']) expect(isLoopbackAddress(h), h).toBe(false);
  });

  it('the bound address and the names the operator allows, besides the loopback names', () => {
    expect(allowedHostnames('127.0.0.2')).toEqual(expect.arrayContaining(['127.0.0.2', '127.0.0.1', 'localhost', '[::1]']));
    expect(allowedHostnames('127.0.0.2')).not.toContain('evil.example');
    expect(allowedHostnames('::1', ['Verdict.Example'])).toEqual(expect.arrayContaining(['[::1]', 'verdict.example']));
    // Bound to every address: this machine's own addresses, never any name.
    const all = allowedHostnames('0.0.0.0');
    expect(all).toContain('127.0.0.1');
    expect(all).not.toContain('evil.example');
  });

  it('a server bound to 127.0.0.2 refuses a foreign Host in the envelope and serves its own', async () => {
    const dirs = [tempDir(), tempDir()];
    const server = await startServer({
      port: 0,
      host: '127.0.0.2',
      dataDir: dirs[0]!.path,
      rendererDir: dirs[1]!.path,
      version: 'test',
      overrideGlobalObjects: false,
      allowedHosts: ['verdict.test'],
    });
    try {
      const port = new URL(server.url).port;
      const foreign = await get(`${server.url}/api/v1/endpoints/zdr`, `attacker.example:${port}`);
      expect(foreign.status).toBe(403);
      expect(JSON.parse(foreign.body)).toMatchObject({ error: { code: 403, message: 'Requests for host "attacker.example" are not served here' } });
      const own = await get(`${server.url}/api/v1/endpoints/zdr`, `127.0.0.2:${port}`);
      expect(own.status).toBe(401);
      const named = await get(`${server.url}/api/v1/endpoints/zdr`, `verdict.test:${port}`);
      expect(named.status).toBe(401);
    } finally {
      await server.close();
      for (const d of dirs) d.cleanup();
    }
  });

  it('the banner warns only for addresses beyond this machine, and names the hosts answered', () => {
    const banner = (host: string) =>
      serverBanner({ url: 'http://x', uiUrl: 'http://x/?token=t', dataDir: '/d', host, allowedHosts: ['verdict.example'], initialKey: undefined }).join('\n');
    expect(banner('127.0.0.2')).not.toMatch(/reachable beyond this machine/);
    expect(banner('::1')).not.toMatch(/Warning/);
    expect(banner('0.0.0.0')).toMatch(/Warning: listening on 0\.0\.0\.0, reachable beyond this machine/);
    expect(banner('0.0.0.0')).toMatch(/answered only for these host names: .*verdict\.example/);
  });
});
