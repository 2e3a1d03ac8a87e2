import type { AuditActor } from '../../../shared/schemas/audit';
import type { DatasetSummary, ImportReport } from '../../../shared/schemas/evaluation';
import type { AuditLog } from './audit-log';

/** Logs a finished dataset import under `actor` (one that stored nothing changed nothing) and answers its report. */
export async function auditedImport(audit: AuditLog, actor: AuditActor, report: ImportReport, source: { file?: string | undefined }): Promise<ImportReport> {
  if (report.dataset) {
    await audit.record(
      actor,
      'dataset.import',
      { kind: 'dataset', id: report.dataset.id, name: report.dataset.name },
      { items: report.imported, skipped: report.skipped, ...(source.file ? { file: source.file } : {}) },
    );
  }
  return report;
}

/** Logs a dataset made from what Verdict already holds (runs, earlier box reviews) and answers it. */
export async function auditedCreate(audit: AuditLog, actor: AuditActor, dataset: DatasetSummary, from: string): Promise<DatasetSummary> {
  await audit.record(actor, 'dataset.create', { kind: 'dataset', id: dataset.id, name: dataset.name }, { items: dataset.items, from });
  return dataset;
}
