import { useState } from 'react';
import { ErrorNotice, Panel } from '../../ui/components';
import { announce } from '../../ui/announcer';
import { useExportBackup, useImportBackup } from './api';

/** Export and import everything but secrets: settings, catalog, question sets, datasets with their box verdicts, box reviews. */
export function BackupPanel() {
  const [problem, setProblem] = useState<string | null>(null);
  const exportAll = useExportBackup();
  const importAll = useImportBackup({
    started: () => setProblem(null),
    imported: (done) =>
      announce(
        `Imported ${done.question_sets} question sets, ${done.datasets} datasets, ${done.box_items} images and ${done.catalog_endpoints} catalog endpoints.`,
      ),
    failed: setProblem,
  });
  return (
    <Panel title="Export and import">
      <p className="muted">
        Settings, your catalog, question sets, datasets (with their images' sizes and box verdicts) and box reviews in one JSON file. Evaluation runs and keys
        are not in it: add keys again after importing.
      </p>
      <div className="inline-form">
        <button type="button" className="secondary" onClick={() => exportAll.mutate()} disabled={exportAll.isPending}>
          Export everything
        </button>
        <label className="file-button secondary">
          Import a backup…
          <input type="file" accept="application/json,.json" onChange={(e) => e.target.files?.[0] && importAll.mutate(e.target.files[0])} />
        </label>
        {importAll.data ? (
          <span className="small">
            Imported {importAll.data.question_sets} question sets, {importAll.data.datasets} datasets, {importAll.data.box_items} images and{' '}
            {importAll.data.catalog_endpoints} catalog endpoints.
          </span>
        ) : null}
      </div>
      {problem ? <ErrorNotice error={new Error(problem)} title="Nothing was imported" /> : null}
      {exportAll.error ? <ErrorNotice error={exportAll.error} title="Export failed" /> : null}
    </Panel>
  );
}
