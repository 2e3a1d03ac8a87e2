import { expectedLine } from '../../lib/answer-text';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { DatasetItem, DatasetSummary } from '../../../../shared/schemas/evaluation';
import { call } from '../../transport/transport';
import { ErrorNotice } from '../../ui/components';
import { setsQuery } from '../question-sets';
import { datasetItemsQuery, evalKeys } from './api';
import { VirtualRows } from './VirtualRows';
import { SetSelect } from './SetSelect';

const PAGE = 100;
const ROW = 30;

const stateText = (state: unknown) =>
  typeof state === 'string' ? state : Array.isArray(state) && JSON.stringify(state).includes('data:image/') ? '[image]' : JSON.stringify(state);

function ExpectedEditor({ dataset, item, onDone }: { dataset: DatasetSummary; item: DatasetItem; onDone: () => void }) {
  const queryClient = useQueryClient();
  const sets = useQuery(setsQuery());
  const [text, setText] = useState(JSON.stringify(item.expected));
  const [setId, setSetId] = useState(sets.data?.[0]?.id ?? '');
  const save = useMutation({
    mutationFn: async () => {
      const expected = JSON.parse(text) as DatasetItem['expected'];
      const set = await call('sets.get', { id: setId || sets.data![0]!.id });
      return call('datasets.updateExpected', { dataset_id: dataset.id, position: item.position, expected, questions: set.request.questions });
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: evalKeys.datasets });
      onDone();
    },
  });
  return (
    <form
      className="inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <input className="mono" value={text} onChange={(e) => setText(e.target.value)} aria-label={`Expected answers of ${item.id}`} />
      <SetSelect sets={sets.data} value={setId} onChange={setSetId} label="Check against question set" />
      <button type="submit">Save</button>
      <button type="button" className="secondary" onClick={onDone}>
        Cancel
      </button>
      {save.error ? <ErrorNotice error={save.error} title="Not saved" /> : null}
    </form>
  );
}

/** The items of a dataset, virtualised and fetched a page at a time; expected answers editable in place. */
export function DatasetBrowser({ dataset }: { dataset: DatasetSummary }) {
  const [search, setSearch] = useState('');
  const [range, setRange] = useState({ first: 0, last: 40 });
  const [editing, setEditing] = useState<number | null>(null);
  const onRange = useCallback((first: number, last: number) => setRange({ first, last }), []);
  const firstPage = useQuery(datasetItemsQuery(dataset.id, 0, search));
  const total = firstPage.data?.total ?? 0;
  const pages = [...new Set([Math.floor(range.first / PAGE), Math.floor(Math.max(range.first, range.last - 1) / PAGE)])];
  const loaded = useQueries({ queries: pages.map((p) => datasetItemsQuery(dataset.id, p * PAGE, search)) });
  const at = (index: number): DatasetItem | undefined => {
    const page = Math.floor(index / PAGE);
    const data = page === 0 ? firstPage.data : loaded[pages.indexOf(page)]?.data;
    return data?.items[index - page * PAGE];
  };
  return (
    <div className="dataset-browser">
      <div className="toolbar">
        <input type="search" placeholder="Filter by id or content" value={search} onChange={(e) => setSearch(e.target.value)} aria-label="Filter items" />
        <span className="muted small">{total.toLocaleString('en-US')} items</span>
      </div>
      <div role="table" aria-label={`Items of ${dataset.name}`} aria-rowcount={total + 1}>
        <div role="rowgroup">
          <div className="matrix-head" role="row" aria-rowindex={1}>
            <span role="columnheader">#</span>
            <span role="columnheader">id</span>
            <span role="columnheader">state</span>
            <span role="columnheader">expected</span>
          </div>
        </div>
        <VirtualRows
          label="Rows"
          count={total}
          rowHeight={ROW}
          height={Math.min(360, Math.max(ROW * 3, total * ROW))}
          onRange={onRange}
          renderRow={(index) => {
            const item = at(index);
            return (
              <div key={index} className="matrix-row" role="row" aria-rowindex={index + 2}>
                <span role="cell" className="muted">
                  {index + 1}
                </span>
                <span role="cell" className="mono">
                  {item?.id ?? '…'}
                </span>
                {/* While edited, the editor takes the state's place too: the row grows, its cells stay in their tracks. */}
                {item && editing === item.position ? null : (
                  <span role="cell" className="truncate">
                    {item ? stateText(item.state) : ''}
                  </span>
                )}
                {item && editing === item.position ? (
                  <span role="cell" className="expected-editor">
                    <ExpectedEditor dataset={dataset} item={item} onDone={() => setEditing(null)} />
                  </span>
                ) : (
                  <span role="cell" className="expected-cell">
                    {/* In words; the editor takes JSON (every kind of answer, boxes included). */}
                    <span className="small truncate" title={item ? expectedLine(item.expected as Record<string, unknown>) : undefined}>
                      {item ? expectedLine(item.expected as Record<string, unknown>) : ''}
                    </span>
                    {item ? (
                      <button type="button" className="link-button small" onClick={() => setEditing(item.position)}>
                        edit
                      </button>
                    ) : null}
                  </span>
                )}
              </div>
            );
          }}
        />
      </div>
    </div>
  );
}
