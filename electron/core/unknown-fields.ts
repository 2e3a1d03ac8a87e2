import leven from 'leven';

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The fields a caller sent that a parse left out: every key of `raw` (at any depth, through objects
 * and arrays) that the parsed value does not have. A schema that strips what it does not know
 * would otherwise answer another request than the one asked: a misspelt `credit_limt` making an
 * unlimited key. Each comes with the field it was probably meant as: the closest (by edit
 * distance, at most two edits) of the fields at the same place that the caller did not send.
 */
export function unknownFields(
  raw: unknown,
  parsed: unknown,
  path: readonly (string | number)[] = [],
): { path: (string | number)[]; suggestion: string | null }[] {
  if (Array.isArray(raw) && Array.isArray(parsed)) return raw.flatMap((item, i) => unknownFields(item, parsed[i], [...path, i]));
  if (!isPlainObject(raw) || !isPlainObject(parsed)) return [];
  const unsent = Object.keys(parsed).filter((k) => !Object.hasOwn(raw, k));
  return Object.keys(raw).flatMap((key) =>
    Object.hasOwn(parsed, key) ? unknownFields(raw[key], parsed[key], [...path, key]) : [{ path: [...path, key], suggestion: closest(key, unsent) }],
  );
}

function closest(name: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let distance = 3;
  for (const candidate of candidates) {
    const d = leven(name.toLowerCase(), candidate.toLowerCase());
    if (d < distance) [best, distance] = [candidate, d];
  }
  return best;
}
