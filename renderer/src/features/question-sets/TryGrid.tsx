import { useQueries } from '@tanstack/react-query';
import { useImperativeHandle, useRef, type ReactNode, type Ref } from 'react';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { Question } from '../../../../shared/schemas/question';
import { clickOnce, once } from '../../lib/send-once';
import { ErrorNotice, Panel } from '../../ui/components';
import { runQuery } from '../runs';
import { useTryRuns } from './api';
import { newKey } from './draft';
import { type Example } from './examples';
import { OWN, tryRuns } from './try-runs';
import { useKeptExamples, useKeptTried } from './use-try-state';
import { TryCell } from './TryCell';
import { TryExample } from './TryExample';
import { TrySaveBar } from './TrySaveBar';
import { BreakableName } from '../../ui/BreakableName';
import { ScrollArea } from '../../ui/ScrollArea';

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
  /** Where the other models to try are chosen, beside the grid's own button. */
  modelPicker?: ReactNode;
  ref?: Ref<TryGridHandle>;
}

/**
 * A few examples × a few models, tried where the set is written (as promptfoo's and Braintrust's
 * grids do): each example's content and what its answers should be, each model's answers beside
 * them marked right or wrong; the examples are kept with the set and saved as a dataset on request.
 */
export function TryGrid({ setId, setName, request, ownState, models, cascade, modelPicker, ref }: Props) {
  const [examples, change] = useKeptExamples(setId);
  const questions = Object.keys(request?.questions ?? {});
  const textQuestions = questions.filter((q) => (request!.questions[q] as Question).type !== 'box');
  const own = examples.find((e) => e.key === OWN) ?? { key: OWN, text: '', expected: {} };
  const rows = [...(ownState !== null ? [own] : []), ...examples.filter((e) => e.key !== OWN)];
  // Examples not written yet are not sent.
  const ready = rows.filter((e) => e.key === OWN || e.text.trim() !== '');
  // Run ids by example and model, kept with the set across screens and reloads (try-store.ts).
  const [runs, setRuns] = useKeptTried(setId);
  const ids = Object.values(runs);
  const polled = useQueries({ queries: ids.map((id) => runQuery(id)) });
  const byId = new Map(polled.flatMap((p) => (p.data ? [[p.data.id, p.data] as const] : [])));
  const ownRuns = models.map((m) => runs[`${OWN}|${m}`]).filter((id): id is string => id !== undefined);
  const top = useRef<HTMLDivElement>(null);
  const held = useRef(false);
  const toTry = () =>
    tryRuns({ examples: ready, numbered: rows.filter((x) => x.key !== OWN), models, request: request!, ownState, textQuestions, setName, setId, cascade });
  const tryAll = useTryRuns(setRuns);
  useImperativeHandle(ref, () => ({
    tryAll: () => {
      top.current?.scrollIntoView({ block: 'nearest' });
      if (request && ready.length > 0 && models.length > 0) once(held, () => tryAll.mutateAsync(toTry()));
    },
  }));
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
        {modelPicker}
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
                    <BreakableName name={m} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((e) => {
                // Examples are numbered among themselves; the set's own content is named.
                const n = rows.filter((x) => x.key !== OWN).indexOf(e) + 1;
                return (
                  <tr key={e.key}>
                    <TryExample
                      example={e}
                      own={e.key === OWN}
                      n={n}
                      questions={e.key === OWN ? questions : textQuestions}
                      definitions={(request?.questions ?? {}) as Record<string, Question>}
                      onText={(text) => change(examples.map((x) => (x.key === e.key ? { ...x, text } : x)))}
                      onExpected={(q, value) => setExpected(e, q, value)}
                      onRemove={() => change(examples.filter((x) => x.key !== e.key))}
                    />
                    {models.map((m) => {
                      const id = runs[`${e.key}|${m}`];
                      return (
                        <TryCell key={m} run={id ? byId.get(id) : undefined} questions={e.key === OWN ? questions : textQuestions} expected={e.expected} />
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollArea>
        <TrySaveBar
          setName={setName}
          examples={examples.filter((e) => e.key !== OWN)}
          request={request}
          canAdd={examples.filter((e) => e.key !== OWN).length < MAX_EXAMPLES}
          onAdd={() => change([...examples, { key: newKey() + Date.now().toString(36), text: '', expected: {} }])}
        />
        {tryAll.error ? <ErrorNotice error={tryAll.error} title="Not tried" /> : null}
      </Panel>
    </div>
  );
}
