/**
 * What the Try-it grid keeps across screens and reloads, in localStorage like the examples and the
 * drafts: the runs it started, per set (their answers are read again from the core by id), and the
 * other models it is run on. Storage full or disabled: kept on screen only.
 */

const triedSlot = (setId: string | undefined) => `verdict:tried:${setId ?? 'new'}`;
const COMPARE_SLOT = 'verdict:compare-with';

function read<T>(slot: string, fallback: T, valid: (v: unknown) => v is T): T {
  try {
    const raw = localStorage.getItem(slot);
    const parsed: unknown = raw === null ? fallback : JSON.parse(raw);
    return valid(parsed) ? parsed : fallback;
  } catch {
    return fallback;
  }
}

function keep(slot: string, value: unknown, empty: boolean): void {
  try {
    if (empty) localStorage.removeItem(slot);
    else localStorage.setItem(slot, JSON.stringify(value));
  } catch {
    // Kept on screen only.
  }
}

const isRunMap = (v: unknown): v is Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
const isModelList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The grid's runs of a set, by `example|model`. */
export const readTried = (setId: string | undefined): Record<string, string> => read(triedSlot(setId), {}, isRunMap);
export const keepTried = (setId: string | undefined, runs: Record<string, string>): void => keep(triedSlot(setId), runs, Object.keys(runs).length === 0);

/** The models the grid also runs a set on, beside the set's own. */
export const readCompareWith = (): string[] => read(COMPARE_SLOT, [], isModelList);
export const keepCompareWith = (models: readonly string[]): void => keep(COMPARE_SLOT, models, models.length === 0);

/** A new set just saved: the runs tried before its save become its own. */
export function moveTried(to: string): void {
  keepTried(to, readTried(undefined));
  keepTried(undefined, {});
}
