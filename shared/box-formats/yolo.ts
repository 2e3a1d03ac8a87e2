import { BoxFormatError, edgesFrom, labelsOf, num, stem, type BoxImage, type LabelledBox } from './types';

const f6 = (v: number) => Number(v.toFixed(6)).toString();

/**
 * YOLO detection labels (docs.ultralytics.com/datasets/detect): `classes.txt` with one name per line
 * (class index = line number from 0), and per image `<stem>.txt` with `class cx cy w h` normalised to
 * the image. Truth only: YOLO has no place for a second set.
 */
export function toYolo(images: readonly BoxImage[]): { classes: string; labels: { file: string; text: string }[] } {
  const classes = labelsOf(images);
  return {
    classes: classes.map((c) => `${c}\n`).join(''),
    labels: images.map((image) => ({
      file: `${stem(image.file)}.txt`,
      text: image.truth
        .map((b) => `${classes.indexOf(b.label)} ${f6((b.left + b.right) / 2)} ${f6((b.top + b.bottom) / 2)} ${f6(b.right - b.left)} ${f6(b.bottom - b.top)}\n`)
        .join(''),
    })),
  };
}

/** Class names from `classes.txt` (blank lines at the end ignored, Windows line ends accepted). */
export function yoloClasses(text: string): string[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Truth boxes of one image from its YOLO label file; `file` names the label file in problems. */
export function fromYoloLabels(text: string, file: string, classes: readonly string[]): LabelledBox[] {
  const boxes: LabelledBox[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const parts = line.trim().split(/\s+/);
    if (parts[0] === '') return;
    const where = `${file}: line ${i + 1}`;
    if (parts.length !== 5 && parts.length !== 6) throw new BoxFormatError(where, `expected "class cx cy w h" (five numbers), got ${parts.length} values`);
    const [k, cx, cy, w, h] = parts.slice(0, 5).map((p, n) => num(Number(p), where, ['class', 'cx', 'cy', 'w', 'h'][n]!)) as [
      number,
      number,
      number,
      number,
      number,
    ];
    const label = classes[k];
    if (!Number.isInteger(k) || label === undefined)
      throw new BoxFormatError(where, `class ${parts[0]} is not in classes.txt (${classes.length} classes, numbered from 0)`);
    if ([cx, cy, w, h].some((v) => v < 0 || v > 1)) throw new BoxFormatError(where, 'coordinates should be normalised to 0…1');
    boxes.push({ label, ...edgesFrom(cx - w / 2, cy - h / 2, w, h, where) });
  });
  return boxes;
}

/** Truth for named images from a set of YOLO files: `classes.txt` and label files matched by stem. */
export function fromYolo(files: readonly { name: string; text: string }[]): Map<string, LabelledBox[]> {
  const classFile = files.find((f) => /(^|[\\/])(classes\.txt|obj\.names)$/.test(f.name));
  if (!classFile) throw new BoxFormatError('YOLO files', 'no classes.txt among them: it names the class of each index');
  const classes = yoloClasses(classFile.text);
  const byStem = new Map<string, LabelledBox[]>();
  for (const f of files) if (f !== classFile && f.name.endsWith('.txt')) byStem.set(stem(f.name), fromYoloLabels(f.text, f.name, classes));
  return byStem;
}
