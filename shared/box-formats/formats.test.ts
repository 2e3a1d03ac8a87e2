import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromCoco, toCoco } from './coco';
import { BOX_CSV_HEADER, fromBoxCsvRows, toBoxCsv } from './csv';
import { fromLabelStudio, toLabelStudio } from './label-studio';
import { BoxFormatError, type AnswerBox, type BoxImage, type LabelledBox } from './types';
import { fromYolo, fromYoloLabels, toYolo, yoloClasses } from './yolo';

const fromBoxCsv = (text: string, file: string) => fromBoxCsvRows(parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[], file);
const fixture = (path: string) => readFileSync(join(import.meta.dirname, 'fixtures', path), 'utf8');

/** Pixel edges of a box on an image, to compare formats in the unit people check them in. */
const pixels = (b: LabelledBox, w: number, h: number) => ({ label: b.label, left: b.left * w, top: b.top * h, right: b.right * w, bottom: b.bottom * h });

function expectWithinAPixel(actual: LabelledBox[], expected: LabelledBox[], w: number, h: number) {
  expect(actual.map((b) => b.label)).toEqual(expected.map((b) => b.label));
  actual.forEach((b, i) => {
    const a = pixels(b, w, h);
    const e = pixels(expected[i]!, w, h);
    for (const k of ['left', 'top', 'right', 'bottom'] as const) expect(Math.abs(a[k] - e[k])).toBeLessThanOrEqual(1);
  });
}

const labelArb = fc.constantFrom('cat', 'dog, left', 'the "red" car', 'number');
const boxArb = fc
  .record({
    label: labelArb,
    x: fc.double({ min: 0, max: 0.9, noNaN: true }),
    y: fc.double({ min: 0, max: 0.9, noNaN: true }),
    w: fc.double({ min: 0.01, max: 1, noNaN: true }),
    h: fc.double({ min: 0.01, max: 1, noNaN: true }),
  })
  .map(({ label, x, y, w, h }) => ({ label, left: x, top: y, right: Math.min(1, x + w), bottom: Math.min(1, y + h) }));
type SizedImage = BoxImage & { width: number; height: number };
const imageArb: fc.Arbitrary<SizedImage> = fc.record({
  file: fc.constantFrom('a.png', 'photos/b.jpg', 'c d.jpeg'),
  width: fc.integer({ min: 16, max: 8000 }),
  height: fc.integer({ min: 16, max: 8000 }),
  truth: fc.array(boxArb, { maxLength: 5 }),
  answers: fc.constant<AnswerBox[]>([]),
});
const uniqueFiles = (images: SizedImage[]): SizedImage[] => images.map((im, i) => ({ ...im, file: `${i}-${im.file.replace(/^.*\//, '')}` }));

describe('COCO', () => {
  it('imports a real COCO instances file (datumaro, the library CVAT exports COCO with) with the right boxes', () => {
    const [image, ...rest] = fromCoco(fixture('coco/instances_val.json'), 'instances_val.json');
    expect(rest).toHaveLength(0);
    expect(image).toMatchObject({ file: 'b.jpg', width: 5, height: 10 });
    // bbox [0, 0, 1, 2] and [0, 0, 1, 9] on a 5 x 10 image: [x, y, width, height] in pixels.
    expect(image!.truth.map((b) => pixels(b, 5, 10))).toEqual([
      { label: 'a', left: 0, top: 0, right: 1, bottom: 2 },
      { label: 'b', left: 0, top: 0, right: 1, bottom: 9 },
    ]);
  });

  it('round-trips: our export imported back gives the same boxes within a pixel', () => {
    fc.assert(
      fc.property(fc.array(imageArb, { minLength: 1, maxLength: 4 }), (raw) => {
        const images = uniqueFiles(raw);
        const back = fromCoco(JSON.stringify(toCoco(images).dataset), 'export.json');
        images.forEach((im, i) => expectWithinAPixel(back[i]!.truth, im.truth, im.width, im.height));
      }),
    );
  });

  it('exports one category per box question and the answers as a second set with their IoU', () => {
    const image: BoxImage = {
      file: 'x.png',
      width: 200,
      height: 100,
      truth: [{ label: 'cup', left: 0.1, top: 0.2, right: 0.5, bottom: 0.6 }],
      answers: [{ label: 'cup', left: 0.1, top: 0.2, right: 0.5, bottom: 0.5, iou: 0.75, model: 'm' }],
    };
    const { dataset, answers } = toCoco([image]);
    expect(dataset.categories).toEqual([{ id: 1, name: 'cup', supercategory: '' }]);
    expect(dataset.images).toEqual([{ id: 1, file_name: 'x.png', width: 200, height: 100 }]);
    expect(dataset.annotations[0]).toMatchObject({ image_id: 1, category_id: 1, bbox: [20, 20, 80, 40], area: 3200, iscrowd: 0 });
    expect(answers).toEqual([{ image_id: 1, category_id: 1, bbox: [20, 20, 80, 30], score: 1, iou: 0.75, model: 'm' }]);
  });

  it('names the file and annotation of a problem', () => {
    const bad = JSON.stringify({
      images: [{ id: 1, file_name: 'a.png', width: 10, height: 10 }],
      categories: [{ id: 1, name: 'a' }],
      annotations: [{ image_id: 1, category_id: 7, bbox: [0, 0, 1, 1] }],
    });
    expect(() => fromCoco(bad, 'mine.json')).toThrow('mine.json: annotations[0]: "category_id" 7 is not among the categories');
    expect(() => fromCoco('{"images": []}', 'mine.json')).toThrow(BoxFormatError);
    expect(() => fromCoco('{', 'mine.json')).toThrow(/^mine\.json: not JSON/);
  });
});

describe('Label Studio', () => {
  it("imports a real Label Studio export (label-studio-converter's test data) with the right boxes", () => {
    const tasks = fromLabelStudio(fixture('label-studio/test_export_yolo_data.json'), 'data.json');
    expect(tasks.map((t) => [t.file, t.width, t.height])).toEqual([
      ['image1', 2800, 2800],
      ['image2', 2800, 2800],
    ]);
    // Task 1: the first of its two annotations; its "choices" region is not a box. Percent of 2800 px.
    const first = tasks[0]!.truth.map((b) => pixels(b, 2800, 2800));
    expect(first.map((b) => b.label)).toEqual(['parasites', 'white']);
    expect(first[0]!.left).toBeCloseTo((37.15846994535519 / 100) * 2800, 6);
    expect(first[0]!.bottom).toBeCloseTo(((70.67395264116576 + 4.735883424408015) / 100) * 2800, 6);
    expect(first[1]!.right).toBeCloseTo(((57.79102500413977 + 3.808577579069383) / 100) * 2800, 6);
    expect(tasks[1]!.truth.map((b) => b.label)).toEqual(['white', 'white']);
    expect(tasks[1]!.truth[1]!.top).toBeCloseTo(0.3715846994535519, 9);
  });

  it('round-trips: our export imported back gives the same boxes within a pixel', () => {
    fc.assert(
      fc.property(fc.array(imageArb, { minLength: 1, maxLength: 4 }), (images) => {
        const back = fromLabelStudio(JSON.stringify(toLabelStudio(images)), 'tasks.json');
        images.forEach((im, i) => {
          expect(back[i]).toMatchObject({ width: im.truth.length ? im.width : null });
          expectWithinAPixel(back[i]!.truth, im.truth, im.width, im.height);
        });
      }),
    );
  });

  it('exports answers as predictions scored by their IoU, in percent', () => {
    const [task] = toLabelStudio([
      { file: 'x.png', width: 200, height: 100, truth: [], answers: [{ label: 'cup', left: 0.1, top: 0.2, right: 0.5, bottom: 0.5, iou: 0.5, model: 'm' }] },
    ]);
    expect(task!.predictions[0]).toMatchObject({
      model_version: 'm',
      result: [{ type: 'rectanglelabels', score: 0.5, original_width: 200, value: { x: 10, y: 20, width: 40, height: 30, rectanglelabels: ['cup'] } }],
    });
  });

  it('refuses a rotated rectangle, naming the task and region', () => {
    const rotated = [
      {
        data: { image: '/data/local-files/?d=dir/a.jpg' },
        annotations: [{ result: [{ id: 'r1', type: 'rectanglelabels', value: { x: 1, y: 1, width: 2, height: 2, rotation: 30, rectanglelabels: ['a'] } }] }],
      },
    ];
    expect(() => fromLabelStudio(JSON.stringify(rotated), 'ls.json')).toThrow('ls.json: task 1, result 1 (r1): the rectangle is rotated by 30°');
    expect(fromLabelStudio(JSON.stringify([{ data: { image: '/data/local-files/?d=dir/a.jpg' } }]), 'ls.json')[0]!.file).toBe('a.jpg');
  });
});

describe('YOLO', () => {
  it("imports real YOLO labels (label-studio-converter's test data) with the right boxes", () => {
    const truth = fromYolo([
      { name: 'classes.txt', text: fixture('yolo/classes.txt') },
      { name: 'labels/img_4.txt', text: fixture('yolo/labels/img_4.txt') },
    ]).get('img_4')!;
    // The image is 640 x 494: "3 0.371875 0.56376… 0.034375 0.07085…" is a 22 x 35 px box centred at (238, 278.5).
    const px = truth.map((b) => pixels(b, 640, 494));
    expect(px.map((b) => b.label)).toEqual(['number', 'closed_door', 'closed_door', 'bus']);
    expect(px[0]!.left).toBeCloseTo(227, 6);
    expect(px[0]!.top).toBeCloseTo(261, 6);
    expect(px[0]!.right - px[0]!.left).toBeCloseTo(22, 6);
    expect(px[0]!.bottom - px[0]!.top).toBeCloseTo(35, 6);
    expect(px[3]!.left).toBeCloseTo(330.5 - 451 / 2, 6);
    expect(px[3]!.top).toBeCloseTo(306 - 324 / 2, 6);
  });

  it('round-trips: our export imported back gives the same boxes within a pixel', () => {
    fc.assert(
      fc.property(fc.array(imageArb, { minLength: 1, maxLength: 4 }), (raw) => {
        const images = uniqueFiles(raw);
        const { classes, labels } = toYolo(images);
        const back = fromYolo([{ name: 'classes.txt', text: classes }, ...labels.map((l) => ({ name: l.file, text: l.text }))]);
        images.forEach((im, i) => expectWithinAPixel(back.get(labels[i]!.file.replace(/\.txt$/, ''))!, im.truth, im.width, im.height));
      }),
    );
  });

  it('names the file and line of a problem', () => {
    const classes = yoloClasses('a\nb\n\n');
    expect(classes).toEqual(['a', 'b']);
    expect(() => fromYoloLabels('0 0.5 0.5 0.1 0.1\n2 0.5 0.5 0.1 0.1\n', 'x.txt', classes)).toThrow(
      'x.txt: line 2: class 2 is not in classes.txt (2 classes, numbered from 0)',
    );
    expect(() => fromYoloLabels('0 0.5 0.5 0.1\n', 'x.txt', classes)).toThrow('x.txt: line 1: expected "class cx cy w h"');
    expect(() => fromYolo([{ name: 'x.txt', text: '' }])).toThrow('no classes.txt');
  });
});

describe('CSV', () => {
  it('has one row per image and question with pixel boxes and the image size, readable back within a pixel', () => {
    fc.assert(
      fc.property(fc.array(imageArb, { minLength: 1, maxLength: 4 }), (raw) => {
        const images = uniqueFiles(raw).map((im) => ({ ...im, truth: im.truth.filter((b, i, all) => all.findIndex((o) => o.label === b.label) === i) }));
        const csv = toBoxCsv(images, 0.5);
        // Read with a CSV library, not our reader: one row per truth box, with the image's size.
        const rows = parse(csv, { columns: true }) as Record<string, string>[];
        expect(rows).toHaveLength(images.reduce((n, im) => n + im.truth.length, 0));
        for (const r of rows)
          expect([r['width'], r['height']]).toEqual([
            String(images.find((im) => im.file === r['image'])!.width),
            String(images.find((im) => im.file === r['image'])!.height),
          ]);
        // Our rows reader gives the same boxes back (in question order) within a pixel.
        const back = fromBoxCsv(csv, 'boxes.csv');
        for (const im of images.filter((x) => x.truth.length > 0)) {
          const read = back.find((b) => b.file === im.file)!;
          const expected = [...im.truth].sort((a, b) => read.truth.findIndex((x) => x.label === a.label) - read.truth.findIndex((x) => x.label === b.label));
          expectWithinAPixel(read.truth, expected, im.width, im.height);
        }
      }),
    );
  });

  it('names the file, row and column of a problem when reading truth back', () => {
    const header = BOX_CSV_HEADER.join(',');
    expect(() => fromBoxCsv(`${header}\nx.png,200,100,cup,20,20,80,40,,,,,,,,,false,\nx.png,200,100,plate,20,abc,80,40,,,,,,,,,false,\n`, 'mine.csv')).toThrow(
      'mine.csv: row 3, truth_y: expected a number, got "abc"',
    );
    expect(() => fromBoxCsv('image,width\nx.png,3\n', 'mine.csv')).toThrow('mine.csv: missing column "height", "question"');
    expect(fromBoxCsv(`${header}\nx.png,200,100,cup,,,,,20,20,80,30,,,m,,false,\n`, 'mine.csv')).toEqual([]);
  });

  it('puts the answer, IoU, pass and review beside the truth', () => {
    const csv = toBoxCsv(
      [
        {
          file: 'x.png',
          width: 200,
          height: 100,
          truth: [{ label: 'cup', left: 0.1, top: 0.2, right: 0.5, bottom: 0.6 }],
          answers: [{ label: 'cup', left: 0.1, top: 0.2, right: 0.5, bottom: 0.5, iou: 0.75, model: 'm' }],
          review: { verdict: 'accepted', stale: true, note: 'a, "b"' },
        },
      ],
      0.8,
    );
    expect(csv.split('\n')[0]).toBe(BOX_CSV_HEADER.join(','));
    expect(csv.split('\n')[1]).toBe('x.png,200,100,cup,20,20,80,40,20,20,80,30,0.7500,false,m,accepted,true,"a, ""b"""');
  });
});

describe('box CSV with a verdict per answer', () => {
  it('gives each question row its own verdict and note', () => {
    const box = { left: 0.1, top: 0.2, right: 0.5, bottom: 0.6 };
    const csv = toBoxCsv(
      [
        {
          file: 's.png',
          width: 100,
          height: 100,
          truth: [
            { label: 'card', ...box },
            { label: 'badge', ...box },
          ],
          answers: [
            { label: 'card', ...box, iou: 1, model: 'm' },
            { label: 'badge', ...box, iou: 1, model: 'm' },
          ],
          review: { verdict: 'rejected', stale: false, note: '' },
          reviews: { card: { verdict: 'accepted', stale: false, note: '' }, badge: { verdict: 'rejected', stale: false, note: 'too wide' } },
        },
      ],
      0.5,
    )
      .trim()
      .split('\n');
    expect(csv[1]!.split(',').slice(-3)).toEqual(['accepted', 'false', '']);
    expect(csv[2]!.split(',').slice(-3)).toEqual(['rejected', 'false', 'too wide']);
  });
});
