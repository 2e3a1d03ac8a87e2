import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ModelSummary } from '../../../../shared/schemas/inspector';
import { setQuery } from './api';
import { draftFrom, emptyDraft, type SetDraft } from './draft';
import { dropDraft, fingerprint, keepDraft, keepSelected, readDraft, readSelected } from './draft-store';
import { keepExamples } from './examples';
import { keepTried } from './try-store';

/**
 * The set on screen: which saved set is open (kept across reloads), its draft (edits kept per set
 * until saved, see draft-store.ts), whether the draft differs from the saved version, and the moves
 * between sets: opening one, starting a new one, discarding changes, taking a saved id. A set not
 * saved yet is counted (`fresh`): the next one starts with an empty Try-it grid, not the last one's.
 */
/** The model field's id (SetPanel). */
export const MODEL_FIELD_ID = 'set-model';

export function useSetDraft(models: ModelSummary[] | undefined) {
  const [selected, setSelectedState] = useState<string | undefined>(readSelected);
  const [draft, setDraft] = useState<SetDraft>(() => readDraft(readSelected()) ?? emptyDraft());
  // The saved version's fingerprint, for the set it belongs to: edits that differ from it are a draft.
  const [saved, setSaved] = useState<{ id: string; print: string } | null>(null);
  const [fresh, setFresh] = useState(0);
  /** The unsaved set's examples and tried runs are its own: a set that replaces it starts without them. */
  const forgetNew = () => {
    keepExamples(undefined, []);
    keepTried(undefined, {});
    setFresh((n) => n + 1);
  };
  const loaded = useQuery({ ...setQuery(selected ?? ''), enabled: selected !== undefined });
  useEffect(() => {
    if (!loaded.data) return;
    const fromServer = draftFrom(loaded.data.id, loaded.data.name, loaded.data.request, loaded.data.cascade);
    setSaved({ id: loaded.data.id, print: fingerprint(fromServer) });
    setDraft((current) => (current.id === loaded.data.id ? current : (readDraft(loaded.data.id) ?? fromServer)));
  }, [loaded.data]);
  const savedPrint = draft.id === undefined ? fingerprint(emptyDraft(draft.model)) : saved?.id === draft.id ? saved.print : null;
  const dirty = savedPrint === null || fingerprint(draft) !== savedPrint;
  useEffect(() => keepDraft(draft, savedPrint), [draft, savedPrint]);
  const setSelected = (id: string | undefined) => {
    keepSelected(id);
    setSelectedState(id);
    // A kept draft shows at once; otherwise the saved version does when it has loaded.
    const kept = id !== undefined && id !== draft.id ? readDraft(id) : undefined;
    if (kept) setDraft(kept);
  };
  /** A new set's edits have nowhere else to live: replacing them asks first. */
  const mayReplaceNew = () => draft.id !== undefined || !dirty || window.confirm(`Discard the unsaved new set “${draft.name}”?`);
  /** Shows a set not saved yet (a new or an imported one), with no saved set selected. */
  const startNew = (next: SetDraft) => {
    keepSelected(undefined);
    setSelectedState(undefined);
    forgetNew();
    setDraft(next);
  };
  const discard = () => {
    if (!window.confirm(`Discard the unsaved changes to “${draft.name}”?`)) return;
    dropDraft(draft.id);
    if (draft.id === undefined) forgetNew();
    setDraft(
      loaded.data && draft.id ? draftFrom(loaded.data.id, loaded.data.name, loaded.data.request, loaded.data.cascade) : emptyDraft(models?.[0]?.id ?? ''),
    );
  };
  // The first model is offered once the list arrives, to a set that has none: not again when the
  // analyst empties the field to type another (that refilled it between keystrokes, and what was
  // typed next was appended to it), and not into the field while the analyst is in it (the list
  // arriving between selecting the empty field and typing put the first model before what was typed).
  useEffect(() => {
    const first = models?.[0]?.id;
    if (!first || document.activeElement?.id === MODEL_FIELD_ID) return;
    setDraft((d) => (d.model ? d : { ...d, model: first }));
  }, [models]);
  // The set on screen now, for a save answered after the analyst opened another one.
  const showing = useRef(draft.id);
  showing.current = draft.id;
  /** A save of the draft `from` answered with the set's id. */
  const savedAs = (from: string | undefined, id: string) => {
    if (from === undefined) dropDraft(undefined);
    // Only the draft that was saved takes the saved id: given to another set's draft, its next save would overwrite this set.
    if (showing.current === from) {
      setDraft((d) => (d.id === from ? { ...d, id } : d));
      keepSelected(id);
      setSelectedState(id);
    }
  };
  return { selected, draft, setDraft, dirty, setSelected, mayReplaceNew, startNew, discard, savedAs, fresh };
}
