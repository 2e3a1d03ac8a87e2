import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogFileSchema } from '../../../../shared/schemas/catalog';
import { jpegWithOrientation, pngWithRect } from '../../../test-support/images';
import { tempCore, type TempCore } from '../../../test-support/temp-core';
import { boxConventionFor, iou, parseBox, seenSize } from './conventions';

describe('box conventions', () => {
  const expected = { top: 0.1, left: 0.2, bottom: 0.5, right: 0.8 };
  const close = (box: ReturnType<typeof parseBox>) => {
    expect(box).not.toBeNull();
    for (const k of ['top', 'left', 'bottom', 'right'] as const) expect(box![k]).toBeCloseTo(expected[k], 3);
  };

  it('Gemini: box_2d [ymin, xmin, ymax, xmax] on 0..1000', () => close(parseBox('{"box_2d": [100, 200, 500, 800]}', 'gemini-1000', { width: 1, height: 1 })));
  it('Gemini: a bare [ymin, xmin, ymax, xmax] list, fenced or not, and box_2d inside a list of objects', () => {
    close(parseBox('[100, 200, 500, 800]', 'gemini-1000', { width: 1, height: 1 }));
    close(parseBox('```json\n[100, 200, 500, 800]\n```', 'gemini-1000', { width: 1, height: 1 }));
    close(parseBox('[{"box_2d": [100, 200, 500, 800], "label": "cat"}]', 'gemini-1000', { width: 1, height: 1 }));
    // A bare list is not fractions: no convention says which number is which edge there.
    expect(parseBox('[0.1, 0.2, 0.5, 0.8]', 'fractions', { width: 1, height: 1 })).toBeNull();
  });
  it('Qwen2-VL / Qwen3-VL: bbox_2d [x1, y1, x2, y2] on 0..1000', () =>
    close(parseBox('```json\n{"bbox_2d": [200, 100, 800, 500]}\n```', 'qwen-1000', { width: 1, height: 1 })));
  it('Qwen2.5-VL: pixels of the image as resized to multiples of 28', () => {
    const seen = seenSize('qwen25-pixels', 1000, 500);
    expect(seen).toEqual({ width: 1008, height: 504 });
    close(parseBox(JSON.stringify({ bbox_2d: [0.2 * 1008, 0.1 * 504, 0.8 * 1008, 0.5 * 504] }), 'qwen25-pixels', seen));
  });
  it('Claude: pixels of the image as scaled to 1568 px and about 1.15 megapixels', () => {
    const seen = seenSize('claude-pixels', 3000, 2000);
    expect(seen).toEqual({ width: 1313, height: 876 });
    close(parseBox(JSON.stringify({ bbox_2d: [0.2 * 1313, 0.1 * 876, 0.8 * 1313, 0.5 * 876] }), 'claude-pixels', seen));
  });
  it('fractions, with edges put in order and values clamped to [0, 1]', () => {
    expect(parseBox('{"box": {"top": 0.5, "bottom": 0.1, "left": -0.2, "right": 0.8}}', 'fractions', { width: 1, height: 1 })).toEqual({
      top: 0.1,
      bottom: 0.5,
      left: 0,
      right: 0.8,
    });
  });
  it('no box, never an invented one, for replies without one', () => {
    expect(parseBox('I cannot see it.', 'gemini-1000', { width: 1, height: 1 })).toBeNull();
    expect(parseBox('{"box_2d": [1, 2, 3]}', 'gemini-1000', { width: 1, height: 1 })).toBeNull();
    expect(parseBox('{"box_2d": [100, 100, 100, 400]}', 'gemini-1000', { width: 1, height: 1 })).toBeNull();
  });
  it('recognises families by model id', () => {
    expect(boxConventionFor('google/gemini-2.5-flash')).toBe('gemini-1000');
    expect(boxConventionFor('qwen/qwen2.5-vl-72b-instruct')).toBe('qwen25-pixels');
    expect(boxConventionFor('qwen/qwen3-vl-235b')).toBe('qwen-1000');
    expect(boxConventionFor('anthropic/claude-sonnet-4.5')).toBe('claude-pixels');
    expect(boxConventionFor('acme/vision')).toBe('fractions');
  });
  it('IoU', () => {
    expect(iou(expected, expected)).toBe(1);
    expect(iou(expected, { top: 0.5, left: 0.8, bottom: 0.9, right: 0.9 })).toBe(0);
    expect(iou({ top: 0, left: 0, bottom: 1, right: 1 }, { top: 0, left: 0, bottom: 0.5, right: 1 })).toBeCloseTo(0.5, 10);
  });
});

describe('box answers through the gateway and the simulated vision model', () => {
  let env: TempCore;
  const vision = { id: 'sandbox/baseline-vision' };
  beforeAll(async () => {
    env = await tempCore({ sandbox: { seed: 5, failures: false, timeScale: 0 } });
    await env.core.settings.update({ sandbox: 'on' });
    await env.core.refreshSandbox();
    // The same simulated model, described as each family, to exercise every conversion end to end.
    const families = ['qwen-1000', 'qwen25-pixels', 'claude-pixels', 'fractions'] as const;
    await env.core.replaceCatalogFile(
      CatalogFileSchema.parse({
        version: 1,
        models: families.map((f) => ({
          id: `test/${f}`,
          name: f,
          created: 0,
          locates_objects: true,
          box_format: f,
          architecture: {
            input_modalities: ['text', 'image'],
            output_modalities: ['text'],
            modality: 'text+image->text',
            instruct_type: null,
            tokenizer: null,
          },
        })),
        endpoints: families.map((f) => ({
          model_id: `test/${f}`,
          provider: 'sandbox-swift',
          upstream_model: vision.id,
          pricing: { prompt: '0.000001', completion: '0.000001' },
        })),
      }),
    );
    await env.core.settings.update({ sandbox: 'on' });
    await env.core.refreshSandbox();
  });
  afterAll(() => env.cleanup());

  const ask = (model: string, image: string) =>
    env.core.decisions.decide(
      {
        model,
        state: ['Find the blue card.', { type: 'image_url', image_url: { url: image } }],
        questions: { card: { type: 'box', instructions: 'the blue card' } },
      },
      { requestId: 'r' },
    );

  it.each(['sandbox/baseline-vision', 'test/qwen-1000', 'test/qwen25-pixels', 'test/claude-pixels', 'test/fractions'])(
    '%s finds a known rectangle (IoU ≥ 0.9)',
    async (model) => {
      const rect = { x: 120, y: 40, w: 200, h: 90 };
      const outcome = await ask(model, pngWithRect(400, 300, rect));
      const answer = outcome.response.answers['card']!;
      expect(answer.type).toBe('box');
      const truth = { top: 40 / 300, left: 120 / 400, bottom: 130 / 300, right: 320 / 400 };
      expect(iou((answer as { box: typeof truth }).box, truth)).toBeGreaterThanOrEqual(0.9);
      expect(outcome.methods['card']).toBe('box');
      expect('confidence' in answer).toBe(false);
    },
  );

  it('applies EXIF orientation: the box is where people see the object', async () => {
    // Stored 300 x 200 with the card at the top left; orientation 6 shows it rotated clockwise (200 x 300),
    // so the card appears at the top right.
    const rect = { x: 20, y: 30, w: 100, h: 50 };
    const outcome = await ask('sandbox/baseline-vision', jpegWithOrientation(300, 200, rect, 6));
    const box = (outcome.response.answers['card'] as { box: { top: number; left: number; bottom: number; right: number } }).box;
    // Shown image: width 200, height 300. A stored pixel (x, y) is shown at (199 - y, x).
    const truth = { top: 20 / 300, bottom: 120 / 300, left: (200 - 80) / 200, right: (200 - 30) / 200 };
    expect(iou(box, truth)).toBeGreaterThanOrEqual(0.85);
  });

  it('refuses box questions honestly: no image, a model that cannot locate, a URL it will not fetch', async () => {
    await expect(
      env.core.decisions.decide({ model: vision.id, state: 'no image here', questions: { b: { type: 'box', instructions: 'x' } } }, { requestId: 'r' }),
    ).rejects.toThrow(/questions\.b: a box question needs an image/);
    await expect(
      env.core.decisions.decide({ model: 'sandbox/baseline-text', state: 'x', questions: { b: { type: 'box', instructions: 'x' } } }, { requestId: 'r' }),
    ).rejects.toThrow(/cannot locate objects/);
  });
});
