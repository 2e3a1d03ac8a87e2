import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASET_UPLOAD_CHANNEL } from '../../shared/contract/dataset-upload';
import { ipcChannel, OPERATION_NAMES } from '../../shared/contract/names';
import { pngWithRect } from '../test-support/images';
import { tempCore, type TempCore } from '../test-support/temp-core';
import { ipcRoutes, senderIsTrusted, type IpcSender } from './ipc-routes';

const app: IpcSender = { senderFrame: { url: 'app://verdict/index.html#/boxes', parent: null } };
const framed: IpcSender = { senderFrame: { url: 'app://verdict/index.html', parent: {} } };
const stranger: IpcSender = { senderFrame: { url: 'https://example.com/', parent: null } };

describe('IPC routes', () => {
  let env: TempCore;
  let route: (channel: string) => (event: IpcSender, input: unknown) => Promise<unknown>;
  beforeAll(async () => {
    env = await tempCore();
    const routes = new Map(ipcRoutes(env.core));
    route = (channel) => routes.get(channel)!;
  });
  afterAll(() => env.cleanup());

  it('has one route per operation and the dataset import, and trusts only the app top frame', () => {
    const channels = ipcRoutes(env.core).map(([c]) => c);
    expect(channels).toEqual([...OPERATION_NAMES.map(ipcChannel), DATASET_UPLOAD_CHANNEL]);
    expect(senderIsTrusted(app)).toBe(true);
    expect(senderIsTrusted(framed)).toBe(false);
    expect(senderIsTrusted(stranger)).toBe(false);
    expect(senderIsTrusted({ senderFrame: null })).toBe(false);
  });

  it('carries box review over IPC: images added, listed, judged, with input checked and errors as data', async () => {
    const data_url = pngWithRect(40, 30, { x: 2, y: 2, w: 10, h: 10 });
    const added = (await route(ipcChannel('boxReview.addImages'))(app, { name: 'ipc', images: [{ name: 'a.png', data_url }] })) as {
      ok: true;
      data: { id: string };
    };
    expect(added).toMatchObject({ ok: true, data: { name: 'ipc', items: 1 } });
    const items = await route(ipcChannel('boxReview.items'))(app, { dataset_id: added.data.id });
    expect(items).toMatchObject({ ok: true, data: [{ name: 'a.png', width: 40, height: 30, verdict: null }] });
    expect(await route(ipcChannel('boxReview.update'))(app, { dataset_id: added.data.id, position: 0, verdict: 'accepted' })).toMatchObject({
      ok: true,
      data: { verdict: 'accepted', verdict_model: null },
    });
    expect(await route(ipcChannel('boxReview.update'))(app, { dataset_id: added.data.id, position: 0, verdict: 'maybe' })).toMatchObject({
      ok: false,
      error: { code: 400, message: expect.stringMatching(/verdict/) },
    });
    expect(await route(ipcChannel('boxReview.runImage'))(app, { dataset_id: added.data.id, position: 0, run_id: 'eval-none' })).toMatchObject({
      ok: false,
      error: { code: 404 },
    });
  });

  it('logs what the window changes as the desktop in the audit log', async () => {
    const answer = (await route(ipcChannel('apiKeys.create'))(app, { name: 'desktop made' })) as { ok: boolean; data: { info: { id: string } } };
    expect(answer.ok).toBe(true);
    await route(ipcChannel('apiKeys.revoke'))(app, { id: answer.data.info.id });
    const { entries } = await env.core.audit.list({ offset: 0, limit: 10, target_kind: 'key' });
    expect(entries.map((e) => [e.actor, e.action, e.target.name])).toEqual([
      [{ kind: 'desktop' }, 'key.revoke', 'desktop made'],
      [{ kind: 'desktop' }, 'key.create', 'desktop made'],
    ]);
  });

  it('refuses a sender that is not the app, before reaching the core', async () => {
    const before = (await env.core.handlers['datasets.list']({})).length;
    const data_url = pngWithRect(4, 3, { x: 0, y: 0, w: 1, h: 1 });
    for (const sender of [framed, stranger]) {
      expect(await route(ipcChannel('boxReview.addImages'))(sender, { name: 'x', images: [{ name: 'x.png', data_url }] })).toEqual({
        ok: false,
        error: { code: 403, message: 'This window may not call Verdict' },
      });
      expect(await route(DATASET_UPLOAD_CHANNEL)(sender, {})).toMatchObject({ ok: false, error: { code: 403 } });
    }
    expect((await env.core.handlers['datasets.list']({})).length).toBe(before);
  });

  it('imports a dataset file from its path', async () => {
    const path = join(env.dataDir, 'rows.jsonl');
    writeFileSync(path, '{"id":"t","state":"hello","expected":{"ok":true}}\n');
    const result = await route(DATASET_UPLOAD_CHANNEL)(app, {
      name: 'from a path',
      format: 'jsonl',
      questions: { ok: { type: 'noul', instructions: 'ok?' } },
      path,
    });
    expect(result).toMatchObject({ ok: true, data: { imported: 1, dataset: { name: 'from a path' } } });
  });
});
