import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngWithRect } from '../../test-support/images';
import { tempCore, type TempCore } from '../../test-support/temp-core';

const card = { top: 0.1, left: 0.2, bottom: 0.5, right: 0.6 };
const badge = { top: 0.6, left: 0.1, bottom: 0.9, right: 0.3 };

describe('box review items', () => {
  let env: TempCore;
  beforeAll(async () => {
    env = await tempCore();
  });
  afterAll(() => env.cleanup());

  it('reads the image size in pixels when the image is added', async () => {
    const item = await env.core.handlers['boxes.add']({ name: 'a.png', data_url: pngWithRect(321, 123, { x: 1, y: 1, w: 5, h: 5 }) });
    expect([item.width, item.height]).toEqual([321, 123]);
    const unreadable = await env.core.handlers['boxes.add']({ name: 'b.png', data_url: 'data:image/png;base64,AAAA' });
    expect([unreadable.width, unreadable.height]).toEqual([null, null]);
  });

  it('lists without images, each fetched on its own, so the list stays small', async () => {
    const h = env.core.handlers;
    const url = pngWithRect(64, 48, { x: 1, y: 1, w: 5, h: 5 });
    const item = await h['boxes.add']({ name: 'light.png', data_url: url });
    const light = (await h['boxes.list']({ images: false })).find((i) => i.id === item.id)!;
    expect(light).toMatchObject({ name: 'light.png', data_url: '', width: 64, height: 48 });
    expect((await h['boxes.list']({})).find((i) => i.id === item.id)!.data_url).toBe(url);
    expect(await h['boxes.image']({ id: item.id })).toEqual({ id: item.id, data_url: url });
    await expect(h['boxes.image']({ id: 'img-none' })).rejects.toThrow('No image with id "img-none"');
  });

  it('keeps labelled truth and answers by box question', async () => {
    const h = env.core.handlers;
    const item = await h['boxes.add']({ name: 'two.png', data_url: pngWithRect(100, 100, { x: 1, y: 1, w: 5, h: 5 }) });
    await h['boxes.update']({
      id: item.id,
      truth: [
        { ...card, label: 'card' },
        { ...badge, label: 'badge' },
      ],
    });
    await h['boxes.update']({ id: item.id, answers: { card, badge }, answer: card, run_id: 'run-1', model: 'm' });
    const [stored] = (await h['boxes.list']({})).filter((i) => i.id === item.id);
    expect(stored).toMatchObject({ truth: [{ label: 'card' }, { label: 'badge' }], answers: { card, badge }, stale: false });
  });

  it('a verdict given before a later run is marked stale, and a new verdict is not', async () => {
    const h = env.core.handlers;
    const item = await h['boxes.add']({ name: 'c.png', data_url: pngWithRect(100, 100, { x: 1, y: 1, w: 5, h: 5 }) });
    await h['boxes.update']({ id: item.id, answers: { card }, run_id: 'run-1' });
    expect(await h['boxes.update']({ id: item.id, verdict: 'accepted' })).toMatchObject({ verdict: 'accepted', stale: false });
    expect(await h['boxes.update']({ id: item.id, answers: { card: badge }, run_id: 'run-2' })).toMatchObject({ verdict: 'accepted', stale: true });
    expect(await h['boxes.update']({ id: item.id, verdict: 'rejected' })).toMatchObject({ verdict: 'rejected', stale: false });
    expect(await h['boxes.update']({ id: item.id, verdict: null })).toMatchObject({ verdict: null, stale: false });
  });

  it('a backup restores answers, labels and a stale verdict as stale', async () => {
    const h = env.core.handlers;
    const item = await h['boxes.add']({ name: 'd.png', data_url: pngWithRect(100, 100, { x: 1, y: 1, w: 5, h: 5 }) });
    await h['boxes.update']({ id: item.id, truth: [{ ...card, label: 'card' }], answers: { card }, run_id: 'run-1', verdict: 'accepted' });
    await h['boxes.update']({ id: item.id, run_id: 'run-2' });
    const backup = await h['backup.export']({});
    const to = await tempCore();
    try {
      await to.core.handlers['backup.import']({ backup });
      const restored = (await to.core.handlers['boxes.list']({})).find((i) => i.name === 'd.png');
      expect(restored).toMatchObject({
        truth: [{ label: 'card' }],
        answers: { card },
        run_id: 'run-2',
        verdict: 'accepted',
        stale: true,
        width: 100,
        height: 100,
      });
    } finally {
      await to.cleanup();
    }
  });
});
