import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { test, expect, type Page } from '@playwright/test';
import { fromLabelStudio, toLabelStudio, type LabelStudioTask } from '../shared/box-formats/label-studio';
import type { BoxImage, LabelledBox } from '../shared/box-formats/types';

/**
 * Our Label Studio export loaded into Label Studio's own annotation frontend (LSF,
 * `@heartexlabs/label-studio` 1.4.0, the bundle Label Studio serves), in Chromium: every box must come
 * back as a region with its label and the same percent, with no error shown, and LSF's own
 * serialization of it (what Label Studio would export) must import with our importer to the same
 * pixels. The page is this test's own, served from 127.0.0.1; the app and its CSP are not involved.
 */

const LSF = join(import.meta.dirname, '..', 'node_modules', '@heartexlabs', 'label-studio', 'build', 'static');
const WIDTH = 320;
const HEIGHT = 240;
const FILE = 'shelf.png';

interface PixelBox {
  label: string;
  x: number;
  y: number;
  w: number;
  h: number;
}
/** Three objects at uneven pixels, so percent is never round. */
const TRUTH: PixelBox[] = [
  { label: 'card', x: 17, y: 23, w: 141, h: 77 },
  { label: 'badge', x: 203, y: 131, w: 59, h: 61 },
  { label: 'price tag', x: 41, y: 157, w: 97, h: 33 },
];
/** The model's answers to two of the questions. */
const ANSWERS: PixelBox[] = [
  { label: 'card', x: 21, y: 19, w: 139, h: 83 },
  { label: 'badge', x: 199, y: 127, w: 70, h: 64 },
];

const fraction = (b: PixelBox): LabelledBox => ({
  label: b.label,
  left: b.x / WIDTH,
  top: b.y / HEIGHT,
  right: (b.x + b.w) / WIDTH,
  bottom: (b.y + b.h) / HEIGHT,
});
const toPixels = (b: LabelledBox): PixelBox => ({
  label: b.label,
  x: b.left * WIDTH,
  y: b.top * HEIGHT,
  w: (b.right - b.left) * WIDTH,
  h: (b.bottom - b.top) * HEIGHT,
});

function shelfPng(): Buffer {
  const png = new PNG({ width: WIDTH, height: HEIGHT });
  for (let i = 0; i < WIDTH * HEIGHT; i += 1) png.data.set([235, 230, 220, 255], i * 4);
  TRUTH.forEach((b, k) => {
    for (let y = b.y; y < b.y + b.h; y += 1)
      for (let x = b.x; x < b.x + b.w; x += 1)
        png.data.set(
          [
            [30, 60, 160],
            [200, 60, 40],
            [40, 150, 60],
          ][k]!.concat(255),
          (y * WIDTH + x) * 4,
        );
  });
  return PNG.sync.write(png);
}

const IMAGE: BoxImage = {
  file: FILE,
  width: WIDTH,
  height: HEIGHT,
  truth: TRUTH.map(fraction),
  answers: ANSWERS.map((b) => ({ ...fraction(b), iou: 0.8, model: 'vision-model' })),
};

/** The labelling config Label Studio needs for the export: the names our results use, a label per question. */
function labellingConfig(task: LabelStudioTask): string {
  const results = [...task.annotations, ...task.predictions].flatMap((a) => a.result);
  const fromName = results[0]!.from_name;
  const toName = results[0]!.to_name;
  const labels = [...new Set(results.map((r) => r.value.rectanglelabels[0]))];
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<View><Image name="${escape(toName)}" value="$image"/><RectangleLabels name="${escape(fromName)}" toName="${escape(toName)}">${labels.map((l) => `<Label value="${escape(l)}"/>`).join('')}</RectangleLabels></View>`;
}

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><link rel="stylesheet" href="/lsf/main.css"></head>
<body><div id="label-studio"></div><script src="/lsf/main.js"></script></body></html>`;

/** A static server for the page, LSF's bundle and the image; it records what it could not serve. */
async function serve(png: Buffer): Promise<{ url: string; missing: string[]; server: Server }> {
  const missing: string[] = [];
  const files: Record<string, () => [string, Buffer | string]> = {
    '/': () => ['text/html; charset=utf-8', PAGE],
    '/lsf/main.js': () => ['text/javascript', readFileSync(join(LSF, 'js', 'main.js'))],
    '/lsf/main.css': () => ['text/css', readFileSync(join(LSF, 'css', 'main.css'))],
    [`/${FILE}`]: () => ['image/png', png],
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const file = files[path];
    if (!file) {
      missing.push(path);
      res.writeHead(404).end();
      return;
    }
    const [type, body] = file();
    res.writeHead(200, { 'content-type': type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, missing, server };
}

/** One LSF region as read from LSF's stores: its label and its geometry in percent of the image. */
interface LsfRegion {
  id: string;
  labels: string[];
  x: number;
  y: number;
  width: number;
  height: number;
}
interface LsfEntity {
  regions: LsfRegion[];
  serialized: Record<string, unknown>[];
  /** The image's size as LSF measured it. */
  natural: { width: number; height: number };
}
interface LsfReadback {
  annotations: LsfEntity[];
  predictions: LsfEntity[];
  validation: unknown;
  errorText: string;
}

/** The parts of LSF's stores (mobx-state-tree models on the page) that the test reads. */
interface Entity {
  id: string;
  regions: { cleanId: string; labels: string[]; serialize(): { value: { x: number; y: number; width: number; height: number } } }[];
  serializeAnnotation(): Record<string, unknown>[];
  names: Map<string, { isReady: boolean; naturalWidth: number; naturalHeight: number; stageWidth: number }>;
}
interface LsfStore {
  annotationStore: {
    annotations: Entity[];
    predictions: Entity[];
    selected?: Entity;
    validation: unknown;
    selectAnnotation(id: string): void;
    selectPrediction(id: string): void;
  };
}
type LsfWindow = { LabelStudio: new (root: string, options: unknown) => unknown; lsfStore?: LsfStore };

/**
 * Loads the task into LSF on the page, then shows each annotation and prediction in turn, as a
 * reviewer would, and reads it once its image is in (LSF turns percent into stage pixels then).
 */
async function loadIntoLsf(page: Page, config: string, task: LabelStudioTask): Promise<LsfReadback> {
  await page.evaluate(
    ({ config, task }) => {
      const w = window as unknown as LsfWindow;
      new w.LabelStudio('label-studio', {
        config,
        interfaces: ['panel', 'controls', 'side-column'],
        user: { pk: 1, firstName: 'Test' },
        task: { id: 1, ...task },
        onLabelStudioLoad: (store: LsfStore) => {
          w.lsfStore = store;
        },
      });
    },
    { config, task },
  );
  await page.waitForFunction(() => (window as unknown as LsfWindow).lsfStore !== undefined);
  const read = async (kind: 'annotations' | 'predictions', index: number) => {
    await page.evaluate(
      ({ kind, index }) => {
        const as = (window as unknown as LsfWindow).lsfStore!.annotationStore;
        const entity = as[kind][index]!;
        if (kind === 'annotations') as.selectAnnotation(entity.id);
        else as.selectPrediction(entity.id);
      },
      { kind, index },
    );
    await page.waitForFunction(
      ({ kind, index }) => {
        const as = (window as unknown as LsfWindow).lsfStore!.annotationStore;
        const image = as[kind][index]!.names.get('image');
        return as.selected === as[kind][index] && Boolean(image?.isReady && image.naturalWidth > 1 && image.stageWidth > 1);
      },
      { kind, index },
    );
    return page.evaluate(
      ({ kind, index }) => {
        const entity = (window as unknown as LsfWindow).lsfStore!.annotationStore[kind][index]!;
        const image = entity.names.get('image')!;
        return {
          regions: entity.regions.map((r) => {
            const { x, y, width, height } = r.serialize().value;
            return { id: r.cleanId, labels: [...r.labels], x, y, width, height };
          }),
          serialized: JSON.parse(JSON.stringify(entity.serializeAnnotation())) as Record<string, unknown>[],
          natural: { width: image.naturalWidth, height: image.naturalHeight },
        };
      },
      { kind, index },
    );
  };
  const counts = await page.evaluate(() => {
    const as = (window as unknown as LsfWindow).lsfStore!.annotationStore;
    return { annotations: as.annotations.length, predictions: as.predictions.length };
  });
  const annotations = [];
  const predictions = [];
  for (let i = 0; i < counts.annotations; i += 1) annotations.push(await read('annotations', i));
  for (let i = 0; i < counts.predictions; i += 1) predictions.push(await read('predictions', i));
  const status = await page.evaluate(() => ({
    validation: JSON.parse(JSON.stringify((window as unknown as LsfWindow).lsfStore!.annotationStore.validation ?? null)) as unknown,
    errorText: [...document.querySelectorAll('.ls-errors')]
      .map((e) => e.textContent ?? '')
      .join(' ')
      .trim(),
  }));
  return { annotations, predictions, ...status };
}

/**
 * Every difference between what we exported and what LSF read or wrote back, in words; empty when
 * LSF understood the export exactly (percent within 0.01, same labels, ids and image size).
 */
function differences(ours: LabelStudioTask['annotations'][number]['result'], lsf: LsfEntity): string[] {
  const found: string[] = [];
  if (lsf.natural.width !== WIDTH || lsf.natural.height !== HEIGHT) found.push(`LSF loaded a ${lsf.natural.width} x ${lsf.natural.height} image`);
  if (lsf.regions.length !== ours.length) found.push(`LSF has ${lsf.regions.length} regions for our ${ours.length} results`);
  for (const result of ours) {
    const region = lsf.regions.find((r) => r.id === result.id);
    if (!region) {
      found.push(`${result.id}: no region in LSF`);
      continue;
    }
    if (JSON.stringify(region.labels) !== JSON.stringify(result.value.rectanglelabels))
      found.push(`${result.id}: LSF labels ${JSON.stringify(region.labels)}, ours ${JSON.stringify(result.value.rectanglelabels)}`);
    for (const k of ['x', 'y', 'width', 'height'] as const) {
      if (!(Math.abs(region[k] - result.value[k]) <= 0.01)) found.push(`${result.id}: LSF ${k} ${region[k]}, ours ${result.value[k]}`);
    }
    const written = lsf.serialized.find((s) => s['id'] === result.id);
    if (!written) {
      found.push(`${result.id}: not in LSF's serialization`);
      continue;
    }
    for (const k of ['type', 'from_name', 'to_name', 'original_width', 'original_height', 'image_rotation'] as const) {
      if (written[k] !== result[k]) found.push(`${result.id}: LSF writes ${k} ${JSON.stringify(written[k])}, ours ${JSON.stringify(result[k])}`);
    }
  }
  return found;
}

test.describe('Label Studio frontend reads our Label Studio export', () => {
  let server: Server;
  let url: string;
  let missing: string[];
  test.beforeAll(async () => {
    ({ server, url, missing } = await serve(shelfPng()));
  });
  test.afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  test("every box comes back as a region with its label and percent, and LSF's own export imports to the same pixels", async ({ page }) => {
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
    });
    const [task] = toLabelStudio([IMAGE]);
    expect(task!.annotations[0]!.result).toHaveLength(TRUTH.length);
    expect(task!.predictions[0]!.result).toHaveLength(ANSWERS.length);

    await page.goto(url);
    const back = await loadIntoLsf(page, labellingConfig(task!), task!);

    expect(back.validation, 'LSF found the config or the task invalid').toBeNull();
    expect(back.errorText, 'LSF shows an error').toBe('');
    expect(pageErrors).toEqual([]);
    expect(missing, 'LSF asked for files the page does not have').toEqual([]);

    expect(back.annotations).toHaveLength(1);
    expect(back.predictions).toHaveLength(1);
    expect(differences(task!.annotations[0]!.result, back.annotations[0]!)).toEqual([]);
    expect(differences(task!.predictions[0]!.result, back.predictions[0]!)).toEqual([]);

    // What Label Studio would export for this task, imported with our importer: the same pixels.
    const lsfExport = [back.annotations[0]!, back.predictions[0]!].map((entity) => ({ data: task!.data, annotations: [{ result: entity.serialized }] }));
    const [truth, answers] = fromLabelStudio(JSON.stringify(lsfExport), 'label-studio-export.json');
    for (const [imported, expected] of [
      [truth!, TRUTH],
      [answers!, ANSWERS],
    ] as const) {
      expect(imported).toMatchObject({ file: FILE, width: WIDTH, height: HEIGHT });
      expect(imported.truth.map((b) => b.label)).toEqual(expected.map((b) => b.label));
      imported.truth.map(toPixels).forEach((b, i) => {
        for (const k of ['x', 'y', 'w', 'h'] as const) expect(Math.abs(b[k] - expected[i]![k]), `${b.label} ${k}`).toBeLessThanOrEqual(1);
      });
    }
  });
});
