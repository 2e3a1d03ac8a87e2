import { useQuery } from '@tanstack/react-query';
import { ColumnHeads } from '../../ui/ColumnHeads';
import type { HumanQueue as Queue } from '../../../../shared/schemas/review';
import { ErrorNotice } from '../../ui/components';
import { integer, UNKNOWN } from '../../ui/format';
import { humanQueueQuery } from './api';

/** An age in seconds as people say it: "40 s", "12 min", "3.5 h". */
export function ageText(seconds: number | null): string {
  if (seconds === null) return UNKNOWN;
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

type Figures = Omit<Queue, 'by_preset'>;

function Row({ name, f }: { name: string; f: Figures }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{integer(f.pending)}</td>
      <td>{f.pending === 0 ? 'none waits' : ageText(f.oldest_pending_seconds)}</td>
      <td>{integer(f.reviewed_last_hour)}</td>
    </tr>
  );
}

/** What a cascade's human stage has sent to people: waiting, the oldest's age and answered in the last hour, in all and per preset. */
export function HumanQueue() {
  const queue = useQuery(humanQueueQuery());
  if (queue.error) return <ErrorNotice error={queue.error} title="The queue's figures could not be read" />;
  if (!queue.data) return null;
  return (
    <table className="table human-queue" aria-label="Human review queue by preset">
      <ColumnHeads names={['Sent by', 'Waiting', 'Oldest waiting', 'Answered in the last hour']} />
      <tbody>
        {queue.data.by_preset.map((p) => (
          <Row key={p.preset} name={`preset “${p.preset}”`} f={p} />
        ))}
        <Row name="In all" f={queue.data} />
      </tbody>
    </table>
  );
}
