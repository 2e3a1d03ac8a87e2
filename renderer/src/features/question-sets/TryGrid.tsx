import { useQueries } from '@tanstack/react-query';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { Question } from '../../../../shared/schemas/question';
import type { Run } from '../../../../shared/schemas/inspector';
import { formatUsd } from '../../../../shared/money/format-usd';
import { clickOnce, once } from '../../lib/send-once';
import { ErrorNotice, Panel } from '../../ui/components';
import { answerText } from '../../lib/answer-text';
import { runQuery } from '../runs';
import { useSaveExamplesAsDataset, useTryRuns, type TryRun } from './api';
import { newKey } from './draft';
import { examplesAsJsonl, expectedChoices, keepExamples, matchesExpected, readExamples, type Example } from './examples';
import { ScrollArea } from '../../ui/ScrollArea';

/** The set's own content is the first example; its expected answers are kept under this key. */
const OWN = 'own';
const MAX_EXAMPLES = 8;

export interface TryGridHandle {
  /** Sends every example to every model, and brings the grid into view. */
  tryAll: () => void;
}

interface Props {
  setId: string | undefined;
  setName: string;
  /** The set as it would be sent (its content may be empty); null while it has problems. */
  request: DecisionsRequest | null;
  /** The content of the set when it has some (the first example), else null. */
  ownState: DecisionsRequest['state'] | null;
  models: readonly string[];
  /** The set's cascade preset: the set's own model's runs go through it (the other models are asked alone). */
  cascade: string | null;
  ref?: Ref<TryGridHandle>;
}

const mark = (v: boolean | null) => (v === true ? ' ✓' : v === false ? ' ✗' : '');

/** One cell: each question's answer, right or wrong against what the example should have been. */
function Cell({ run, questions, expected }: { run: Run | undefined; questions: string[]; expected: Record<string, string> }) {
  if (!run) return <td className="muted">not tried</td>;
  if (run.status === 'failed') return <td className="text-error">{run.error?.message ?? 'failed'}</td>;
  const answers = (run.response as { answers?: Record<string, unknown>; usage?: { cost?: number } } | null)?.answers ?? {};
  const cost = (run.response as { usage?: { cost?: number } } | null)?.usage?.cost;
  const cascade = (run.response as { cascade?: { answered_by: string; stages: unknown[] } } | null)?.cascade;
  return (
    <td className="try-cell" data-run={run.id}>
      {questions.map((q) => {
        const right = matchesExpected(answers[q], expected[q]);
        return (
          <div key={q} className={right === false ? 'cell-wrong' : right === true ? 'cell-right' : undefined}>
            <span className="muted">{q}:</span>{' '}
            <span className="nowrap">{run.status === 'running' && !(q in answers) ? '…' : `${answerText(answers[q])}${mark(right)}`}</span>
          </div>
        );
      })}
      {run.status === 'done' ? (
        <div className="muted small">
          {cascade ? (
            <>
              answered by {cascade.answered_by} ({cascade.stages.length === 1 ? 'first stage' : 'escalated'}) ·{' '}
            </>
          ) : null}
          {cost === undefined ? 'cost unknown' : formatUsd(cost)}
          {cascade && cascade.stages.length > 1 ? ' for both stages' : ''} · <a href={`#/runs?run=${run.id}`}>open in Runs</a>
        </div>
      ) : null}
    </td>
  );
}

/**
 * A few examples × a few models, tried where the set is written (as promptfoo's and Braintrust's
 * grids do): each example's content and what its answers should be, each model's answers beside
 * them marked right or wrong; the examples are kept with the set and saved as a dataset on request.
 */
export function TryGrid({ setId, setName, request, ownState, models, cascade, ref }: Props) {
  const [examples, setExamples] = useState<Example[]>(() => readExamples(setId));
  useEffect(() => setExamples(readExamples(setId)), [setId]);
  const change = (next: Example[]) => {
    setExamples(next);
    keepExamples(setId, next);
  };
  const questions = Object.keys(request?.questions ?? {});
  const textQuestions = questions.filter((q) => (request!.questions[q] as Question).type !== 'box');
  const own = examples.find((e) => e.key === OWN) ?? { key: OWN, text: '', expected: {} };
  const rows = [...(ownState !== null ? [own] : []), ...examples.filter((e) => e.key !== OWN)];
  // Examples not written yet are not sent.
  const ready = rows.filter((e) => e.key === OWN || e.text.trim() !== '');
  // Run ids by example and model, kept while the set is on screen.
  const [runs, setRuns] = useState<Record<string, string>>({});
  const ids = Object.values(runs);
  const polled = useQueries({ queries: ids.map((id) => runQuery(id)) });
  const byId = new Map(polled.flatMap((p) => (p.data ? [[p.data.id, p.data] as const] : [])));
  const ownRuns = models.map((m) => runs[`${OWN}|${m}`]).filter((id): id is string => id !== undefined);
  const top = useRef<HTMLDivElement>(null);
  const held = useRef(false);
  /** Every ready example on every model, each run labelled as Runs lists it. */
  const toTry = (): TryRun[] =>
    ready.flatMap((e) =>
      models.map((model) => {
        // Examples of text only: the set's questions about images are asked of the set's own content alone.
        const state = e.key === OWN ? ownState! : e.text;
        const asked = e.key === OWN ? request!.questions : Object.fromEntries(textQuestions.map((q) => [q, request!.questions[q]!]));
        // Labelled as Runs lists them: the set's own run by the set's name, an example's by its place.
        const label = e.key === OWN ? setName : `${setName} · example ${rows.filter((x) => x.key !== OWN).indexOf(e) + 1}`;
        return {
          key: `${e.key}|${model}`,
          input: {
            request: { ...request!, model, state, questions: asked } as DecisionsRequest,
            ...(setId ? { set_id: setId } : {}),
            ...(cascade && model === request!.model ? { cascade } : {}),
            label,
          },
        };
      }),
    );
  const tryAll = useTryRuns(setRuns);
  useImperativeHandle(ref, () => ({
    tryAll: () => {
      top.current?.scrollIntoView({ block: 'nearest' });
      if (request && ready.length > 0 && models.length > 0) once(held, () => tryAll.mutateAsync(toTry()));
    },
  }));
  const [datasetName, setDatasetName] = useState('');
  const saveDataset = useSaveExamplesAsDataset();
  const saveAsDataset = () =>
    saveDataset.mutate({
      name: datasetName.trim() || `${setName} examples`,
      file: 'examples.jsonl',
      format: 'jsonl',
      content: examplesAsJsonl(
        rows.filter((e) => e.key !== OWN),
        request!.questions,
      ),
      questions: request!.questions,
    });
  const setExpected = (e: Example, q: string, value: string) => {
    const next = { ...e, expected: { ...e.expected, [q]: value } };
    change(examples.some((x) => x.key === e.key) ? examples.map((x) => (x.key === e.key ? next : x)) : [...examples, next]);
  };
  return (
    <div ref={top}>
      <Panel
        title="Try it"
        aside={
          <button
            type="button"
            disabled={!request || ready.length === 0 || models.length === 0 || tryAll.isPending}
            onClick={clickOnce(held, () => tryAll.mutateAsync(toTry()))}
          >
            Try {ready.length} example{ready.length === 1 ? '' : 's'} on {models.length} model{models.length === 1 ? '' : 's'}
          </button>
        }
      >
        <p className="muted small">
          Each example is sent to each model here, without leaving the set; say what each answer should be and the grid marks it.{' '}
          {request ? '' : 'Fix the problems above to try the set.'}{' '}
          {ownRuns.length > 0 ? (
            // The set's own runs, side by side in Runs (routing, distributions, usage), when wanted.
            <a href={`#/runs?${ownRuns.length > 1 ? 'compare' : 'run'}=${ownRuns.join(',')}`}>{ownRuns.length > 1 ? 'Compare in Runs' : 'Open in Runs'}</a>
          ) : null}
        </p>
        <ScrollArea label="Examples and answers, scrolls sideways">
          <table className="table small try-grid" aria-label="Examples and answers">
            <thead>
              <tr>
                <th scope="col">Example and what it should answer</th>
                {models.map((m) => (
                  <th key={m} scope="col" className="mono">
                    {/* A line break is allowed after the provider, so three models fit beside the examples. */}
                    {m.includes('/') ? (
                      <>
                        {m.slice(0, m.indexOf('/') + 1)}
                        <wbr />
                        {m.slice(m.indexOf('/') + 1)}
                      </>
                    ) : (
                      m
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => {
                // Examples are numbered among themselves; the set's own content is named.
                const n = rows.filter((x) => x.key !== OWN).indexOf(e) + 1;
                const called = e.key === OWN ? "this set's content" : `example ${n}`;
                return (
                  <tr key={e.key}>
                    <td className="try-example">
                      {e.key === OWN ? (
                        <p className="small">
                          <strong>This set&apos;s content</strong>
                        </p>
                      ) : (
                        <textarea
                          rows={2}
                          value={e.text}
                          aria-label={`Example ${n}`}
                          onChange={(ev) => change(examples.map((x) => (x.key === e.key ? { ...x, text: ev.target.value } : x)))}
                          placeholder="Content to judge"
                        />
                      )}
                      <div className="try-expected">
                        {(e.key === OWN ? questions : textQuestions).map((q) => {
                          const choices = expectedChoices(request!.questions[q] as Question);
                          if (choices.length === 0) return null;
                          return (
                            <label key={q} className="small">
                              {q}
                              <select
                                value={e.expected[q] ?? ''}
                                onChange={(ev) => setExpected(e, q, ev.target.value)}
                                aria-label={`Expected ${q} of ${called}`}
                              >
                                <option value="">not said</option>
                                {choices.map(([value, words]) => (
                                  <option key={value} value={value}>
                                    {words}
                                  </option>
                                ))}
                              </select>
                            </label>
                          );
                        })}
                        {e.key !== OWN ? (
                          <button
                            type="button"
                            className="secondary small"
                            onClick={() => change(examples.filter((x) => x.key !== e.key))}
                            aria-label={`Remove example ${n}`}
                          >
                            Remove
                          </button>
                        ) : null}
                      </div>
                    </td>
                    {models.map((m) => {
                      const id = runs[`${e.key}|${m}`];
                      return <Cell key={m} run={id ? byId.get(id) : undefined} questions={e.key === OWN ? questions : textQuestions} expected={e.expected} />;
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollArea>
        <div className="toolbar">
          <button
            type="button"
            className="secondary"
            disabled={examples.filter((e) => e.key !== OWN).length >= MAX_EXAMPLES}
            onClick={() => change([...examples, { key: newKey() + Date.now().toString(36), text: '', expected: {} }])}
          >
            Add an example
          </button>
          <label className="small">
            Save the examples as a dataset
            <input
              value={datasetName}
              onChange={(e) => setDatasetName(e.target.value)}
              placeholder={`${setName} examples`}
              maxLength={200}
              aria-label="Dataset name"
            />
          </label>
          <button
            type="button"
            className="secondary"
            disabled={!request || rows.filter((e) => e.key !== OWN && e.text.trim()).length === 0 || saveDataset.isPending}
            onClick={saveAsDataset}
          >
            Save as dataset
          </button>
          {saveDataset.data?.dataset ? (
            <span className="small" role="status">
              Saved {saveDataset.data.imported} items: <a href="#/evaluations">evaluate them in Evaluations</a>
            </span>
          ) : null}
        </div>
        {saveDataset.data && !saveDataset.data.dataset ? (
          <ErrorNotice error={new Error(saveDataset.data.problems.map((p) => `${p.field}: ${p.message}`).join('; '))} title="Not saved" />
        ) : null}
        {saveDataset.error ? <ErrorNotice error={saveDataset.error} title="Not saved" /> : null}
        {tryAll.error ? <ErrorNotice error={tryAll.error} title="Not tried" /> : null}
      </Panel>
    </div>
  );
}
