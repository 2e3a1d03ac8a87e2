import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { cpuMicros } from './proc';
import { atMost, fmt, row, type BenchRow } from './report';

/**
 * Issue 12's results matrix at 10,000 rows in the built app in Chromium (the same browser as the
 * e2e tests): the time to render and paint after a filter change, and frame times while scrolling
 * 400 px a frame for 180 frames. A frame is dropped when the page misses a display refresh: the
 * interval between two animation frames is over 1.5 refreshes (25 ms at 60 Hz).
 */
const ITEMS = Number(process.env['BENCH_MATRIX_ITEMS'] ?? 10_000);
const QUESTIONS = { late: { type: 'noul', instructions: 'Did the parcel arrive late?' } };
const REFRESH_MS = 1000 / 60;

/** The built server in a process of its own, on simulated providers answering at once. */
export function startServer(root: string, dataDir: string): Promise<{ url: string; uiUrl: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(root, 'dist', 'server', 'cli.mjs'), '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, VERDICT_LOG_LEVEL: 'warn', VERDICT_SANDBOX_TIME_SCALE: '0', VERDICT_SANDBOX_FAILURES: 'off', VERDICT_DRAIN_NOTICE_SECONDS: '0' },
  });
  const stop = () => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM'))));
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /Verdict is serving at (\S+)/.exec(out)?.[1];
      const uiUrl = /Open the inspector: (\S+)/.exec(out)?.[1];
      if (url && uiUrl && /Data directory:.*\n/.test(out)) resolve({ url, uiUrl, pid: child.pid!, stop });
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before it was ready`)));
  });
}

/** A dataset of ITEMS items answered by the simulated providers, through the server's inspector API (also the scale journey's set-up). */
export async function prepareRun(page: Page, url: string): Promise<void> {
  const call = async <T>(op: string, input: unknown): Promise<T> => {
    const response = await page.request.post(`${url}/api/inspector/${op}`, { headers: { 'x-verdict-client': 'renderer' }, data: input, timeout: 120_000 });
    const body = (await response.json()) as { ok: boolean; data: T; error?: unknown };
    if (!body.ok) throw new Error(`${op}: ${JSON.stringify(body.error)}`);
    return body.data;
  };
  const content = Array.from({ length: ITEMS }, (_, i) =>
    JSON.stringify({ id: `item-${i}`, state: `Parcel ${i} ${i % 2 ? 'arrived two days late' : 'came on time'}.`, expected: { late: i % 2 === 1 } }),
  ).join('\n');
  const imported = await call<{ dataset: { id: string } }>('datasets.import', { name: 'ten thousand', format: 'jsonl', content, questions: QUESTIONS });
  const run = await call<{ id: string }>('evals.start', {
    request: { model: 'sandbox/baseline-text', state: '', questions: QUESTIONS },
    dataset_id: imported.dataset.id,
    variants: [{ model: 'sandbox/baseline-text' }],
    concurrency: 16,
  });
  for (let status = 'running'; status === 'running';) {
    await page.waitForTimeout(500);
    status = (await call<{ status: string }>('evals.get', { id: run.id })).status;
  }
}

/** The time from a click on "All" (its rows already fetched) to the second animation frame after it. */
async function renderAfterFilter(page: Page): Promise<number> {
  await page.getByRole('button', { name: 'Wrong', exact: true }).click();
  await page.waitForTimeout(1000);
  // Run in the page (written as text: this file is compiled without the DOM's types).
  const renderMs = await page.evaluate<number>(`(async () => {
    const all = [...document.querySelectorAll('[aria-label="Show items"] button')].find((b) => b.textContent === 'All');
    const t0 = performance.now();
    all.click();
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return performance.now() - t0;
  })()`);
  await page.waitForTimeout(500);
  return renderMs;
}

/** Scrolls the list 400 px a frame for 180 frames: the intervals between animation frames, sorted. */
const scroll = (page: Page) =>
  page.evaluate<number[]>(`(async () => {
    const list = document.querySelector('[role="grid"][aria-label="Results"] .virtual-rows');
    const times = [];
    let last = performance.now();
    for (let i = 0; i < 180; i += 1) {
      list.scrollTop += 400;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const now = performance.now();
      times.push(now - last);
      last = now;
    }
    return times.sort((a, b) => a - b);
  })()`);

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * The page's main-thread CPU time per frame while scrolling, from a Chromium trace: the thread
 * time of its tasks between one animation frame and the next (sorted). Apart from the intervals,
 * it shows the page's own work per frame, whatever else the machine is doing.
 */
export function cpuPerFrame(events: TraceEvent[]): number[] {
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return [];
  const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  const frames = mine
    .filter((e) => e.name === 'FireAnimationFrame')
    .map((e) => e.ts)
    .sort((a, b) => a - b);
  const tasks = mine.filter((e) => (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') && e.tdur !== undefined).sort((a, b) => a.ts - b.ts);
  const out: number[] = [];
  let t = 0;
  for (let f = 1; f < frames.length; f += 1) {
    let cpu = 0;
    while (t < tasks.length && tasks[t]!.ts < frames[f]!) {
      if (tasks[t]!.ts >= frames[f - 1]!) cpu += tasks[t]!.tdur!;
      t += 1;
    }
    out.push(cpu / 1000);
  }
  return out.sort((a, b) => a - b);
}

/**
 * The page's JavaScript heap in MB, read from Chromium (DevTools protocol, Runtime.getHeapUsage):
 * what the heap holds now, garbage not yet collected included; after `collect`, once Chromium has
 * collected it, what the page keeps alive.
 */
async function jsHeapMb(page: Page, collect = false): Promise<{ used: number; total: number }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    if (collect) await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize, totalSize } = await cdp.send('Runtime.getHeapUsage');
    return { used: usedSize / 1e6, total: totalSize / 1e6 };
  } finally {
    await cdp.detach();
  }
}

const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;

export async function resultsMatrixBench(root: string): Promise<BenchRow[]> {
  const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
  const missing = !existsSync(join(root, 'dist', 'server', 'cli.mjs'))
    ? 'the built app (npm run build)'
    : !existsSync(chromiumPath)
      ? `Chromium at ${chromiumPath}`
      : null;
  if (missing) return [row('results matrix with 10,000 rows', `not measured: needs ${missing}`)];
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-bench-matrix-'));
  const server = await startServer(root, dataDir);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.uiUrl);
    await prepareRun(page, server.url);
    await page.keyboard.press('Alt+3');
    // The grid's first row is its header: the second is the first item.
    await page.getByRole('grid', { name: 'Results' }).getByRole('row').nth(1).waitFor({ timeout: 60_000 });
    await page.waitForTimeout(1000);
    const heaps = [await jsHeapMb(page)];
    const renderMs = await renderAfterFilter(page);
    const serverBefore = cpuMicros(server.pid);
    const frames = await scroll(page);
    const serverMs = (cpuMicros(server.pid) - serverBefore) / 1000;
    const tracePath = process.env['BENCH_MATRIX_TRACE'] ?? join(dataDir, 'trace.json');
    await browser.startTracing(page, { path: tracePath, categories: ['toplevel', 'devtools.timeline'] });
    await scroll(page);
    await browser.stopTracing();
    heaps.push(await jsHeapMb(page));
    const live = await jsHeapMb(page, true);
    const heap = Math.max(...heaps.map((h) => h.used));
    const cpu = cpuPerFrame((JSON.parse(readFileSync(tracePath, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents);
    const dropped = frames.filter((f) => f > 1.5 * REFRESH_MS).length;
    return [
      row(
        `results matrix with ${ITEMS.toLocaleString('en-US')} rows: render and paint after a filter change (data already fetched)`,
        `${fmt(renderMs, 1)} ms`,
        atMost(200, ' ms', renderMs),
      ),
      row(
        'scrolling it 400 px a frame for 180 frames: frame interval p50 / p95 / longest',
        `${fmt(at(frames, 0.5), 1)} / ${fmt(at(frames, 0.95), 1)} / ${fmt(frames.at(-1)!, 1)} ms`,
      ),
      row('frames dropped while scrolling (an interval over 1.5 refreshes, 25 ms)', String(dropped), atMost(0, '', dropped)),
      row("the server's CPU during that scroll (its page fetches and whatever else it was doing), on the same two cores", `${fmt(serverMs, 0)} ms`),
      row(
        "the page's main-thread CPU per frame while scrolling (traced): p50 / p95 / longest",
        `${fmt(at(cpu, 0.5), 1)} / ${fmt(at(cpu, 0.95), 1)} / ${fmt(cpu.at(-1) ?? Number.NaN, 1)} ms`,
        atMost(16.7, ' ms (one refresh)', cpu.at(-1) ?? Number.POSITIVE_INFINITY),
      ),
      row(
        `the browser's JavaScript heap with the ${ITEMS.toLocaleString('en-US')}-item run's page open: the larger of once open and after the filter change and the scrolls (garbage not yet collected included); what stays after a collection`,
        `${fmt(heap, 1)} MB (heap ${fmt(Math.max(...heaps.map((h) => h.total)), 1)} MB); ${fmt(live.used, 1)} MB`,
        atMost(300, ' MB', heap),
      ),
    ];
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Run alone: node dist/bench/results-matrix.mjs
if (process.argv[1]?.endsWith('results-matrix.mjs')) {
  for (const r of await resultsMatrixBench(join(import.meta.dirname, '..', '..')))
    process.stdout.write(`${r.measure}: ${r.result} ${r.target} ${r.met === undefined ? '' : r.met ? 'MET' : 'MISSED'}\n`);
}
