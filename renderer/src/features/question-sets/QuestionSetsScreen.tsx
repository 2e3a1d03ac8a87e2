import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { DecisionsRequestSchema } from '../../../../shared/schemas/decisions-request';
import { summarizeIssues } from '../../../../shared/contract/result';
import { ErrorNotice, ScreenHeader } from '../../ui/components';
import { download, fileName } from '../../lib/download';
import { focusWhenShown } from '../../ui/focus-when-shown';
import { announce } from '../../ui/announcer';
import { modelsQuery } from '../endpoints';
import { cascadePresetsQuery } from '../evaluations';
import { SampleOffer } from '../samples';
import { SandboxNotice } from '../settings';
import { useSaveSet } from './api';
import { buildRequest, draftFrom, emptyDraft, type Built, type SetDraft } from './draft';
import { CompareModels } from './CompareModels';
import { SetActionBar } from './SetActionBar';
import { SetEditor } from './SetEditor';
import { SetList } from './SetList';
import { TryGrid, type TryGridHandle } from './TryGrid';
import './question-sets.css';
import { useSetDraft } from './use-set-draft';
import { keepCompareWith, moveTried, readCompareWith } from './try-store';

/** A field's problems show once it was edited, or once Save was tried: a new, blank set is not "2 problems". */
function useProblemsShown(isNew: boolean) {
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [tried, setTried] = useState(false);
  const fresh = isNew && !tried;
  const shown = (path: string) => !fresh || touched.has(path);
  const touch = (path: string) => !touched.has(path) && setTouched(new Set([...touched, path]));
  return { shown, touch, setTried };
}

/** The set as a DecisionsRequest JSON file: imported as a new set, or exported once it can be saved. */
function SetFileActions({ name, savable, onImport }: { name: string; savable: Built['savable']; onImport: (file: File) => Promise<void> }) {
  return (
    <>
      <label className="file-button secondary">
        Import JSON…
        <input type="file" accept="application/json,.json" onChange={(e) => e.target.files?.[0] && void onImport(e.target.files[0])} />
      </label>
      <button type="button" className="secondary" disabled={!savable} onClick={() => download(fileName(name, 'json'), JSON.stringify(savable, null, 2))}>
        Export JSON
      </button>
    </>
  );
}

/** The other models tried, kept across screens (try-store.ts). */
function useCompareWith() {
  const [compareWith, setCompareWithShown] = useState<string[]>(readCompareWith);
  const setCompareWith = (models: string[]) => {
    setCompareWithShown(models);
    keepCompareWith(models);
  };
  return { compareWith, setCompareWith };
}

/** A DecisionsRequest JSON file imported as a new, unsaved set, or why it could not be. */
function useSetImport(mayReplaceNew: () => boolean, startNew: (draft: SetDraft) => void) {
  const [importError, setImportError] = useState<string | null>(null);
  const onImport = async (file: File) => {
    setImportError(null);
    try {
      const parsed = DecisionsRequestSchema.safeParse(JSON.parse(await file.text()));
      if (!parsed.success) return setImportError(`${file.name} is not a valid DecisionsRequest: ${summarizeIssues(parsed.error)}`);
      if (!mayReplaceNew()) return;
      startNew(draftFrom(undefined, file.name.replace(/\.json$/i, ''), parsed.data));
      announce(`Imported ${file.name} as a new set: ${Object.keys(parsed.data.questions).length} questions, not saved yet.`);
    } catch (error) {
      setImportError(`${file.name} is not JSON: ${(error as Error).message}`);
    }
  };
  return { importError, onImport };
}

/**
 * The screen's state: the set being edited (with its check, the problems shown, saving and importing),
 * the models to try it on, and the grid that tries it.
 */
function useQuestionSetsScreen() {
  const models = useQuery(modelsQuery());
  const presets = useQuery(cascadePresetsQuery());
  const { selected, draft, setDraft, dirty, setSelected, mayReplaceNew, startNew, discard, savedAs, fresh } = useSetDraft(models.data);
  const { importError, onImport } = useSetImport(mayReplaceNew, startNew);
  const { compareWith, setCompareWith } = useCompareWith();
  const built = useMemo(() => buildRequest(draft), [draft]);
  const { shown, touch, setTried } = useProblemsShown(draft.id === undefined);
  const update = (patch: Partial<SetDraft>) => {
    for (const key of Object.keys(patch))
      touch(key === 'stateText' || key === 'images' || key === 'stateMode' ? 'state' : key === 'preferences' ? 'provider' : key);
    setDraft((d) => ({ ...d, ...patch }));
  };
  const save = useSaveSet(({ from, saved: s }) => {
    if (from === undefined) moveTried(s.id);
    savedAs(from, s.id);
  });
  // Run tries the set here, on its content and examples, on each model chosen: no screen switch.
  const tryGrid = useRef<TryGridHandle>(null);
  const tried = [draft.model, ...compareWith.filter((m) => m !== draft.model)].filter((m) => m !== '');
  const onSave = () =>
    built.savable
      ? save.mutate({
          from: draft.id,
          set: { ...(draft.id ? { id: draft.id } : {}), name: draft.name, request: built.savable, cascade: draft.cascade || null },
        })
      : setTried(true);
  const visibleProblems = built.problems.filter((p) => shown(p.path.split('.')[0] === 'questions' ? 'questions' : p.path.split('.')[0]!));
  const onNew = () => {
    if (!mayReplaceNew()) return;
    startNew(emptyDraft(models.data?.[0]?.id ?? ''));
  };
  return {
    models: models.data,
    presets: presets.data,
    selected,
    setSelected,
    draft,
    dirty,
    discard,
    importError,
    onImport,
    compareWith,
    setCompareWith,
    built,
    shown,
    update,
    save,
    tryGrid,
    tried,
    onSave,
    visibleProblems,
    onNew,
    fresh,
  };
}

/** Write a set of questions about some content, check it as it is typed, save it, and try it on a few examples and models. */
export function QuestionSetsScreen() {
  const { models, draft, built, save, compareWith, ...s } = useQuestionSetsScreen();
  return (
    <>
      <ScreenHeader
        title="Question sets"
        description="Named questions about some content: yes/no (noul), choice, score and box, answered as measured probabilities."
        actions={<SetFileActions name={draft.name} savable={built.savable} onImport={s.onImport} />}
      />
      <SandboxNotice />
      <SampleOffer
        onAdded={({ set }) => {
          s.setSelected(set);
          // The offer is gone: focus goes to the set it added, in the list.
          focusWhenShown(() => document.querySelector<HTMLElement>(`[data-set-id="${set}"]`));
        }}
      />
      {s.importError ? <ErrorNotice error={new Error(s.importError)} title="Import failed" /> : null}
      {/* One block for the editor, the grid and the bar: the bar stays at the window's foot while any of them is in view. */}
      <div>
        <div className="split">
          <SetList selected={s.selected} onSelect={s.setSelected} onNew={s.onNew} />
          <div>
            <SetEditor draft={draft} onChange={s.update} models={models} presets={s.presets} problems={built.problems} shown={s.shown} />
          </div>
        </div>
        {/* Across the page, under the list and the editor: with four models the grid was cut in the editor's column beside an empty list. */}
        <TryGrid
          // A new unsaved set is a new grid: what it kept of the last one is gone (use-set-draft.ts).
          key={s.fresh}
          ref={s.tryGrid}
          setId={draft.id}
          setName={draft.name}
          request={built.savable ?? null}
          ownState={built.valid ? built.valid.state : null}
          models={s.tried}
          cascade={draft.cascade || null}
          modelPicker={<CompareModels models={models} model={draft.model} compareWith={compareWith} onCompareWith={s.setCompareWith} />}
        />
        <SetActionBar
          dirty={s.dirty}
          onDiscard={s.discard}
          built={built}
          noProblemShown={s.visibleProblems.length === 0}
          compareWith={compareWith}
          saving={save.isPending}
          onSave={s.onSave}
          onRun={() => s.tryGrid.current?.tryAll()}
        />
        {save.error ? <ErrorNotice error={save.error} title="Not saved" /> : null}
        {save.isSuccess && save.data.saved.id === draft.id ? (
          <p className="muted small" role="status">
            Saved.
          </p>
        ) : null}
      </div>
    </>
  );
}
