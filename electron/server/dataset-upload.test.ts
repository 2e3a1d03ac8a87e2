import { Readable } from 'node:stream';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASET_UPLOAD_PATH } from '../../shared/contract/dataset-upload-names';
import { tempDir } from '../test-support/temp-core';
import { CLIENT_HEADER, sessionCookie } from './inspector-api';
import { startServer, type RunningServer } from './start-server';

/**
 * The UI's dataset import as a stream through the real server: a file larger than the JSON body
 * limit is imported whole, sent in pieces and read as it arrives; bad input gets the usual clear
 * error and imports nothing.
 */

const LIMIT = 256 * 1024;
let UI_TOKEN = '';
const QUESTIONS = { late: { type: 'noul', instructions: 'Did the parcel come late?' } };

/** Posts a body made of pieces (a generator), chunked, and reads the JSON answer. */
function post(
  port: number,
  pieces: Iterable<string>,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  body: {
    ok: boolean;
    data?: {
      imported: number;
      skipped: number;
      dataset: { id: string; items: number } | null;
      problems: { file: string; row: number; field: string; message: string }[];
    };
    error?: { code: number; message: string };
  };
}> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: DATASET_UPLOAD_PATH,
        method: 'POST',
        headers: {
          'content-type': 'application/octet-stream',
          cookie: `${sessionCookie(`http://127.0.0.1:${port}/`)}=${UI_TOKEN}`,
          [CLIENT_HEADER]: 'renderer',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as never }));
      },
    );
    req.on('error', reject);
    Readable.from(pieces).pipe(req);
  });
}

function* jsonl(items: number, description: object): Generator<string> {
  yield `${JSON.stringify(description)}\n`;
  let batch = '';
  for (let i = 0; i < items; i += 1) {
    batch += `${JSON.stringify({ id: `item-${i}`, state: `Parcel ${i}: ${'a long description of the delivery '.repeat(8)}`, expected: { late: i % 2 === 0 } })}\n`;
    if (batch.length > 16_384) {
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}

describe('streamed dataset import', () => {
  let server: RunningServer;
  let port: number;
  const dirs = [tempDir(), tempDir()];
  beforeAll(async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', dataDir: dirs[0]!.path, rendererDir: dirs[1]!.path, version: 'test', bodyLimitBytes: LIMIT });
    UI_TOKEN = new URL(server.uiUrl).searchParams.get('token')!;
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server.close();
    for (const d of dirs) d.cleanup();
  });

  it('imports a file many times the body limit, whole and in order', async () => {
    const items = 20_000;
    const bytes = [...jsonl(items, {})].join('').length;
    expect(bytes).toBeGreaterThan(20 * LIMIT);
    const { status, body } = await post(port, jsonl(items, { name: 'big', file: 'big.jsonl', format: 'jsonl', questions: QUESTIONS }));
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ imported: items, skipped: 0, problems: [] });
    const id = body.data!.dataset!.id;
    expect((await server.core.datasets.get(id)).items).toBe(items);
    const last = await server.core.datasets.items(id, { offset: items - 1, limit: 1 });
    expect(last.items[0]).toMatchObject({ id: `item-${items - 1}`, expected: { late: false } });
    // The JSON operation refuses the same content: it is past the body limit.
    expect(
      (
        await fetch(`${server.url}/api/inspector/datasets.import`, {
          method: 'POST',
          headers: { cookie: `${sessionCookie(server.url)}=${UI_TOKEN}`, [CLIENT_HEADER]: 'renderer', 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'big', format: 'jsonl', content: [...jsonl(items, {})].slice(1).join(''), questions: QUESTIONS }),
        })
      ).status,
    ).toBe(413);
  });

  it('a CSV split anywhere, even inside the description line, imports the same', async () => {
    const text = `${JSON.stringify({ name: 'split', file: 'split.csv', format: 'csv', questions: QUESTIONS })}\nid,state,expected.late\na,"one, two",true\nb,three,false\n`;
    const pieces = Array.from({ length: Math.ceil(text.length / 7) }, (_, i) => text.slice(i * 7, i * 7 + 7));
    const { body } = await post(port, pieces);
    expect(body.data).toMatchObject({ imported: 2, problems: [] });
    expect((await server.core.datasets.items(body.data!.dataset!.id, { offset: 0, limit: 5 })).items.map((i) => [i.id, i.state, i.expected])).toEqual([
      ['a', 'one, two', { late: true }],
      ['b', 'three', { late: false }],
    ]);
  });

  it('names the file, row and field of a bad row, and imports nothing', async () => {
    const before = (await server.core.datasets.list()).length;
    const { status, body } = await post(port, [
      `${JSON.stringify({ name: 'bad', file: 'bad.jsonl', format: 'jsonl', questions: QUESTIONS })}\n`,
      '{"id":"a","state":"s","expected":{"late":true}}\n',
      '{"id":"b","state":"s","expected":{"late":"maybe"}}\n',
    ]);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ dataset: null, imported: 0 });
    expect(body.data!.problems[0]).toMatchObject({ file: 'bad.jsonl', row: 2, field: 'expected.late' });
    expect(await server.core.datasets.list()).toHaveLength(before);
  });

  it('refuses a description that is not JSON or misses a field, with a clear error', async () => {
    const notJson = await post(port, ['name=x\n', 'id,state\n']);
    expect(notJson.status).toBe(400);
    expect(notJson.body.error!.message).toMatch(/first line is not JSON/);
    const noFormat = await post(port, [`${JSON.stringify({ name: 'x', questions: QUESTIONS })}\n`, 'id,state\n']);
    expect(noFormat.status).toBe(400);
    expect(noFormat.body.error!.message).toMatch(/format/);
    const empty = await post(port, [JSON.stringify({ name: 'x', format: 'csv', questions: QUESTIONS })]);
    expect(empty.status).toBe(400);
    expect(empty.body.error!.message).toMatch(/ended before the line describing the import/);
  });

  it('needs the session like every inspector operation', async () => {
    const { status } = await post(port, ['{}\n'], { cookie: `${sessionCookie(server.url)}=wrong` });
    expect(status).toBe(401);
  });
});
