import type { ReactNode } from 'react';

/**
 * A table's head row: a column header per name, in order, then any further cells (headers built
 * from data). `scoped: false` keeps the headers of the tables that never named their scope.
 */
export function ColumnHeads({ names, scoped = true, children }: { names: readonly string[]; scoped?: boolean; children?: ReactNode }) {
  return (
    <thead>
      <tr>
        {names.map((name, i) => (
          <th key={i} scope={scoped ? 'col' : undefined}>
            {name}
          </th>
        ))}
        {children}
      </tr>
    </thead>
  );
}
