import { memo, useLayoutEffect, useRef, type RefObject } from 'react';
import type { EvalResultRow } from '../../../../shared/schemas/evaluation';
import { answerText, expectedText } from '../../lib/answer-text';

/** What a cell's numbers are, said on hover: a yes/no answer's P(yes), a box's edges in order. */
function cellTitle(answer: unknown): string {
  const a = answer as { type?: string; noul?: number } | undefined;
  if (a?.type === 'noul') return `P(yes) = ${(a.noul ?? 0).toFixed(3)} · `;
  if (a?.type === 'box') return 'IoU against the expected box; edges t top, l left, b bottom, r right, as fractions of the image · ';
  return '';
}

const mark = (v: boolean | null | undefined) => (v === true ? '✓' : v === false ? '✗' : '');

/**
 * What a cell says: the answer and its mark (no mark when the item has no expected answer for the
 * question), "failed", or "not sent" for an item the run never sent to that model (cancelled or
 * stopped by its budget), which is not the same as an unlabelled one. Empty until its page arrives.
 */
export function cellText(
  row: EvalResultRow | undefined,
  cell: EvalResultRow['cells'][number] | undefined,
  question: string,
  correct: boolean | null | undefined,
): string {
  if (!row) return '';
  if (!cell) return 'not sent';
  if (!cell.ok) return 'failed';
  return `${answerText(cell.answers[question], row.expected[question])} ${mark(correct)}`.trimEnd();
}

/** Focus fell to the page, or rests on another row of the same list (an element now showing another row). */
function focusLeftRow(own: HTMLElement): boolean {
  const at = document.activeElement;
  if (at === null || at === document.body) return true;
  const atRow = at.closest('[data-row]');
  return atRow !== null && atRow !== own && atRow.parentElement === own.parentElement;
}

/** The column the item's button is in: where the keyboard lands in a row. */
export const ITEM_COLUMN = 1;

/**
 * One row of the results grid; memoised, so rows that stay in view are not rendered again while
 * scrolling. Every cell can take focus (`data-col` says which column it is), and the one holding
 * the grid's Tab stop (`focusCol`, on one row only) has tabIndex 0: the grid is one Tab stop.
 */
export const MatrixRow = memo(function MatrixRow({
  index,
  row,
  top,
  models,
  questions,
  focusCol,
  gridHoldsFocus,
  onOpen,
}: {
  index: number;
  row: EvalResultRow | undefined;
  top: number;
  models: readonly string[];
  questions: readonly string[];
  focusCol: number | null;
  gridHoldsFocus: RefObject<boolean>;
  onOpen: (position: number) => void;
}) {
  const tab = (col: number) => (focusCol === col ? 0 : -1);
  const element = useRef<HTMLDivElement>(null);
  // The row holding the grid's stop, drawn again by another element while it had focus (scrolled
  // away from the view or back into it: a new element, or a recycled one that showed another row):
  // it takes focus back where the old element left it. Focus was then either dropped to the page (its
  // element removed) or left on the recycled element, which now shows another row. Without this, the
  // scroll that a Ctrl+End's focus causes loses the stop once the list catches up with it, and so does
  // a key pressed before the list has caught up with the move before it.
  useLayoutEffect(() => {
    const own = element.current;
    if (focusCol === null || !own || !gridHoldsFocus.current || !focusLeftRow(own)) return;
    own.querySelector<HTMLElement>(`[data-col="${focusCol}"]`)?.focus({ preventScroll: true });
  }, [index, focusCol, gridHoldsFocus]);
  return (
    <div ref={element} className="matrix-row" role="row" aria-rowindex={index + 2} data-row={index} style={{ top }}>
      <span role="gridcell" className="muted" data-col={0} tabIndex={tab(0)}>
        {row ? row.position + 1 : ''}
      </span>
      <span role="rowheader">
        {/* Always a button (marked unavailable until its page arrives, never disabled, so focus can rest on it): a recycled row keeps its elements. The item is told by its text, its id beside it. */}
        <button
          type="button"
          className="link-button matrix-item"
          aria-disabled={row ? undefined : true}
          data-col={ITEM_COLUMN}
          tabIndex={tab(ITEM_COLUMN)}
          onClick={() => row && onOpen(row.position)}
          title={row ? `${row.id}: ${row.text}` : undefined}
        >
          {row ? (
            <>
              <span className="mono small">{row.id}</span> <span className="matrix-item-text">{row.text}</span>
            </>
          ) : (
            '…'
          )}
        </button>
      </span>
      {models.flatMap((m, mi) => {
        const cell = row?.cells.find((c) => c.variant === m);
        return questions.map((q, qi) => {
          const correct = cell?.correct[q];
          const col = 2 + mi * questions.length + qi;
          return (
            <span
              key={`${m}-${q}`}
              role="gridcell"
              data-col={col}
              tabIndex={tab(col)}
              className={correct === false ? 'cell-wrong' : correct === true ? 'cell-right' : row && !cell ? 'muted' : undefined}
              title={
                row ? (cell && !cell.ok && cell.error ? cell.error : `${cellTitle(cell?.answers[q])}expected: ${expectedText(row.expected[q])}`) : undefined
              }
            >
              {cellText(row, cell, q, correct)}
            </span>
          );
        });
      })}
    </div>
  );
});
