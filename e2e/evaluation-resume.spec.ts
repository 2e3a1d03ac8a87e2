import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { LogprobProvider, logprobCatalog } from '../electron/test-support/logprob-provider';
import { startBuiltServer, test, expect, type ServerInfo } from './fixtures/server';

/**
 * An evaluation run against the real built server, killed with SIGKILL mid-run and started again:
 * it resumes by itself, every item is answered once, the provider is never sent an item again once
 * its result was stored, and the spend is counted once; failed items are sent again on that resume.
 */

const ITEMS = 60;
const QUESTIONS = { late: { type: 'noul', instructions: 'Did the parcel come late?' } };
const P = (i: number) => [0.9, 0.2, 0.65, 0.4][i % 4]!;

function inspector(info: ServerInfo) {
  const token = new URL(info.uiUrl).searchParams.get('token')!;
  return async <T>(op: string, input: unknown): Promise<T> => {
    const response = await fetch(`${info.url}/api/inspector/${op}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `verdict_session_${new URL(info.url).port}=${token}`, 'x-verdict-client': 'renderer' },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as { ok: boolean; data: T; error?: unknown };
    if (!body.ok) throw new Error(`${op}: ${JSON.stringify(body.error)}`);
    return body.data;
  };
}

interface RunView {
  status: string;
  done: number;
  failed: number;
  spent_usd: number;
  total: number;
}

/** The run's view once `ready` says so of it (asked every 20 ms), failing after `timeout`. */
async function until(call: ReturnType<typeof inspector>, id: string, ready: (view: RunView) => boolean, timeout = 60_000): Promise<RunView> {
  let view: RunView | undefined;
  await expect
    .poll(async () => ready((view = await call<RunView>('evals.get', { id }))), { intervals: [20], timeout, message: `run ${id}: ${JSON.stringify(view)}` })
    .toBe(true);
  return view!;
}

/** The run's view once it has stopped running. */
const settled = (call: ReturnType<typeof inspector>, id: string) => until(call, id, (view) => view.status !== 'running');

test('an evaluation run killed with SIGKILL resumes where it stopped and sends no stored item again', async () => {
  test.setTimeout(90_000);
  const provider = await new LogprobProvider(
    ({ text }) => {
      const p = P(Number(/item-(\d+)/.exec(text)![1]));
      return { labels: { Yes: p, No: Number((1 - p).toFixed(6)) } };
    },
    { delayMs: 60 },
  ).start();
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-e2e-'));
  writeFileSync(join(dataDir, 'catalog.json'), JSON.stringify(logprobCatalog(provider.url, ['alpha'])));
  const env = { VERDICT_SANDBOX_FAILURES: 'off' };
  try {
    let { info, child } = await startBuiltServer(dataDir, env);
    let call = inspector(info);
    const content = Array.from({ length: ITEMS }, (_, i) => JSON.stringify({ id: `i${i}`, state: `Review item-${i}.`, expected: { late: i % 3 === 0 } })).join(
      '\n',
    );
    const imported = await call<{ dataset: { id: string } }>('datasets.import', { name: 'parcels.jsonl', format: 'jsonl', content, questions: QUESTIONS });
    const run = await call<{ id: string }>('evals.start', {
      request: { model: 'lp/alpha', state: '', questions: QUESTIONS },
      dataset_id: imported.dataset.id,
      variants: [{ model: 'lp/alpha' }],
      concurrency: 3,
    });
    // Kill it once a good part, not all, is stored.
    await until(call, run.id, (view) => view.done >= 15, 30_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const sentBeforeKill = provider.received.length;

    // What the killed process had committed, read from the file as it left it.
    const db = new Database(join(dataDir, 'verdict.sqlite'));
    const storedAtKill = new Set(
      (db.prepare('SELECT position FROM eval_results WHERE run_id = ?').all([run.id]) as { position: number }[]).map((r) => r.position),
    );
    db.close();
    expect(storedAtKill.size).toBeGreaterThanOrEqual(15);
    expect(storedAtKill.size).toBeLessThan(ITEMS);

    ({ info, child } = await startBuiltServer(dataDir, env));
    call = inspector(info);
    const view = await settled(call, run.id);
    expect(view).toMatchObject({ status: 'done', done: ITEMS, failed: 0, total: ITEMS });

    const itemOf = (text: string) => Number(/item-(\d+)/.exec(text)![1]);
    const afterRestart = provider.received.slice(sentBeforeKill).map((r) => itemOf(r.text));
    // Nothing stored before the kill was sent again; everything not stored was.
    expect(afterRestart.filter((i) => storedAtKill.has(i))).toEqual([]);
    expect(new Set(afterRestart).size).toBe(ITEMS - storedAtKill.size);
    // Each item answered once: one result per item, and at most one extra send (in flight at the kill).
    const report = await call<{ models: { items: number; failed: number; cost_usd: number; questions: { late: { n: number; accuracy: number } } }[] }>(
      'evals.report',
      { id: run.id },
    );
    expect(report.models[0]).toMatchObject({ items: ITEMS, failed: 0 });
    expect(report.models[0]!.questions.late.n).toBe(ITEMS);
    // Spend counted once: 60 calls of 100 prompt and 1 completion tokens at $1e-6 and $2e-6.
    expect(report.models[0]!.cost_usd).toBeCloseTo(ITEMS * 102e-6, 10);
    expect(view.spent_usd).toBeCloseTo(ITEMS * 102e-6, 10);
    const sendsPerItem = new Map<number, number>();
    for (const r of provider.received) sendsPerItem.set(itemOf(r.text), (sendsPerItem.get(itemOf(r.text)) ?? 0) + 1);
    expect(Math.max(...sendsPerItem.values())).toBeLessThanOrEqual(2);
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  } finally {
    await provider.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('after a SIGKILL, the resumed run sends failed items again, never a stored answer, and not one refused as malformed', async () => {
  test.setTimeout(90_000);
  const itemOf = (text: string) => Number(/item-(\d+)/.exec(text)![1]);
  // Items 2 and 5 meet a provider fault until the restart; item 9 is refused as malformed every time.
  let healthy = false;
  const provider = await new LogprobProvider(() => ({ labels: { Yes: 0.9, No: 0.1 } }), {
    delayMs: 60,
    fail: ({ text }) => (itemOf(text) === 9 ? 400 : !healthy && [2, 5].includes(itemOf(text)) ? 503 : null),
  }).start();
  const dataDir = mkdtempSync(join(tmpdir(), 'verdict-e2e-'));
  writeFileSync(join(dataDir, 'catalog.json'), JSON.stringify(logprobCatalog(provider.url, ['alpha'])));
  const env = { VERDICT_SANDBOX_FAILURES: 'off' };
  try {
    let { info, child } = await startBuiltServer(dataDir, env);
    let call = inspector(info);
    const content = Array.from({ length: ITEMS }, (_, i) => JSON.stringify({ id: `i${i}`, state: `Review item-${i}.`, expected: { late: true } })).join('\n');
    const imported = await call<{ dataset: { id: string } }>('datasets.import', { name: 'parcels.jsonl', format: 'jsonl', content, questions: QUESTIONS });
    const run = await call<{ id: string }>('evals.start', {
      request: { model: 'lp/alpha', state: '', questions: QUESTIONS },
      dataset_id: imported.dataset.id,
      variants: [{ model: 'lp/alpha' }],
      concurrency: 3,
    });
    await until(call, run.id, (view) => view.done >= 20, 30_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const sentBeforeKill = provider.received.length;
    const db = new Database(join(dataDir, 'verdict.sqlite'));
    const stored = db.prepare('SELECT position, ok FROM eval_results WHERE run_id = ?').all([run.id]) as { position: number; ok: number }[];
    db.close();
    const answeredAtKill = new Set(stored.filter((r) => r.ok === 1).map((r) => r.position));
    expect(
      stored
        .filter((r) => r.ok === 0)
        .map((r) => r.position)
        .sort((a, b) => a - b),
    ).toEqual([2, 5, 9]);

    healthy = true;
    ({ info, child } = await startBuiltServer(dataDir, env));
    call = inspector(info);
    const view = await settled(call, run.id);
    // Items 2 and 5 were answered at their second try; item 9 stays failed, and is not offered again.
    expect(view).toMatchObject({ status: 'done', done: ITEMS, failed: 1, total: ITEMS });
    expect((view as RunView & { retryable: number }).retryable).toBe(0);
    const afterRestart = provider.received.slice(sentBeforeKill).map((r) => itemOf(r.text));
    expect(afterRestart.filter((i) => answeredAtKill.has(i))).toEqual([]);
    expect(afterRestart.filter((i) => i === 2 || i === 5).sort()).toEqual([2, 5]);
    expect(afterRestart).not.toContain(9);
    const item5 = await call<{ results: { ok: boolean; error: string | null }[] }>('evals.item', { id: run.id, position: 5 });
    expect(item5.results[0]).toMatchObject({ ok: true, error: null });
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  } finally {
    await provider.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
