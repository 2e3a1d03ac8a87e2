import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../index';
import { FileSecretStore, ownerOnlyFileCodec } from '../../keys/secret-store';
import { LogprobProvider, logprobCatalog, type LabelRequest } from '../../../test-support/logprob-provider';
import { tempDir } from '../../../test-support/temp-core';
import { readRows } from '../../datasets/dataset-sources';
import { MAX_ITEM_TRIES } from './eval-runner';

/**
 * Failed items are sent again when a run is resumed, whether after a pause or in a new process on
 * the same data file, through the real gateway to a loopback provider: answers already stored are
 * never sent again, a request refused as malformed (400) is not retried, and no item is sent more
 * than MAX_ITEM_TRIES times.
 */

const ITEMS = 12;
const QUESTIONS = { late: { type: 'noul' as const, instructions: 'Did the parcel come late?' } };
const REQUEST = { model: 'lp/alpha', state: '', questions: QUESTIONS };
const itemOf = (r: LabelRequest) => Number(/item-(\d+)/.exec(r.text)![1]);

let dir: ReturnType<typeof tempDir>;
let provider: LogprobProvider;
/** The HTTP status the provider answers for an item, by how many times it has seen the item before. */
let failWith: (item: number, seen: number) => number | null;
const open: Core[] = [];

async function startCore(): Promise<Core> {
  const core = await createCore({
    dataDir: dir.path,
    secrets: new FileSecretStore(join(dir.path, 'secrets.json'), ownerOnlyFileCodec),
    host: 'browser',
    version: 'test',
    discovery: false,
  });
  open.push(core);
  return core;
}

const sent = (item: number) => provider.received.filter((r) => itemOf(r) === item).length;

beforeEach(async () => {
  dir = tempDir('verdict-eval-retry-');
  failWith = () => null;
  const seen = new Map<number, number>();
  provider = await new LogprobProvider(() => ({ labels: { Yes: 0.8, No: 0.2 } }), {
    fail: (request) => {
      const item = itemOf(request);
      const before = seen.get(item) ?? 0;
      seen.set(item, before + 1);
      return failWith(item, before);
    },
  }).start();
  writeFileSync(join(dir.path, 'catalog.json'), JSON.stringify(logprobCatalog(provider.url, ['alpha'])));
});
afterEach(async () => {
  for (const core of open.splice(0)) await core.close();
  await provider.close();
  dir.cleanup();
});

async function importItems(core: Core): Promise<string> {
  const content = Array.from({ length: ITEMS }, (_, i) => JSON.stringify({ id: `i${i}`, state: `Parcel item-${i}.`, expected: { late: true } })).join('\n');
  return (await core.datasets.import({ name: 'd', rows: readRows(Readable.from([content]), 'd.jsonl', 'jsonl'), questions: QUESTIONS })).dataset!.id;
}

describe('failed items on resume', () => {
  it('sends items that failed with a provider fault again, never an answered item, and not one refused as malformed', async () => {
    // Item 3 fails once with a 503, item 7 every time with a 400 (the request is refused as it is).
    failWith = (item, seen) => (item === 3 && seen === 0 ? 503 : item === 7 ? 400 : null);
    const core = await startCore();
    const datasetId = await importItems(core);
    const run = await core.evalRuns.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'lp/alpha' }], concurrency: 2 });
    const first = await core.evalRuns.wait(run.id);
    expect(first).toMatchObject({ status: 'done', done: ITEMS, failed: 2, retryable: 1 });
    const spentBefore = first.spent_usd;
    const receivedBefore = provider.received.length;

    const resumed = await core.evalRuns.resume(run.id);
    expect(resumed.status).toBe('running');
    const second = await core.evalRuns.wait(run.id);
    expect(second).toMatchObject({ status: 'done', done: ITEMS, failed: 1, retryable: 0 });
    // Only item 3 went out again: item 7's 400 would be refused again, the others are answered.
    expect(provider.received.slice(receivedBefore).map(itemOf)).toEqual([3]);
    expect(sent(3)).toBe(2);
    expect(sent(7)).toBe(1);
    const three = (await core.evalResults.item(run.id, 3)).results[0]!;
    expect(three).toMatchObject({ ok: true, error: null });
    expect(three.answers['late']).toMatchObject({ type: 'noul', noul: expect.closeTo(0.8, 6) });
    expect((await core.evalResults.item(run.id, 7)).results[0]!.error).toMatch(/^400: /);
    // The answer's cost is added once: the spend grew by exactly item 3's stored cost.
    expect(second.spent_usd).toBeGreaterThan(spentBefore);
    expect(second.spent_usd - spentBefore).toBeCloseTo(three.usage.cost!, 12);
    expect((await core.evalReports.report(run.id)).models[0]).toMatchObject({ items: ITEMS, failed: 1 });
    // Nothing left to send: resuming the finished run again is refused, with the reason.
    await expect(core.evalRuns.resume(run.id)).rejects.toThrow(/no failed item to try again/);
  });

  it(`sends a failing item at most ${MAX_ITEM_TRIES} times in all, across pauses and restarts of the process`, async () => {
    failWith = (item) => (item === 5 ? 502 : null);
    let core = await startCore();
    const datasetId = await importItems(core);
    const run = await core.evalRuns.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'lp/alpha' }], concurrency: 3 });
    expect(await core.evalRuns.wait(run.id)).toMatchObject({ done: ITEMS, failed: 1, retryable: 1 });
    for (let resume = 1; resume < MAX_ITEM_TRIES; resume += 1) {
      // A new process on the same data file, as after a restart: the finished run is resumed by hand.
      await open.pop()!.close();
      core = await startCore();
      await core.evalRuns.resume(run.id);
      await core.evalRuns.wait(run.id);
    }
    const last = await core.evalRuns.get(run.id);
    expect(last).toMatchObject({ status: 'done', done: ITEMS, failed: 1, retryable: 0 });
    expect(sent(5)).toBe(MAX_ITEM_TRIES);
    for (let i = 0; i < ITEMS; i += 1) if (i !== 5) expect(sent(i)).toBe(1);
    await expect(core.evalRuns.resume(run.id)).rejects.toThrow(/no failed item to try again/);
  });

  it('a paused run sends its failed items again on resume, with the items it had not reached', async () => {
    failWith = (item, seen) => (item === 0 && seen === 0 ? 500 : null);
    const core = await startCore();
    const datasetId = await importItems(core);
    const run = await core.evalRuns.start({ request: REQUEST, dataset_id: datasetId, variants: [{ model: 'lp/alpha' }], concurrency: 1 });
    // Pause once item 0 has failed and before the run ends.
    for (let view = await core.evalRuns.get(run.id); view.failed === 0; view = await core.evalRuns.get(run.id)) await new Promise((r) => setTimeout(r, 2));
    await core.evalRuns.pause(run.id);
    const paused = await core.evalRuns.wait(run.id);
    expect(paused.status).toBe('paused');
    expect(paused.done).toBeLessThan(ITEMS);
    await core.evalRuns.resume(run.id);
    expect(await core.evalRuns.wait(run.id)).toMatchObject({ status: 'done', done: ITEMS, failed: 0, retryable: 0 });
    expect(sent(0)).toBe(2);
    for (let i = 1; i < ITEMS; i += 1) expect(sent(i)).toBe(1);
  });
});
