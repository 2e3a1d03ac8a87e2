import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { DATASET_UPLOAD_PATH } from '../../shared/contract/dataset-upload-names';
import { atMost, fmt, row, type BenchRow } from './report';
import { startServer } from './results-matrix';

/**
 * A large JSONL imported the way the Evaluations screen sends it: one streamed upload to the built
 * server (a description line, then the file's bytes), with the server process's resident memory
 * sampled from /proc while it imports.
 */
const MiB = 1024 * 1024;
const QUESTIONS = { late: { type: 'noul', instructions: 'Did the parcel arrive late?' } };
const FILLER = 'the parcel was handed to the courier at the depot and scanned twice before it left '.repeat(15);

const rssOf = (pid: number): number | null => {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
  } catch {
    return null;
  }
};

function* body(items: number, sent: { bytes: number }): Generator<Buffer> {
  yield Buffer.from(`${JSON.stringify({ name: 'upload bench', file: 'big.jsonl', format: 'jsonl', questions: QUESTIONS })}\n`);
  let batch = '';
  for (let i = 0; i < items; i += 1) {
    batch += `${JSON.stringify({ id: `item-${i}`, state: `Parcel ${i}: ${FILLER}`, expected: { late: i % 2 === 0 } })}\n`;
    if (batch.length >= 256 * 1024 || i === items - 1) {
      const chunk = Buffer.from(batch);
      sent.bytes += chunk.length;
      batch = '';
      yield chunk;
    }
  }
}

export async function uploadBench(root: string): Promise<BenchRow[]> {
  if (!existsSync(join(root, 'dist', 'server', 'cli.mjs')))
    return [row('streamed upload of a large JSONL', 'not measured: needs the built app (npm run build)')];
  const items = Number(process.env['BENCH_UPLOAD_ITEMS'] ?? 160_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-bench-upload-'));
  const server = await startServer(root, dataDir);
  try {
    const token = new URL(server.uiUrl).searchParams.get('token')!;
    const start = rssOf(server.pid);
    let peak = start ?? 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.pid) ?? 0)), 50);
    const sent = { bytes: 0 };
    const t0 = performance.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const url = new URL(DATASET_UPLOAD_PATH, server.url);
      const req = request(
        url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/octet-stream',
            cookie: `verdict_session_${new URL(server.url).port}=${token}`,
            'x-verdict-client': 'renderer',
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      Readable.from(body(items, sent)).pipe(req);
    });
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const result = JSON.parse(answer) as { ok: boolean; data?: { imported: number } };
    if (!result.ok || result.data?.imported !== items)
      throw new Error(`the upload imported ${result.data?.imported ?? 0} of ${items}: ${answer.slice(0, 300)}`);
    const rows = [
      row(
        `streamed upload of ${items.toLocaleString('en-US')} JSONL items (${fmt(sent.bytes / MiB, 0)} MiB) to the server, as the screen sends it`,
        `${fmt(seconds, 1)} s`,
      ),
    ];
    if (start === null) return [...rows, row("the server's memory during that upload", 'not measured (needs /proc)')];
    const growth = (peak - start) / MiB;
    return [
      ...rows,
      row(
        "the server process's resident memory above its start during that upload (peak)",
        `${fmt(growth, 0)} MiB (of ${fmt(peak / MiB, 0)} MiB)`,
        atMost(100, ' MiB', growth),
      ),
    ];
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
