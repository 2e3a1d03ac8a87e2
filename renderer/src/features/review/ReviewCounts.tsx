import type { ReviewCounts as Counts } from '../../../../shared/schemas/review';

/** How the dataset stands: items open, reviewed, and of those flagged. */
export function ReviewCounts({ counts }: { counts: Counts | null }) {
  if (!counts) return null;
  return (
    <dl className="review-counts" data-testid="review-counts">
      <div>
        <dt>Open</dt>
        <dd>{counts.open.toLocaleString()}</dd>
      </div>
      <div>
        <dt>Reviewed</dt>
        <dd>{counts.reviewed.toLocaleString()}</dd>
      </div>
      <div>
        <dt>Flagged</dt>
        <dd>{counts.flagged.toLocaleString()}</dd>
      </div>
    </dl>
  );
}
