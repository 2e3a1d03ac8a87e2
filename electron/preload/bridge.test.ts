import { describe, expect, it } from 'vitest';
import { DATASET_UPLOAD_CHANNEL } from '../../shared/contract/dataset-upload-names';
import { ipcChannel, OPERATION_NAMES } from '../../shared/contract/names';
import { filesBridge, operationBridge } from './bridge';

describe('preload bridge', () => {
  it('sends each operation on its own channel with its input, and cannot be changed by the page', async () => {
    const sent: [string, unknown][] = [];
    const bridge = operationBridge(async (channel, input) => (sent.push([channel, input]), { ok: true, data: channel }));
    expect(Object.keys(bridge)).toEqual([...OPERATION_NAMES]);
    expect(await bridge['boxReview.runImage']({ dataset_id: 'd', position: 2, run_id: 'r' })).toEqual({ ok: true, data: ipcChannel('boxReview.runImage') });
    expect(sent).toEqual([[ipcChannel('boxReview.runImage'), { dataset_id: 'd', position: 2, run_id: 'r' }]]);
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it("sends a picked file's path, never its contents", async () => {
    const sent: [string, unknown][] = [];
    const files = filesBridge(
      async (channel, input) => sent.push([channel, input]),
      (f: { path: string; bytes: string }) => f.path,
    );
    await files.importDataset({ name: 'rows', format: 'csv' }, { path: '/home/a/rows.csv', bytes: 'secret' });
    expect(sent).toEqual([[DATASET_UPLOAD_CHANNEL, { name: 'rows', format: 'csv', path: '/home/a/rows.csv' }]]);
    expect(Object.isFrozen(files)).toBe(true);
  });
});
