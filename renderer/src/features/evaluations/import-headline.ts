import type { ImportReport } from '../../../../shared/schemas/evaluation';

const rows = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'}`;

/** What an import did, in words: how many items were kept and how many rows were left out. */
export function importHeadline(report: Pick<ImportReport, 'dataset' | 'imported' | 'skipped' | 'taken'>): string {
  if (!report.dataset) return `Nothing imported: ${rows(report.skipped)} with problems`;
  const items = `${report.imported.toLocaleString('en-US')} ${report.imported === 1 ? 'item' : 'items'}`;
  const taken = report.taken ? `, ${report.taken.toLocaleString('en-US')} ${report.taken === 1 ? 'answer' : 'answers'} read as suggested` : '';
  return `Imported ${items}${taken}${report.skipped ? `, skipped ${rows(report.skipped)} with problems` : ''}`;
}
