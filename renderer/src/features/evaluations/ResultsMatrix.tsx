import { useQueries, useQuery } from '@tanstack/react-query';
import { memo, useCallback, useMemo, useRef, useState } from 'react';
import type { EvalResultRow } from '../../../../shared/schemas/evaluation';
import { answerText, expectedText } from './answer-text';
import { LOW_CONFIDENCE, RESULTS_PAGE, resultsPageQuery, type ResultFilter } from './api';
import { VirtualRows } from './VirtualRows';

const ROW = 34;
/** Answer columns that still read at 1280 pixels; beyond them the matrix shows one question at a time. */
const MAX_COLUMNS = 6;
const ALL = '\u0000all';
const FILTERS: { id: ResultFilter; label: string; title?: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'wrong', label: 'Wrong', title: 'Items where any model got any question wrong' },
  { id: 'disagree', label: 'Models disagree', title: 'Items where the models gave different answers to a question' },
  { id: 'low', label: `Low confidence (< ${LOW_CONFIDENCE})`, title: `Items where any model answered any question with a confidence below ${LOW_CONFIDENCE}` },
];

/** What a cell's number is, said on hover: a yes/no answer's P(true), a choice's probability. */
function cellTitle(answer: unknown): string {
  const a = answer as { type?: string; noul?: number } | undefined;
  return a?.type === 'noul' ? `P(true) = ${(a.noul ?? 0).toFixed(3)} · ` : '';
}

const mark = (v: boolean | null | undefined) => (v === true ? '✓' : v === false ? '✗' : '');

/**
 * What a cell says: the answer and its mark (no mark when the item has no expected answer for the
 * question), "failed", or "not sent" for an item the run never sent to that model (cancelled or
 * stopped by its budget), which is not the same as an unlabelled one. Empty until its page arrives.
 */
export function cellText(
  row: EvalResultRow | undefined,
  cell: EvalResultRow['cells'][number] | undefined,
  question: string,
  correct: boolean | null | undefined,
): string {
  if (!row) return '';
  if (!cell) return 'not sent';
  if (!cell.ok) return 'failed';
  return `${answerText(cell.answers[question])} ${mark(correct)}`.trimEnd();
}

/** One row of the matrix; memoised, so rows that stay in view are not rendered again while scrolling. */
const MatrixRow = memo(function MatrixRow({
  row,
  top,
  models,
  questions,
  onOpen,
}: {
  row: EvalResultRow | undefined;
  top: number;
  models: readonly string[];
  questions: readonly string[];
  onOpen: (position: number) => void;
}) {
  return (
    <div className="matrix-row" role="row" style={{ top }}>
      <span className="muted">{row ? row.position + 1 : ''}</span>
      {/* Always a button (disabled until its page arrives): a recycled row keeps its elements. The item is told by its text, its id beside it. */}
      <button
        type="button"
        className="link-button matrix-item"
        disabled={!row}
        onClick={() => row && onOpen(row.position)}
        title={row ? `${row.id}: ${row.text}` : undefined}
      >
        {row ? (
          <>
            <span className="mono small">{row.id}</span> <span className="matrix-item-text">{row.text}</span>
          </>
        ) : (
          '…'
        )}
      </button>
      {models.flatMap((m) => {
        const cell = row?.cells.find((c) => c.variant === m);
        return questions.map((q) => {
          const correct = cell?.correct[q];
          return (
            <span
              key={`${m}-${q}`}
              className={correct === false ? 'cell-wrong' : correct === true ? 'cell-right' : row && !cell ? 'muted' : undefined}
              title={
                row ? (cell && !cell.ok && cell.error ? cell.error : `${cellTitle(cell?.answers[q])}expected: ${expectedText(row.expected[q])}`) : undefined
              }
            >
              {cellText(row, cell, q, correct)}
            </span>
          );
        });
      })}
    </div>
  );
});

/** The pages holding rows `first` to `last`, and the next one, fetched before it is scrolled to. */
const pagesFor = (first: number, last: number): number[] => [
  ...new Set([Math.floor(first / RESULTS_PAGE), Math.floor(Math.max(first, last - 1) / RESULTS_PAGE), Math.floor((last + RESULTS_PAGE / 2) / RESULTS_PAGE)]),
];

/** Items × (model, question): answer, right/wrong mark; filtered on the server, virtualised here. */
export function ResultsMatrix({
  runId,
  done,
  questions: allQuestions,
  models,
  onOpen,
}: {
  runId: string;
  done: number;
  questions: string[];
  models: string[];
  onOpen: (position: number) => void;
}) {
  const [filter, setFilter] = useState<ResultFilter>('all');
  // Every question while the columns fit the screen, else one at a time (chosen here): twelve
  // answer columns left each too narrow to read.
  const [chosen, setChosen] = useState<string | null>(null);
  const fits = models.length * allQuestions.length <= MAX_COLUMNS;
  const only = chosen === ALL ? null : (chosen ?? (fits ? null : (allQuestions[0] ?? null)));
  const questions = only === null ? allQuestions : [only];
  // Only the pages in view are state: scrolling within them renders nothing here.
  const [pageList, setPageList] = useState('0');
  const onRange = useCallback((first: number, last: number) => setPageList(pagesFor(first, last).join(',')), []);
  const first = useQuery(resultsPageQuery(runId, filter, 0, done, only));
  const pageIndexes = useMemo(() => pageList.split(',').map(Number), [pageList]);
  const pages = useQueries({ queries: pageIndexes.map((p) => resultsPageQuery(runId, filter, p, done, only)) });
  const total = first.data?.total ?? 0;
  const at = (i: number): EvalResultRow | undefined => {
    const p = Math.floor(i / RESULTS_PAGE);
    const data = p === 0 ? first.data : pages[pageIndexes.indexOf(p)]?.data;
    return data?.rows[i - p * RESULTS_PAGE];
  };
  const modelKey = models.join('\n');
  const questionKey = questions.join('\n');
  // The same names in a new array are the same columns: rows keep their memo.
  const stableModels = useMemo(() => models, [modelKey]);
  const stableQuestions = useMemo(() => questions, [questionKey]);
  const openRef = useRef(onOpen);
  openRef.current = onOpen;
  const open = useCallback((position: number) => openRef.current(position), []);
  return (
    <div className="results-matrix">
      <div className="segmented" role="group" aria-label="Show items">
        {FILTERS.map((f) => (
          <button key={f.id} type="button" aria-pressed={filter === f.id} onClick={() => setFilter(f.id)} title={f.title}>
            {f.label}
          </button>
        ))}
        <span className="muted small">{total.toLocaleString('en-US')} items</span>
        {allQuestions.length > 1 ? (
          <label className="small matrix-questions">
            Questions
            <select value={only ?? ALL} onChange={(e) => setChosen(e.target.value)} aria-label="Questions shown">
              <option value={ALL}>all{fits ? '' : ' (narrow columns)'}</option>
              {allQuestions.map((q) => (
                <option key={q} value={q}>
                  {q}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      <div className="matrix-head" role="row">
        <span>#</span>
        <span>item</span>
        {models.flatMap((m) =>
          questions.map((q) => (
            // Model above question, each on its own line: the question's name is never cut off by the model's.
            <span key={`${m}-${q}`} className="matrix-col" title={`${m} · ${q}`}>
              {models.length > 1 ? <span className="matrix-col-model">{m.split('/').pop()}</span> : null}
              <span className="matrix-col-question">{q}</span>
            </span>
          )),
        )}
      </div>
      <VirtualRows
        label="Results"
        count={total}
        rowHeight={ROW}
        height={Math.min(420, Math.max(ROW * 3, total * ROW))}
        onRange={onRange}
        layout="placed"
        renderRow={(i, top, slot) => <MatrixRow key={slot} row={at(i)} top={top} models={stableModels} questions={stableQuestions} onOpen={open} />}
      />
    </div>
  );
}
