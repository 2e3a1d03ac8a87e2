import { useQueries, useQuery } from '@tanstack/react-query';
import { useCallback, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import type { EvalResultRow } from '../../../../shared/schemas/evaluation';
import { RESULTS_PAGE, resultsPageQuery, type ResultFilter } from './api';
import { ALL_QUESTIONS, MatrixFilters } from './MatrixFilters';
import { ITEM_COLUMN, MatrixRow } from './MatrixRow';
import { useGridFocus } from './use-grid-focus';
import { VirtualRows } from './VirtualRows';

const ROW = 34;
/** Answer columns that still read at 1280 pixels; beyond them the matrix shows one question at a time. */
const MAX_COLUMNS = 6;

/** The pages holding rows `first` to `last`, and the next one, fetched before it is scrolled to. */
const pagesFor = (first: number, last: number): number[] => [
  ...new Set([Math.floor(first / RESULTS_PAGE), Math.floor(Math.max(first, last - 1) / RESULTS_PAGE), Math.floor((last + RESULTS_PAGE / 2) / RESULTS_PAGE)]),
];

export interface ResultsMatrixHandle {
  /** Focus back on the cell the grid's Tab stop is on: where a pane opened from it returns. */
  focusActive: () => void;
}

/**
 * Every question while the columns fit the screen, else one at a time (chosen here): twelve
 * answer columns left each too narrow to read.
 */
function useQuestionColumns(models: string[], allQuestions: string[]) {
  const [chosen, setChosen] = useState<string | null>(null);
  const fits = models.length * allQuestions.length <= MAX_COLUMNS;
  const only = chosen === ALL_QUESTIONS ? null : (chosen ?? (fits ? null : (allQuestions[0] ?? null)));
  const questions = only === null ? allQuestions : [only];
  return { setChosen, fits, only, questions };
}

/** The result's pages in view (only they are state: scrolling within them renders nothing here), and row `i` once fetched. */
function useResultPages(runId: string, filter: ResultFilter, done: number, only: string | null) {
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
  return { onRange, total, at };
}

/**
 * The grid's keyboard focus over the whole result, and its columns kept the same array while their
 * names stay the same, so rows keep their memo; Enter opens the focused row's item.
 */
function useMatrixNav(models: string[], questions: string[], onOpen: (position: number) => void, total: number, at: (i: number) => EvalResultRow | undefined) {
  const modelKey = models.join('\n');
  const questionKey = questions.join('\n');
  // The same names in a new array are the same columns: rows keep their memo.
  const stableModels = useMemo(() => models, [modelKey]);
  const stableQuestions = useMemo(() => questions, [questionKey]);
  const openRef = useRef(onOpen);
  openRef.current = onOpen;
  const open = useCallback((position: number) => openRef.current(position), []);
  const height = Math.min(420, Math.max(ROW * 3, total * ROW));
  const cols = 2 + models.length * questions.length;
  const atRef = useRef(at);
  atRef.current = at;
  const nav = useGridFocus({
    rows: total,
    cols,
    page: Math.max(1, Math.floor(height / ROW) - 1),
    initialCol: ITEM_COLUMN,
    onActivate: (i) => {
      const row = atRef.current(i);
      if (row) open(row.position);
    },
  });
  return { stableModels, stableQuestions, open, height, cols, nav };
}

/** The header row: #, item, and a column per model and question, the model above the question. */
function MatrixHead({ models, questions }: { models: string[]; questions: string[] }) {
  return (
    <div role="rowgroup">
      <div className="matrix-head" role="row" aria-rowindex={1}>
        <span role="columnheader">#</span>
        <span role="columnheader">item</span>
        {models.flatMap((m) =>
          questions.map((q) => (
            // Model above question, each on its own line: the question's name is never cut off by the model's.
            <span key={`${m}-${q}`} role="columnheader" className="matrix-col" title={`${m} · ${q}`}>
              {models.length > 1 ? <span className="matrix-col-model">{m.split('/').pop()}</span> : null}
              <span className="matrix-col-question">{q}</span>
            </span>
          )),
        )}
      </div>
    </div>
  );
}

/** The rows in view of the whole result, the focused one kept rendered. */
function MatrixItems({
  total,
  height,
  onRange,
  nav,
  at,
  models,
  questions,
  open,
}: {
  total: number;
  height: number;
  onRange: (first: number, last: number) => void;
  nav: ReturnType<typeof useGridFocus>;
  at: (i: number) => EvalResultRow | undefined;
  models: string[];
  questions: string[];
  open: (position: number) => void;
}) {
  return (
    <VirtualRows
      label="Items"
      count={total}
      rowHeight={ROW}
      height={height}
      onRange={onRange}
      layout="placed"
      pinned={nav.active?.row ?? null}
      tabbable={false}
      renderRow={(i, top, key) => (
        <MatrixRow
          key={key}
          index={i}
          row={at(i)}
          top={top}
          models={models}
          questions={questions}
          focusCol={nav.active?.row === i ? nav.active.col : null}
          gridHoldsFocus={nav.holds}
          onOpen={open}
        />
      )}
    />
  );
}

/**
 * Items × (model, question): answer, right/wrong mark; filtered on the server, virtualised here. A
 * data grid for the keyboard and screen readers: one Tab stop, arrows between cells, Enter opens
 * the item; its row and column counts are the whole result's, not the rendered rows'.
 */
export function ResultsMatrix({
  runId,
  done,
  questions: allQuestions,
  models,
  onOpen,
  ref,
  confidence = true,
}: {
  runId: string;
  done: number;
  questions: string[];
  models: string[];
  onOpen: (position: number) => void;
  /** Whether any question's answers carry a confidence (a run of box questions has none). */
  confidence?: boolean;
  ref?: Ref<ResultsMatrixHandle>;
}) {
  const [filter, setFilter] = useState<ResultFilter>('all');
  const { setChosen, fits, only, questions } = useQuestionColumns(models, allQuestions);
  const { onRange, total, at } = useResultPages(runId, filter, done, only);
  const { stableModels, stableQuestions, open, height, cols, nav } = useMatrixNav(models, questions, onOpen, total, at);
  useImperativeHandle(ref, () => ({ focusActive: nav.focusActive }));
  return (
    <div className="results-matrix">
      <MatrixFilters
        filter={filter}
        onFilter={setFilter}
        total={total}
        questions={allQuestions}
        only={only}
        fits={fits}
        onOnly={setChosen}
        confidence={confidence}
      />
      <div
        ref={nav.grid}
        role="grid"
        aria-label="Results"
        aria-rowcount={total + 1}
        aria-colcount={cols}
        className="matrix-grid"
        onKeyDown={nav.onKeyDown}
        onFocus={nav.onFocus}
        onBlur={nav.onBlur}
      >
        <MatrixHead models={models} questions={questions} />
        <MatrixItems total={total} height={height} onRange={onRange} nav={nav} at={at} models={stableModels} questions={stableQuestions} open={open} />
      </div>
    </div>
  );
}
