import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { BoxImage } from '../../../../shared/box-formats/types';
import { exportBase, exportFiles, truthFromFiles } from './transfer';

const images: BoxImage[] = [
  {
    file: 'shelf.png',
    width: 400,
    height: 300,
    truth: [
      { label: 'cup', left: 0.1, top: 0.2, right: 0.3, bottom: 0.4 },
      { label: 'plate', left: 0.5, top: 0.5, right: 0.9, bottom: 0.8 },
    ],
    answers: [],
  },
];
const text = (data: string | Uint8Array) => (typeof data === 'string' ? data : strFromU8(data));

describe('export and import of truth from picked files', () => {
  it('each format exported is read back to the same labelled boxes by image', () => {
    for (const format of ['label-studio', 'csv'] as const) {
      const [file] = exportFiles(format, images, 'review', 0.5);
      const back = truthFromFiles([{ name: file!.name, text: text(file!.data) }]).get('shelf')!;
      expect(back.map((b) => b.label)).toEqual(['cup', 'plate']);
      expect(back[1]!.right).toBeCloseTo(0.9, 3);
    }
    // COCO: one file, a zip of the dataset and its answers; the dataset reads back.
    const coco = exportFiles('coco', images, 'review', 0.5);
    expect(coco.map((f) => f.name)).toEqual(['review.coco.zip']);
    const cocoEntries = unzipSync(coco[0]!.data as Uint8Array);
    expect(Object.keys(cocoEntries).sort()).toEqual(['review.coco-answers.json', 'review.coco.json']);
    const fromCoco = truthFromFiles([{ name: 'review.coco.json', text: strFromU8(cocoEntries['review.coco.json']!) }]).get('shelf')!;
    expect(fromCoco.map((b) => b.label)).toEqual(['cup', 'plate']);
    const [zip] = exportFiles('yolo', images, 'review', 0.5);
    const entries = unzipSync(zip!.data as Uint8Array);
    expect(Object.keys(entries).sort()).toEqual(['classes.txt', 'labels/shelf.txt']);
    const back = truthFromFiles(Object.entries(entries).map(([name, data]) => ({ name, text: strFromU8(data) }))).get('shelf')!;
    expect(back.map((b) => b.label)).toEqual(['cup', 'plate']);
    expect(back[0]!.top).toBeCloseTo(0.2, 5);
  });

  it('names the file of a CSV that cannot be read, and reads nothing from it', () => {
    expect(() => truthFromFiles([{ name: 'bad.csv', text: 'image,width\n"x.png,3\n' }])).toThrow(/^bad\.csv: not valid CSV/);
  });
});

describe('export file names', () => {
  it('are the dataset name, made safe for a file, and the day', () => {
    const day = new Date('2026-11-27T10:00:00Z');
    expect(exportBase('shelf photos / aisle 3', day)).toBe('shelf-photos-aisle-3-2026-11-27');
    expect(exportBase('  ', day)).toBe('boxes-2026-11-27');
  });
});
