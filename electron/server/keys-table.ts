import type { ApiKeyInfo } from '../../shared/schemas/inspector';

const HEADERS = ['ID', 'KIND', 'STATE', 'SPENT', 'RATE LIMIT', 'NAME'] as const;

/** `keys list` as a table with a header, each column as wide as its widest cell. */
export function formatKeyTable(keys: ApiKeyInfo[]): string {
  const rows = keys.map((key) => [
    key.id,
    key.kind,
    key.revoked_at ? `revoked ${key.revoked_at}` : 'active',
    `$${key.spent}${key.credit_limit !== null ? ` of $${key.credit_limit}` : ''}`,
    key.rate_limit_rpm !== null ? `${key.rate_limit_rpm}/min` : 'none',
    key.name,
  ]);
  const table = [[...HEADERS], ...rows];
  const widths = HEADERS.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  return table.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n') + '\n';
}
