import { strToU8, zipSync } from 'fflate';
import { fromCoco, toCoco } from '../../../../shared/box-formats/coco';
import { parse } from 'csv-parse/browser/esm/sync';
import { fromBoxCsvRows, toBoxCsv } from '../../../../shared/box-formats/csv';
import { fromLabelStudio, toLabelStudio } from '../../../../shared/box-formats/label-studio';
import { BoxFormatError, baseName, stem, type BoxImage, type LabelledBox } from '../../../../shared/box-formats/types';
import { fromYolo, toYolo } from '../../../../shared/box-formats/yolo';
import { safeStem } from '../../lib/download';

export type ExportFormat = 'coco' | 'label-studio' | 'yolo' | 'csv';

export interface ExportFile {
  name: string;
  type: string;
  data: string | Uint8Array;
}

/** The file one export gives: a zip of COCO and its answers set, Label Studio tasks, a YOLO zip, or CSV. */
export function exportFiles(format: ExportFormat, images: readonly BoxImage[], base: string, threshold: number): ExportFile[] {
  if (format === 'coco') {
    // One download (two made browsers ask twice, and the second was easily lost): the COCO dataset
    // and the answers as COCO results, in one zip named like them.
    const { dataset, answers } = toCoco(images);
    const entries = {
      [`${base}.coco.json`]: strToU8(JSON.stringify(dataset, null, 1)),
      [`${base}.coco-answers.json`]: strToU8(JSON.stringify(answers, null, 1)),
    };
    return [{ name: `${base}.coco.zip`, type: 'application/zip', data: zipSync(entries) }];
  }
  if (format === 'label-studio') return [{ name: `${base}.label-studio.json`, type: 'application/json', data: JSON.stringify(toLabelStudio(images), null, 1) }];
  if (format === 'csv') return [{ name: `${base}.csv`, type: 'text/csv', data: toBoxCsv(images, threshold) }];
  const { classes, labels } = toYolo(images);
  const entries: Record<string, Uint8Array> = { 'classes.txt': strToU8(classes) };
  for (const l of labels) entries[`labels/${l.file}`] = strToU8(l.text);
  return [{ name: `${base}.yolo.zip`, type: 'application/zip', data: zipSync(entries) }];
}

/** Export files' names: the dataset's name, made safe for a file name, and the day ("shelf-2026-11-27"). */
export const exportBase = (name: string, day: Date): string => `${safeStem(name, 'boxes')}-${day.toISOString().slice(0, 10)}`;

/** Offers a file for download (binary or text). */
export function save(file: ExportFile): void {
  const url = URL.createObjectURL(new Blob([file.data as BlobPart], { type: file.type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/**
 * Truth by image stem from files a person picked: a COCO or Label Studio JSON, this app's CSV, or
 * YOLO's classes.txt with label files. Throws a BoxFormatError that names the file and place.
 */
export function truthFromFiles(files: readonly { name: string; text: string }[]): Map<string, LabelledBox[]> {
  const byStem = new Map<string, LabelledBox[]>();
  const add = (images: BoxImage[]) =>
    images.forEach((im) => byStem.set(stem(baseName(im.file)), [...(byStem.get(stem(baseName(im.file))) ?? []), ...im.truth]));
  const json = files.filter((f) => f.name.endsWith('.json'));
  for (const f of json) {
    const looksLikeTasks = f.text.trimStart().startsWith('[');
    add(looksLikeTasks ? fromLabelStudio(f.text, f.name) : fromCoco(f.text, f.name));
  }
  for (const f of files.filter((x) => x.name.endsWith('.csv'))) add(fromBoxCsvRows(csvRows(f.text, f.name), f.name));
  const txt = files.filter((f) => f.name.endsWith('.txt') || f.name.endsWith('.names'));
  if (txt.length > 0) for (const [s, boxes] of fromYolo(txt)) byStem.set(s, boxes);
  return byStem;
}

function csvRows(text: string, file: string): Record<string, string>[] {
  try {
    return parse(text, { columns: true, skip_empty_lines: true, bom: true }) as Record<string, string>[];
  } catch (e) {
    throw new BoxFormatError(file, `not valid CSV (${(e as Error).message})`);
  }
}
