import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { RefObject } from 'react';
import type { OperationInput } from '../../../../shared/contract/operations';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { EvalEstimate, EvalRun } from '../../../../shared/schemas/evaluation';
import type { CascadeFamily } from '../../../../shared/schemas/cascade-curve';

/** Which questions a cascade's condition reads: one question, or every question of a family's kinds. */
export type CascadeScope = { question: string } | { family: CascadeFamily };
import { call } from '../../transport/transport';

export const evalKeys = {
  all: ['evaluations'] as const,
  datasets: ['evaluations', 'datasets'] as const,
  items: (id: string, offset: number, search: string) => ['evaluations', 'datasets', id, 'items', offset, search] as const,
  runs: ['evaluations', 'runs'] as const,
  run: (id: string) => ['evaluations', 'runs', id] as const,
  report: (id: string, done: number) => ['evaluations', 'runs', id, 'report', done] as const,
  results: (id: string, filter: string, page: number, done: number, question: string | null) =>
    ['evaluations', 'runs', id, 'results', filter, page, done, question] as const,
  item: (id: string, position: number) => ['evaluations', 'runs', id, 'item', position] as const,
};

/** Saved cascade presets: the Cascade panel saves them (and invalidates this key), the run form offers them as variants. */
export const cascadePresetsQuery = () => queryOptions({ queryKey: ['cascadePresets'] as const, queryFn: () => call('cascadePresets.list', {}) });

/** How each dataset suits a set's questions (labelled items, images or not, the set's last run there); under the datasets' key, so it is read again when they change. */
export const datasetFitQuery = (questions: DecisionsRequest['questions']) =>
  queryOptions({ queryKey: [...evalKeys.datasets, 'fit', questions] as const, queryFn: () => call('datasets.fit', { questions }) });

export const datasetsQuery = () => queryOptions({ queryKey: evalKeys.datasets, queryFn: () => call('datasets.list', {}) });
/** Read again while a run runs, and while a paused run's requests in flight are still being answered and counted. */
const moving = (run: EvalRun) => run.status === 'running' || run.in_flight > 0;

export const evalRunsQuery = () =>
  queryOptions({
    queryKey: evalKeys.runs,
    queryFn: ({ signal }) => call('evals.list', {}, { signal }),
    refetchInterval: (q) => (q.state.data?.some(moving) ? 1_000 : false),
  });

export const datasetItemsQuery = (id: string, offset: number, search: string) =>
  queryOptions({
    queryKey: evalKeys.items(id, offset, search),
    queryFn: ({ signal }) => call('datasets.items', { dataset_id: id, offset, limit: 100, ...(search ? { search } : {}) }, { signal }),
  });

export const evalRunQuery = (id: string) =>
  queryOptions({
    queryKey: evalKeys.run(id),
    queryFn: ({ signal }) => call('evals.get', { id }, { signal }),
    // Poll while it runs, for progress, and while a paused run's last requests are still answered.
    refetchInterval: (q) => (q.state.data && moving(q.state.data) ? 500 : false),
  });

/**
 * After runs were deleted (one, or a dataset's): they leave the list and their queries are
 * forgotten at once, before the screen draws again, so nothing asks the core for a run it no longer has.
 * What was still being read of the runs is called off first: a list read before the deletion would
 * bring a deleted run back on screen, and a run's page read then would be answered 404.
 */
export async function forgetRuns(client: QueryClient, ids: readonly string[]): Promise<void> {
  await client.cancelQueries({ queryKey: evalKeys.runs });
  client.setQueryData<EvalRun[]>(evalKeys.runs, (list) => list?.filter((r) => !ids.includes(r.id)));
  for (const id of ids) {
    client.removeQueries({ queryKey: evalKeys.run(id) });
  }
}

/**
 * While a run's query is fetched again (more answers done), its last data stays on screen; another
 * run's never does (its figures would be shown as this run's).
 */
export const sameRunPlaceholder =
  (id: string) =>
  <T>(previous: T | undefined, previousQuery: { queryKey: readonly unknown[] } | undefined): T | undefined =>
    previousQuery?.queryKey[2] === id ? previous : undefined;

/** Keyed by the number of results, so it is fetched again as results arrive (at most every poll). */
export const reportQuery = (id: string, done: number) =>
  queryOptions({
    queryKey: evalKeys.report(id, done),
    queryFn: ({ signal }) => call('evals.report', { id }, { signal }),
    placeholderData: sameRunPlaceholder(id),
  });

export const RESULTS_PAGE = 200;
export type ResultFilter = 'all' | 'wrong' | 'disagree' | 'low';
/** "Low confidence" is below this, sent with the filter so the button's label says what is asked. */
export const LOW_CONFIDENCE = 0.7;

/** A page of the matrix; with a question, the filters judge that question alone. */
export const resultsPageQuery = (id: string, filter: ResultFilter, page: number, done: number, question: string | null = null) =>
  queryOptions({
    queryKey: evalKeys.results(id, filter, page, done, question),
    queryFn: ({ signal }) =>
      call(
        'evals.results',
        {
          id,
          filter,
          offset: page * RESULTS_PAGE,
          limit: RESULTS_PAGE,
          ...(filter === 'low' ? { below: LOW_CONFIDENCE } : {}),
          ...(question ? { question } : {}),
        },
        { signal },
      ),
    // Keep showing the rows while new results arrive, not when the filter changes: other rows would be clicked.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[4] === filter && previousQuery.queryKey[5] === page && previousQuery.queryKey[7] === question ? previous : undefined,
  });

export const evalItemQuery = (id: string, position: number) =>
  queryOptions({ queryKey: evalKeys.item(id, position), queryFn: ({ signal }) => call('evals.item', { id, position }, { signal }) });

/** What a run of the New run form sends: the set's saved request, the dataset and the variants. */
export type RunInput = Pick<OperationInput<'evals.start'>, 'request' | 'dataset_id' | 'variants'>;

/**
 * The New run form's estimate, with the dataset it was made for and which variants are cascades;
 * null when the form changed while it was asked (`inputsSeen` moved), so it is not shown after the change.
 */
export function useEstimateRun(options: {
  input: () => Promise<RunInput>;
  concurrency: number;
  inputsSeen: RefObject<number>;
  onEstimated: (estimated: { dataset: string; estimate: EvalEstimate; cascade: boolean[] }) => void;
}) {
  const { input, concurrency, inputsSeen, onEstimated } = options;
  return useMutation({
    mutationFn: async () => {
      const seen = inputsSeen.current;
      const asking = await input();
      // As many in flight as the run will send: how fast requests go decides how long a fault moves traffic for.
      const fresh = await call('evals.estimate', { ...asking, concurrency });
      return seen === inputsSeen.current ? { dataset: asking.dataset_id, estimate: fresh, cascade: asking.variants.map((v) => v.cascade !== undefined) } : null;
    },
    onSuccess: (fresh) => {
      if (fresh) onEstimated(fresh);
    },
  });
}

/** Starts a run of the New run form, compared with `baseline` when one is given. */
export function useStartRun(options: {
  input: () => Promise<RunInput>;
  concurrency: number;
  budget: string;
  runName: string;
  baseline: EvalRun | undefined;
  onStarted: (id: string) => void;
}) {
  const { input, concurrency, budget, runName, baseline, onStarted } = options;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const run = await call('evals.start', {
        ...(await input()),
        concurrency,
        ...(budget ? { budget_usd: Number(budget) } : {}),
        ...(runName.trim() ? { name: runName.trim() } : {}),
      });
      return baseline ? call('evals.setBaseline', { id: run.id, baseline_id: baseline.id }) : run;
    },
    onSuccess: (run) => {
      void queryClient.invalidateQueries({ queryKey: evalKeys.runs });
      // The set has now run on this dataset: the form's default for it moves here.
      void queryClient.invalidateQueries({ queryKey: [...evalKeys.datasets, 'fit'] });
      onStarted(run.id);
    },
  });
}

/** Whether a query key (ending in how many answers were done) asks for the same curve as `asked`. */
const sameCurve = (key: readonly unknown[], asked: readonly unknown[]) => JSON.stringify(key.slice(0, -1)) === JSON.stringify(asked);

/** A cascade's curve between two of a run's variants, the condition reading one question or a family of them. */
export const cascadeCurveQuery = ({ run, first, second, scope, done }: { run: string; first: number; second: number; scope: CascadeScope; done: number }) => {
  const asked = [...evalKeys.run(run), 'cascade', first, second, scope];
  return queryOptions({
    queryKey: [...asked, done],
    queryFn: ({ signal }) => call('evals.cascadeCurve', { id: run, first_variant: first, second_variant: second, ...scope }, { signal }),
    enabled: first !== second,
    // Keep showing the curve while more answers arrive, not when the models or the condition change:
    // the old curve's points (and the condition a pick would save) belong to another question.
    placeholderData: (previous, previousQuery) => (previousQuery && sameCurve(previousQuery.queryKey, asked) ? previous : undefined),
  });
};
