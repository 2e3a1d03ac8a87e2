import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { DatasetSummary, ImportReport } from '../../../../shared/schemas/evaluation';
import { call, uploadDataset } from '../../transport/transport';
import { download, fileName } from '../../lib/download';
import { EmptyState, ErrorNotice, Panel } from '../../ui/components';
import { setQuery, setsQuery } from '../question-sets';
import { datasetsQuery, evalKeys, forgetRuns } from './api';
import { DatasetBrowser } from './DatasetBrowser';
import { importHeadline } from './import-headline';
import { announce } from '../../ui/announcer';
import { QuestionSetSelect } from './QuestionSetSelect';
import { templateCsv } from './dataset-template';
import { SaveAsDataset } from './SaveAsDataset';
import { once } from '../../lib/send-once';
import { readDataUrl } from '../../lib/read-file';
import { ColumnHeads } from '../../ui/ColumnHeads';

/** The core's limit on a dataset's name. */
const NAME_LIMIT = 200;

/** What a dataset's delete takes with it, for the question asked before it: its runs, by name. */
function deleteQuestion(d: DatasetSummary, runs: readonly { name: string }[]): string {
  const what = `Delete the dataset “${d.name}” (${d.items.toLocaleString('en-US')} items)?`;
  if (runs.length === 0) return `${what} No evaluation run used it.`;
  const shown = runs.slice(0, 10).map((r) => `“${r.name}”`);
  const more = runs.length > shown.length ? ` and ${(runs.length - shown.length).toLocaleString('en-US')} more` : '';
  return `${what} ${runs.length === 1 ? 'The 1 evaluation run made on it goes' : `The ${runs.length.toLocaleString('en-US')} evaluation runs made on it go`} with it, answers and metrics included: ${shown.join(', ')}${more}.`;
}

const formatOf = (name: string): 'csv' | 'jsonl' | 'json' | null =>
  /\.csv$/i.test(name) ? 'csv' : /\.(jsonl|ndjson)$/i.test(name) ? 'jsonl' : /\.json$/i.test(name) ? 'json' : null;

function ImportForm({ onImported }: { onImported: (d: DatasetSummary) => void }) {
  const queryClient = useQueryClient();
  const sets = useQuery(setsQuery());
  const [setId, setSetId] = useState('');
  const [name, setName] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [labels, setLabels] = useState<File | null>(null);
  const [validOnly, setValidOnly] = useState(false);
  const [report, setReport] = useState<ImportReport | null>(null);
  const images = files.length > 0 && files.every((f) => f.type.startsWith('image/'));
  const importing = useMutation({
    mutationFn: async ({ takeSuggestions }: { takeSuggestions: boolean }) => {
      const set = await call('sets.get', { id: setId || sets.data![0]!.id });
      const questions = set.request.questions;
      const datasetName = name.trim() || files[0]!.name.slice(0, NAME_LIMIT);
      if (images) {
        const list = await Promise.all(files.map(async (f) => ({ name: f.name, data_url: await readDataUrl(f) })));
        const labelFormat = labels ? formatOf(labels.name) : null;
        return call('datasets.importImages', {
          name: datasetName,
          images: list,
          questions,
          valid_only: validOnly,
          take_suggestions: takeSuggestions,
          ...(labels && (labelFormat === 'csv' || labelFormat === 'jsonl') ? { labels: { format: labelFormat, content: await labels.text() } } : {}),
        });
      }
      const format = formatOf(files[0]!.name);
      if (!format) throw new Error(`${files[0]!.name}: choose a .csv, .jsonl or .json file`);
      // Streamed: a file of any size, never read into the page.
      return uploadDataset({ name: datasetName, file: files[0]!.name, format, questions, valid_only: validOnly, take_suggestions: takeSuggestions }, files[0]!);
    },
    // The list is read again before the import is reported and the new dataset picked: picked while the
    // list on screen did not hold it yet, the run form fell back to another dataset until the list came.
    onSuccess: async (r) => {
      await queryClient.invalidateQueries({ queryKey: evalKeys.datasets });
      setReport(r);
      announce(`${r.dataset ? `${r.dataset.name}: ` : ''}${importHeadline(r)}.`);
      if (r.dataset) onImported(r.dataset);
    },
  });
  // Set in the click's own event: a double click imports the file once, not as two datasets.
  const held = useRef(false);
  const send = (takeSuggestions: boolean) =>
    once(held, async () => {
      setReport(null);
      await importing.mutateAsync({ takeSuggestions });
    });
  if (sets.data && sets.data.length === 0)
    return <EmptyState title="No question set yet">A dataset is checked against a question set: save one in Question sets first.</EmptyState>;
  return (
    <form
      className="eval-form"
      onSubmit={(e) => {
        e.preventDefault();
        send(false);
      }}
    >
      <QuestionSetSelect value={setId} onChange={setSetId} label="Question set for the dataset" />
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} maxLength={NAME_LIMIT} placeholder="the file's name" />
      </label>
      <label>
        File (CSV, JSONL, JSON array) or images
        <input
          type="file"
          multiple
          accept=".csv,.jsonl,.ndjson,.json,image/*"
          aria-label="Dataset file"
          onChange={(e) => setFiles([...(e.target.files ?? [])])}
        />
      </label>
      {images ? (
        <label>
          Labels (CSV or JSONL by file name, optional)
          <input type="file" accept=".csv,.jsonl" aria-label="Labels file" onChange={(e) => setLabels(e.target.files?.[0] ?? null)} />
        </label>
      ) : null}
      <FormatHelp setId={setId || sets.data?.[0]?.id || ''} />
      <label className="inline-check">
        <input type="checkbox" checked={validOnly} onChange={(e) => setValidOnly(e.target.checked)} /> Import only the valid rows
      </label>
      <button type="submit" disabled={files.length === 0 || importing.isPending || !sets.data}>
        {importing.isPending ? 'Importing…' : 'Import dataset'}
      </button>
      {importing.error ? <ErrorNotice error={importing.error} title="Import failed" /> : null}
      {report ? <ImportResult report={report} onTakeSuggestions={importing.isPending ? null : () => send(true)} /> : null}
    </form>
  );
}

/** The file formats, where the file is chosen (they were only in the README). */
/** How a dataset file is laid out, with a template to fill in for the chosen set. */
function FormatHelp({ setId }: { setId: string }) {
  const set = useQuery({ ...setQuery(setId), enabled: setId !== '' });
  return (
    <details className="format-help">
      <summary className="small">What the file looks like</summary>
      <div className="small">
        {set.data ? (
          <p>
            <button
              type="button"
              className="secondary"
              onClick={() => download(fileName(`${set.data.name} template`, 'csv'), templateCsv(set.data.request.questions), 'text/csv')}
            >
              Download a CSV template for “{set.data.name}”
            </button>
          </p>
        ) : null}
        <p>
          One item per row (CSV) or line (JSONL), or a JSON array. Each has an <span className="mono">id</span>, the <span className="mono">state</span> to
          judge, and an expected answer per question: <span className="mono">expected.&lt;question&gt;</span> columns in CSV, an{' '}
          <span className="mono">expected</span> object in JSON. Yes/no answers are <span className="mono">true</span> or <span className="mono">false</span>, a
          choice the option&apos;s name as the set spells it, a score the level&apos;s number (0 is the first level), a box{' '}
          <span className="mono">{'{top, bottom, left, right}'}</span> as fractions of the image.
        </p>
        <pre className="mono">{`id,state,expected.urgent,expected.category
t1,"Charged twice, refund now",true,billing
t2,How do I export?,false,feature`}</pre>
        <pre className="mono">{`{"id": "t1", "state": "Charged twice, refund now", "expected": {"urgent": true, "category": "billing"}}`}</pre>
      </div>
    </details>
  );
}

/** What an import did and every problem; when some problems carry a suggestion, one action takes them all and imports again. */
function ImportResult({ report, onTakeSuggestions }: { report: ImportReport; onTakeSuggestions: (() => void) | null }) {
  const suggested = report.problems.filter((p) => p.suggestion !== undefined).length;
  const others = report.problems.length - suggested;
  return (
    <div className={`notice ${report.dataset ? (report.problems.length ? 'notice-warn' : 'notice-ok') : 'notice-error'}`} data-testid="import-result">
      <strong>{importHeadline(report)}</strong>
      {suggested > 0 ? (
        <p className="toolbar">
          <button type="button" onClick={onTakeSuggestions ?? undefined} aria-disabled={onTakeSuggestions === null || undefined}>
            Apply {suggested === 1 ? 'the suggestion' : `the ${suggested} suggestions`} and import again
          </button>
          <span className="small">
            Each “did you mean” below is read as suggested; the file itself is not changed.
            {others > 0
              ? ` ${others === 1 ? '1 problem has' : `${others} problems have`} no suggestion and still ${others === 1 ? 'needs' : 'need'} fixing in the file.`
              : ''}
          </span>
        </p>
      ) : null}
      {report.problems.length ? (
        <table className="table small" aria-label="Import problems">
          <ColumnHeads names={['File', 'Row', 'Field', 'Problem']} scoped={false} />
          <tbody>
            {report.problems.map((p, i) => (
              <tr key={i}>
                <td>{p.file}</td>
                <td>{p.row}</td>
                <td className="mono">{p.field}</td>
                <td>{p.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

export function DatasetsPanel({
  selected,
  onSelect,
  onEvaluate,
}: {
  selected: string | null;
  onSelect: (id: string | null) => void;
  onEvaluate: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const datasets = useQuery(datasetsQuery());
  const held = useRef(false);
  const remove = useMutation({
    mutationFn: (d: { dataset: DatasetSummary; runs: string[] }) => call('datasets.delete', { id: d.dataset.id }),
    onSuccess: async (_, { dataset, runs }) => {
      onSelect(null);
      // Its runs went with it: gone from the lists at once, and nothing asks the core for them (or its items) again.
      await forgetRuns(queryClient, runs);
      queryClient.setQueryData<DatasetSummary[]>(evalKeys.datasets, (list) => list?.filter((d) => d.id !== dataset.id));
      await queryClient.cancelQueries({ queryKey: [...evalKeys.datasets, dataset.id] });
      queryClient.removeQueries({ queryKey: [...evalKeys.datasets, dataset.id] });
      void queryClient.invalidateQueries({ queryKey: evalKeys.datasets, exact: true });
      void queryClient.invalidateQueries({ queryKey: evalKeys.runs, exact: true });
    },
  });
  /** Asks first, naming the runs that go with it (read now: the list on screen may be older). */
  const deleteDataset = (d: DatasetSummary) =>
    once(held, async () => {
      const runs = (await call('evals.list', {})).filter((r) => r.dataset_id === d.id);
      if (window.confirm(deleteQuestion(d, runs))) await remove.mutateAsync({ dataset: d, runs: runs.map((r) => r.id) });
    });
  const exportAs = async (d: DatasetSummary, format: 'csv' | 'jsonl') =>
    download(fileName(d.name, format), (await call('datasets.export', { id: d.id, format })).content, format === 'csv' ? 'text/csv' : 'application/x-ndjson');
  const current = datasets.data?.find((d) => d.id === selected) ?? null;
  return (
    <Panel title="Datasets">
      <div className="two-cols">
        <div>
          <ImportForm onImported={(d) => onSelect(d.id)} />
          <SaveAsDataset onSaved={onSelect} />
        </div>
        <div>
          {datasets.error ? <ErrorNotice error={datasets.error} /> : null}
          {datasets.data?.length === 0 ? (
            <EmptyState title="No dataset yet">Import a labelled CSV, JSONL or JSON file, or a folder of images.</EmptyState>
          ) : null}
          <ul className="plain-list dataset-list" aria-label="Datasets">
            {(datasets.data ?? []).map((d) => (
              <li key={d.id}>
                <button type="button" className="link-button" aria-pressed={d.id === selected} onClick={() => onSelect(d.id)}>
                  {d.name}
                </button>{' '}
                {d.sample ? <span className="badge badge-muted">sample</span> : null}{' '}
                <span className="muted small">
                  {d.items.toLocaleString('en-US')} items · labelled:{' '}
                  {Object.entries(d.labelled)
                    .map(([q, n]) => `${q} ${n}`)
                    .join(', ') || 'none'}
                </span>
              </li>
            ))}
          </ul>
          {current ? (
            <div className="toolbar">
              <button type="button" onClick={() => onEvaluate(current.id)}>
                Evaluate on this dataset
              </button>
              <button type="button" className="secondary" onClick={() => void exportAs(current, 'csv')}>
                Export CSV
              </button>
              <button type="button" className="secondary" onClick={() => void exportAs(current, 'jsonl')}>
                Export JSONL
              </button>
              <button type="button" className="secondary" disabled={remove.isPending} onClick={() => deleteDataset(current)}>
                Delete dataset
              </button>
            </div>
          ) : null}
          {remove.error ? <ErrorNotice error={remove.error} title="Not deleted" /> : null}
        </div>
      </div>
      {current ? <DatasetBrowser dataset={current} /> : null}
    </Panel>
  );
}
