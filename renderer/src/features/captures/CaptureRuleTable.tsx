import type { CaptureRule } from '../../../../shared/schemas/capture';
import { ColumnHeads } from '../../ui/ColumnHeads';
import { describeCondition } from '../../../../shared/cascade/describe';
import { counted } from '../../lib/plural';
import { integer } from '../../ui/format';
import { ScrollArea } from '../../ui/ScrollArea';

/** What a rule picks, in words: keys and the question set by name (their ids when gone), models, and the condition. */
function Matches({ rule, keyNames, setNames }: { rule: CaptureRule; keyNames: ReadonlyMap<string, string>; setNames: ReadonlyMap<string, string> }) {
  const parts: [string, string][] = [];
  if (rule.key_ids) parts.push(['Keys', rule.key_ids.map((id) => keyNames.get(id) ?? id).join(', ')]);
  if (rule.question_set_id) parts.push(['Question set', setNames.get(rule.question_set_id) ?? `${rule.question_set_id} (deleted)`]);
  if (rule.models) parts.push(['Models', rule.models.join(', ')]);
  if (rule.when) parts.push(['When', describeCondition(rule.when)]);
  if (parts.length === 0) return <span className="muted">every Decisions request</span>;
  return (
    <ul className="plain-list capture-matches">
      {parts.map(([what, value]) => (
        <li key={what}>
          <span className="muted">{what}:</span> {value}
        </li>
      ))}
    </ul>
  );
}

/** A rate as a percentage with no needless decimals: 100%, 25%, 0.5%. */
const rate = (r: number) => `${Number((r * 100).toFixed(2))}%`;

interface TableProps {
  rules: readonly CaptureRule[];
  keyNames: ReadonlyMap<string, string>;
  setNames: ReadonlyMap<string, string>;
  removing: boolean;
  onRemove: (rule: CaptureRule) => void;
}

/** The rules, each with what it matches, how much it takes, what it holds and where it puts it. */
export function CaptureRuleTable({ rules, keyNames, setNames, removing, onRemove }: TableProps) {
  return (
    <ScrollArea label="Capture rules, scrolls">
      <table className="table capture-rules" aria-label="Capture rules">
        <ColumnHeads names={['Rule', 'Matches', 'Sampled', 'Today', 'Kept for', 'Images', 'Items held', 'Dataset', 'Actions']} unseen={['Actions']} />
        <tbody>
          {rules.map((r) => (
            <tr key={r.id}>
              <th scope="row">{r.name}</th>
              <td className="small">
                <Matches rule={r} keyNames={keyNames} setNames={setNames} />
              </td>
              <td className="small nowrap">{rate(r.sample_rate)}</td>
              <td className="small nowrap" data-testid="captured-today">
                {integer(r.captured_today)} of {integer(r.daily_cap)} today
              </td>
              <td className="small nowrap">{counted(r.retention_days, 'day')}</td>
              <td className="small nowrap">{r.keep_images ? 'kept' : <span className="muted">not kept</span>}</td>
              <td className="small nowrap">{integer(r.captured_total)}</td>
              <td className="small">{r.dataset_name}</td>
              <td>
                <button type="button" className="secondary" disabled={removing} onClick={() => onRemove(r)} aria-label={`Remove ${r.name}`}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}
