import { buildRequest, newKey, type SetDraft } from './draft';

/**
 * Unsaved edits, kept per set in localStorage (as Postman and Bruno keep unsaved tabs): leaving the
 * screen, picking another set or reloading keeps them, and they come back when the set is opened again.
 */
const PREFIX = 'verdict:draft:';
const SELECTED = 'verdict:draft-selected';

const slot = (id: string | undefined) => `${PREFIX}${id ?? 'new'}`;

/** What a draft says, without the editor's row keys: equal fingerprints mean nothing to save. */
export const fingerprint = (draft: SetDraft): string => JSON.stringify([draft.name, buildRequest(draft).request, draft.cascade ?? '']);

/** Fresh row keys, so a restored draft never shares keys with rows made since the page loaded. */
function rekey(draft: SetDraft): SetDraft {
  return {
    ...draft,
    images: draft.images.map((i) => ({ ...i, key: newKey() })),
    questions: draft.questions.map((q) => ({
      ...q,
      key: newKey(),
      options: q.options.map((o) => ({ ...o, key: newKey() })),
      levels: q.levels.map((l) => ({ ...l, key: newKey() })),
    })),
  };
}

export function readDraft(id: string | undefined): SetDraft | undefined {
  try {
    const raw = localStorage.getItem(slot(id));
    return raw ? rekey(JSON.parse(raw) as SetDraft) : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the draft when it differs from the saved version (`saved`: its fingerprint, or null for a set never saved). */
export function keepDraft(draft: SetDraft, saved: string | null): void {
  try {
    if (saved !== null && fingerprint(draft) === saved) localStorage.removeItem(slot(draft.id));
    else localStorage.setItem(slot(draft.id), JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the edits stay on screen, only not across a reload.
  }
}

export function dropDraft(id: string | undefined): void {
  localStorage.removeItem(slot(id));
}

export const readSelected = (): string | undefined => localStorage.getItem(SELECTED) ?? undefined;
export function keepSelected(id: string | undefined): void {
  if (id) localStorage.setItem(SELECTED, id);
  else localStorage.removeItem(SELECTED);
}
