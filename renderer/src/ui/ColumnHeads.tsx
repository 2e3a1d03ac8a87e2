import type { ReactNode } from 'react';

interface Props {
  names: readonly string[];
  /** names of the columns of figures, aligned right (`num`) */
  numeric?: readonly string[];
  /** names read out to assistive technology but not shown (a column of buttons, say) */
  unseen?: readonly string[];
  scoped?: boolean;
  children?: ReactNode;
}

/**
 * A table's head row: a column header per name, in order, then any further cells (headers built
 * from data). `scoped: false` keeps the headers of the tables that never named their scope.
 */
export function ColumnHeads({ names, numeric = [], unseen = [], scoped = true, children }: Props) {
  return (
    <thead>
      <tr>
        {names.map((name, i) => (
          <th key={i} scope={scoped ? 'col' : undefined} className={numeric.includes(name) ? 'num' : undefined}>
            {unseen.includes(name) ? <span className="visually-hidden">{name}</span> : name}
          </th>
        ))}
        {children}
      </tr>
    </thead>
  );
}
