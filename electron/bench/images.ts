import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { atMost, fmt, publish, row } from './report';

/**
 * Images on the built server with its simulated fleet (the default install): how long `/healthz`
 * waits while eight 6000 × 6000 JPEGs with an EXIF rotation are turned upright and answered, and
 * what 200 requests with a 20,000 × 20,000 PNG header (a few dozen bytes each) do to the process's
 * memory and how fast each is refused.
 */
const root = join(import.meta.dirname, '..', '..');

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024;
}

function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string; key: string }> {
  const child = spawn(process.execPath, [join(root, 'dist', 'server', 'cli.mjs'), '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, VERDICT_LOG_LEVEL: 'warn', VERDICT_SANDBOX_TIME_SCALE: '0', VERDICT_SANDBOX_FAILURES: 'off' },
  });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /Verdict is serving at (\S+)/.exec(out)?.[1];
      const key = /^\s+(vd-[0-9a-f]{12}-[\w-]{43})$/m.exec(out)?.[1];
      if (url && key) resolve({ child, url, key });
    });
    child.once('exit', () => reject(new Error('the server ended before it was ready')));
  });
}

/** `/healthz` every 50 ms from another process until told to stop; then each answer's wait in ms. */
const PROBE = `
let stop = false;
process.on('message', () => (stop = true));
// One answer first, untimed: a new process's first fetch sets up its HTTP client (tens of ms), which is not the server's wait.
await (await fetch(process.env.PROBE_URL + '/healthz')).text();
process.send('ready');
const waits = [];
while (!stop) {
  const t = performance.now();
  await (await fetch(process.env.PROBE_URL + '/healthz')).text();
  waits.push(performance.now() - t);
  await new Promise((resolve) => setTimeout(resolve, 50));
}
process.send(waits, () => process.exit(0));
`;

async function startProber(url: string): Promise<{ stop: () => Promise<number[]> }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', PROBE], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, PROBE_URL: url },
  });
  const ended = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the /healthz prober ended (${code}) before it reported`))));
  const message = () => Promise.race([new Promise<unknown>((resolve) => child.once('message', resolve)), ended]);
  await message();
  return {
    stop: () => {
      const waits = message() as Promise<number[]>;
      child.send('stop');
      return waits;
    },
  };
}

const boxBody = (url: string) =>
  JSON.stringify({
    model: 'sandbox/baseline-vision',
    state: [{ type: 'image_url', image_url: { url } }],
    questions: { square: { type: 'box', instructions: 'the dark square' } },
  });

/** A PNG of `width` × `height` that is only its header (a few dozen bytes): what a decompression bomb starts with. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data, Buffer.alloc(4)]);
  };
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IEND', Buffer.alloc(0))]);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-bench-images-'));
  const { child, url, key } = await startServer(dataDir);
  const post = (body: string) =>
    fetch(`${url}/api/alpha/decisions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
  try {
    const square = await sharp({ create: { width: 1500, height: 1500, channels: 3, background: '#202060' } })
      .png()
      .toBuffer();
    const rotated = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#f0f0f0' } })
      .composite([{ input: square, left: 750, top: 750 }])
      .withMetadata({ orientation: 6 })
      .jpeg({ quality: 80 })
      .toBuffer();
    const jpegUrl = `data:image/jpeg;base64,${rotated.toString('base64')}`;
    // Warm: the image pool's first thread.
    process.stderr.write('images: one rotated 6000 × 6000 JPEG to warm the pool…\n');
    await (await post(boxBody(jpegUrl))).text();
    process.stderr.write('images: eight at once, /healthz probed meanwhile…\n');

    // The probe runs in a process of its own, as a load balancer's health check does: sending eight
    // large bodies keeps this process's own loop busy, and its waits are not the server's.
    const prober = await startProber(url);
    const started = performance.now();
    const answers = Promise.all(Array.from({ length: 8 }, () => post(boxBody(jpegUrl)).then((r) => r.status)));
    const statuses = await answers;
    const allAnswered = performance.now() - started;
    const waits = await prober.stop();
    waits.sort((a, b) => a - b);
    const worst = waits.at(-1) ?? 0;

    const header = pngHeaderOnly(20_000, 20_000);
    process.stderr.write('images: 200 PNG headers of 20,000 × 20,000…\n');
    const bomb = boxBody(`data:image/png;base64,${header.toString('base64')}`);
    await (await post(bomb)).text();
    const rssBefore = rssMiB(child.pid!);
    let slowest = 0;
    const refusals = new Set<number>();
    for (let i = 0; i < 200; i += 1) {
      const t = performance.now();
      const response = await post(bomb);
      await response.text();
      slowest = Math.max(slowest, performance.now() - t);
      refusals.add(response.status);
    }
    const rssAfter = rssMiB(child.pid!);

    const rows = [
      row(
        'eight 6000 × 6000 rotated JPEGs in flight: /healthz, slowest of its answers',
        `${fmt(worst, 1)} ms (median ${fmt(waits[Math.floor(waits.length / 2)] ?? 0, 1)} ms, ${waits.length} probes)`,
        atMost(100, ' ms', worst),
      ),
      row('… the eight answered', `${statuses.join(', ')} in ${fmt(allAnswered / 1000, 1)} s`),
      row(
        '200 requests with a 20,000 × 20,000 PNG header: slowest refusal',
        `${fmt(slowest, 1)} ms (status ${[...refusals].join(', ')})`,
        atMost(1000, ' ms', slowest),
      ),
      row('… resident memory across them', `${fmt(rssBefore, 0)} → ${fmt(rssAfter, 0)} MiB`, atMost(50, ' MiB more', rssAfter - rssBefore)),
    ];
    publish({
      root,
      argv: process.argv.slice(2),
      title: 'Images on the default install',
      resultHeader: 'result',
      rows,
      detail:
        'The built server with its simulated fleet, as `npm start` runs it without provider keys. Each rotated JPEG is turned upright on the image pool (one thread on two cores) and decoded again there by the simulated vision model; another process asks /healthz every 50 ms meanwhile (in a process of its own, so that the work of sending eight uploads is not counted against the server). The PNG header is refused from the header, before anything decodes it.',
    });
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
