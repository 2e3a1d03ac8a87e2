import { kindTag, modelKind } from '../../lib/answering';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { DecisionsRequestSchema } from '../../../../shared/schemas/decisions-request';
import { summarizeIssues } from '../../../../shared/contract/result';
import { SandboxNotice } from '../settings';
import { EmptyState, ErrorNotice, Panel, ScreenHeader } from '../../ui/components';
import { download, fileName } from '../../lib/download';
import { listingQuery, modelsQuery } from '../endpoints';
import { cascadePresetsQuery } from '../evaluations';
import { describeCascade } from '../../../../shared/cascade/describe';
import { setQuery, setsQuery, useDeleteSet, useDuplicateSet, useRestoreSet, useSaveSet } from './api';
import { buildRequest, draftFrom, emptyDraft, newQuestion, problemsAt, type SetDraft } from './draft';
import { FieldProblems, QuestionEditor } from './QuestionEditor';
import { dropDraft, fingerprint, keepDraft, keepSelected, readDraft, readSelected } from './draft-store';
import { StateEditor } from './StateEditor';
import { PreferencesForm } from './PreferencesForm';
import { TryGrid, type TryGridHandle } from './TryGrid';
import { SampleOffer } from '../samples';
import { focusWhenShown } from '../../ui/focus-when-shown';
import { StickyBar } from '../../ui/StickyBar';
import { announce } from '../../ui/announcer';

const PREFERENCE_HELP =
  'The same as JSON (the form and the text follow each other). For example {"sort": "price", "zdr": true}. Fields: order, allow_fallbacks, only, ignore, sort ("price" | "latency" | "throughput" | "exacto", or {by, partition}), max_price {prompt, completion, request, image, audio as "USD" strings}, quantizations, zdr, data_collection ("allow" | "deny"), require_parameters, enforce_distillable_text, preferred_max_latency / preferred_min_throughput (a number for p50, or {p50, p75, p90, p99}), options {provider slug: {...}}.';

/** What the preferences set, in a few words, or that none are. */
function preferencesSummary(json: string): string {
  try {
    const keys = Object.keys((JSON.parse(json || '{}') as object) ?? {});
    return keys.length === 0 ? '(optional) · none set: every endpoint of the model may answer' : `· set: ${keys.join(', ')}`;
  } catch {
    return '· the JSON below has a problem';
  }
}

function SetList({ selected, onSelect, onNew }: { selected: string | undefined; onSelect: (id: string) => void; onNew: () => void }) {
  const sets = useQuery(setsQuery());
  const [undo, setUndo] = useState<{ id: string; name: string } | null>(null);
  const remove = useDeleteSet(setUndo);
  const restore = useRestoreSet(() => setUndo(null));
  const duplicate = useDuplicateSet(onSelect);
  return (
    <Panel
      title="Sets"
      aside={
        <button type="button" onClick={onNew}>
          New set
        </button>
      }
    >
      {undo ? (
        <div className="notice notice-ok" role="status">
          Deleted “{undo.name}”.
          <button type="button" className="secondary" onClick={() => restore.mutate(undo.id)}>
            Undo
          </button>
        </div>
      ) : null}
      {sets.data && sets.data.length === 0 ? (
        <EmptyState title="No question sets yet">Write one on the right, or import a DecisionsRequest JSON file.</EmptyState>
      ) : null}
      <ul className="set-list">
        {(sets.data ?? []).map((s) => (
          <li key={s.id} aria-current={s.id === selected ? 'true' : undefined}>
            <button type="button" className="link-button" data-set-id={s.id} onClick={() => onSelect(s.id)}>
              <strong>{s.name}</strong> {s.sample ? <span className="badge badge-muted">sample</span> : null}
              <span className="muted small">
                {s.model} · {s.question_count} question{s.question_count === 1 ? '' : 's'}
              </span>
            </button>
            <span className="set-actions">
              <button type="button" className="secondary" onClick={() => duplicate.mutate(s.id)} aria-label={`Duplicate ${s.name}`}>
                Duplicate
              </button>
              <button type="button" className="secondary" onClick={() => remove.mutate(s)} aria-label={`Delete ${s.name}`}>
                Delete
              </button>
            </span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

/** The endpoints serving the picked model, so the choice is made knowing prices and policies. */
function ModelEndpoints({ model, known }: { model: string; known: boolean }) {
  const listing = useQuery({ ...listingQuery(model, false), enabled: known });
  if (!known) return model ? <p className="muted small">Not in the catalog: the request will be refused unless a remote gateway knows it.</p> : null;
  if (!listing.data) return null;
  return (
    <p className="small muted endpoint-line">
      {/* Facts, not controls: a plain line, with where to compare them. */}
      <span className="visually-hidden">Endpoints: </span>
      <span role="list" aria-label={`Endpoints of ${model}`}>
        {listing.data.endpoints.map((e, i) => (
          <span role="listitem" key={e.tag}>
            {i > 0 ? ' · ' : ''}
            {e.provider_name} {e.pricing.prompt === '-1' ? 'price unknown' : `$${(Number(e.pricing.prompt) * 1e6).toFixed(2)}/M in`}
          </span>
        ))}
      </span>{' '}
      · <a href="#/endpoints">compare in Endpoints</a>
    </p>
  );
}

export function QuestionSetsScreen() {
  const models = useQuery(modelsQuery());
  const presets = useQuery(cascadePresetsQuery());
  const [selected, setSelectedState] = useState<string | undefined>(readSelected);
  const [draft, setDraft] = useState<SetDraft>(() => readDraft(readSelected()) ?? emptyDraft());
  // The saved version's fingerprint, for the set it belongs to: edits that differ from it are a draft.
  const [saved, setSaved] = useState<{ id: string; print: string } | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const [compareWith, setCompareWith] = useState<string[]>([]);
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
  const discard = () => {
    if (!window.confirm(`Discard the unsaved changes to “${draft.name}”?`)) return;
    dropDraft(draft.id);
    setDraft(
      loaded.data && draft.id ? draftFrom(loaded.data.id, loaded.data.name, loaded.data.request, loaded.data.cascade) : emptyDraft(models.data?.[0]?.id ?? ''),
    );
  };
  // The first model is offered once the list arrives, to a set that has none: not again when the
  // analyst empties the field to type another (that refilled it between keystrokes, and what was
  // typed next was appended to it).
  useEffect(() => {
    const first = models.data?.[0]?.id;
    if (first) setDraft((d) => (d.model ? d : { ...d, model: first }));
  }, [models.data]);
  const built = useMemo(() => buildRequest(draft), [draft]);
  const update = (patch: Partial<SetDraft>) => {
    for (const key of Object.keys(patch))
      touch(key === 'stateText' || key === 'images' || key === 'stateMode' ? 'state' : key === 'preferences' ? 'provider' : key);
    setDraft((d) => ({ ...d, ...patch }));
  };
  // The set on screen now, for a save answered after the analyst opened another one.
  const showing = useRef(draft.id);
  showing.current = draft.id;
  const save = useSaveSet(({ from, saved: s }) => {
    if (from === undefined) dropDraft(undefined);
    // Only the draft that was saved takes the saved id: given to another set's draft, its next save would overwrite this set.
    if (showing.current === from) {
      setDraft((d) => (d.id === from ? { ...d, id: s.id } : d));
      keepSelected(s.id);
      setSelectedState(s.id);
    }
  });
  // Run tries the set here, on its content and examples, on each model chosen: no screen switch.
  const tryGrid = useRef<TryGridHandle>(null);
  const models2 = [draft.model, ...compareWith.filter((m) => m !== draft.model)].filter((m) => m !== '');
  // A field's problems show once it was edited, or once Save was tried: a new, blank set is not "2 problems".
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [tried, setTried] = useState(false);
  const fresh = draft.id === undefined && !tried;
  const shown = (path: string) => !fresh || touched.has(path);
  const touch = (path: string) => !touched.has(path) && setTouched(new Set([...touched, path]));
  const onImport = async (file: File) => {
    setImportError(null);
    try {
      const parsed = DecisionsRequestSchema.safeParse(JSON.parse(await file.text()));
      if (!parsed.success) return setImportError(`${file.name} is not a valid DecisionsRequest: ${summarizeIssues(parsed.error)}`);
      if (!mayReplaceNew()) return;
      keepSelected(undefined);
      setSelectedState(undefined);
      setDraft(draftFrom(undefined, file.name.replace(/\.json$/i, ''), parsed.data));
      announce(`Imported ${file.name} as a new set: ${Object.keys(parsed.data.questions).length} questions, not saved yet.`);
    } catch (error) {
      setImportError(`${file.name} is not JSON: ${(error as Error).message}`);
    }
  };
  const statePending = shown('state') ? problemsAt(built.problems, 'state') : [];
  const visibleProblems = built.problems.filter((p) => shown(p.path.split('.')[0] === 'questions' ? 'questions' : p.path.split('.')[0]!));
  return (
    <>
      <ScreenHeader
        title="Question sets"
        description="Named questions about some content: yes/no (noul), choice, score and box, answered as measured probabilities."
        actions={
          <>
            <label className="file-button secondary">
              Import JSON…
              <input type="file" accept="application/json,.json" onChange={(e) => e.target.files?.[0] && void onImport(e.target.files[0])} />
            </label>
            <button
              type="button"
              className="secondary"
              disabled={!built.savable}
              onClick={() => download(fileName(draft.name, 'json'), JSON.stringify(built.savable, null, 2))}
            >
              Export JSON
            </button>
          </>
        }
      />
      <SandboxNotice />
      <SampleOffer
        onAdded={({ set }) => {
          setSelected(set);
          // The offer is gone: focus goes to the set it added, in the list.
          focusWhenShown(() => document.querySelector<HTMLElement>(`[data-set-id="${set}"]`));
        }}
      />
      {importError ? <ErrorNotice error={new Error(importError)} title="Import failed" /> : null}
      <div className="split">
        <SetList
          selected={selected}
          onSelect={setSelected}
          onNew={() => {
            if (!mayReplaceNew()) return;
            keepSelected(undefined);
            setSelectedState(undefined);
            setDraft(emptyDraft(models.data?.[0]?.id ?? ''));
          }}
        />
        <div>
          <Panel title="Set">
            <div className="two-cols">
              <div>
                <label htmlFor="set-name">Name</label>
                <input id="set-name" value={draft.name} onChange={(e) => update({ name: e.target.value })} />
              </div>
              <div>
                <label htmlFor="set-model">Model</label>
                <input id="set-model" list="model-options" value={draft.model} onChange={(e) => update({ model: e.target.value })} placeholder="author/slug" />
                <datalist id="model-options">
                  {(models.data ?? []).map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.name} · {m.endpoint_count} endpoints · {modelKind(m)}
                    </option>
                  ))}
                </datalist>
                <FieldProblems problems={shown('model') ? problemsAt(built.problems, 'model') : []} />
                <ModelEndpoints model={draft.model} known={(models.data ?? []).some((m) => m.id === draft.model)} />
              </div>
            </div>
            <div>
              <label htmlFor="set-cascade">Cascade preset</label>
              <select id="set-cascade" style={{ maxWidth: '100%' }} value={draft.cascade ?? ''} onChange={(e) => update({ cascade: e.target.value })}>
                <option value="">none: the model alone answers</option>
                {(presets.data ?? []).map((p) => (
                  <option key={p.name} value={p.name}>
                    {p.name}: {describeCascade(p.first_model ?? draft.model, p.model, p.when)}
                  </option>
                ))}
                {/* A preset deleted since the set was saved stays named, so the run's refusal is understood. */}
                {draft.cascade && presets.data && !presets.data.some((p) => p.name === draft.cascade) ? (
                  <option value={draft.cascade}>{draft.cascade}: deleted; runs are refused until another is chosen</option>
                ) : null}
              </select>
              <p className="muted small">Run here, the set asks its model first and the preset&apos;s model when the condition holds.</p>
            </div>
            <StateEditor draft={draft} onChange={update} />
            <FieldProblems problems={statePending} />
          </Panel>
          <Panel
            title={`Questions (${draft.questions.length})`}
            aside={
              <button
                type="button"
                className="secondary"
                onClick={() => update({ questions: [...draft.questions, newQuestion('noul', `q${draft.questions.length + 1}`)] })}
              >
                Add question
              </button>
            }
          >
            {draft.questions.map((q) => (
              <QuestionEditor
                key={q.key}
                question={q}
                problems={shown('questions') ? built.problems : []}
                onChange={(next) => update({ questions: draft.questions.map((x) => (x.key === q.key ? next : x)) })}
                onRemove={() => update({ questions: draft.questions.filter((x) => x.key !== q.key) })}
              />
            ))}
            <FieldProblems problems={shown('questions') ? built.problems.filter((p) => p.path === 'questions') : []} />
          </Panel>
          {/* Twenty controls most sets never need: folded, saying what is set. */}
          <details className="panel preferences-panel" open={draft.preferences.trim() !== '' && draft.preferences.trim() !== '{}' ? true : undefined}>
            <summary>
              <strong>Provider preferences</strong> <span className="muted small">{preferencesSummary(draft.preferences)}</span>
            </summary>
            <PreferencesForm json={draft.preferences} onChange={(preferences) => update({ preferences })} />
            <p className="muted small">{PREFERENCE_HELP}</p>
            <label htmlFor="set-preferences" className="visually-hidden">
              Provider preferences JSON
            </label>
            <textarea
              id="set-preferences"
              rows={3}
              value={draft.preferences}
              placeholder='{"sort": "price"}'
              onChange={(e) => update({ preferences: e.target.value })}
            />
            <FieldProblems problems={shown('provider') ? problemsAt(built.problems, 'provider') : []} />
          </details>
          <TryGrid
            ref={tryGrid}
            setId={draft.id}
            setName={draft.name}
            request={built.savable ?? null}
            ownState={built.valid ? built.valid.state : null}
            models={models2}
            cascade={draft.cascade || null}
          />
          <StickyBar className="action-bar">
            {dirty ? (
              <span className="draft-state" role="note">
                <span className="badge badge-sim">unsaved changes</span> kept as a draft
                <button type="button" className="secondary" onClick={discard}>
                  Discard changes
                </button>
              </span>
            ) : null}
            <span
              className={built.valid ? 'badge badge-ok' : 'badge'}
              role="status"
              title={
                !built.valid && built.savable
                  ? 'Content is needed to run the set here; a set used over a dataset in Evaluations takes it from each item'
                  : undefined
              }
            >
              {built.valid
                ? 'valid request'
                : built.savable
                  ? 'no content: can be saved, not run'
                  : visibleProblems.length === 0
                    ? 'new set: write content and a question'
                    : `${built.problems.length} problem${built.problems.length === 1 ? '' : 's'}`}
            </span>
            <label htmlFor="compare-models">Also run on</label>
            <select
              id="compare-models"
              multiple
              size={2}
              value={compareWith}
              onChange={(e) => setCompareWith([...e.target.selectedOptions].map((o) => o.value))}
            >
              {(models.data ?? [])
                .filter((m) => m.id !== draft.model)
                .map((m) => (
                  <option key={m.id} value={m.id} title={modelKind(m)}>
                    {m.id} ({kindTag(m)})
                  </option>
                ))}
            </select>
            <button
              type="button"
              className="secondary"
              disabled={save.isPending}
              onClick={() =>
                built.savable
                  ? save.mutate({
                      from: draft.id,
                      set: { ...(draft.id ? { id: draft.id } : {}), name: draft.name, request: built.savable, cascade: draft.cascade || null },
                    })
                  : setTried(true)
              }
            >
              {save.isPending ? 'Saving…' : 'Save'}
            </button>
            <button
              type="button"
              disabled={!built.valid}
              onClick={() => tryGrid.current?.tryAll()}
              title="Tries the set here on its content and examples, on each model chosen"
            >
              {compareWith.length > 0 ? `Run on ${compareWith.length + 1} models` : 'Run'}
            </button>
          </StickyBar>
          {save.error ? <ErrorNotice error={save.error} title="Not saved" /> : null}
          {save.isSuccess && save.data.saved.id === draft.id ? (
            <p className="muted small" role="status">
              Saved.
            </p>
          ) : null}
        </div>
      </div>
    </>
  );
}
