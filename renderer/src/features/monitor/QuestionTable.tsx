import { probability, UNKNOWN } from '../../ui/format';
import { ColumnHeads } from '../../ui/ColumnHeads';
import { ScrollArea } from '../../ui/ScrollArea';
import { accuracyText, driftText, sharesText, type MonitoredQuestion } from './monitor-text';

function QuestionRow({ q }: { q: MonitoredQuestion }) {
  return (
    <tr>
      <th scope="row">{q.question}</th>
      <td className="small">{sharesText(q)}</td>
      <td className="small">{sharesText(q.reference)}</td>
      <td className="small nowrap">{q.mean_confidence === null ? UNKNOWN : `${q.kind === 'noul' ? 'P(yes) ' : ''}${probability(q.mean_confidence)}`}</td>
      <td className="small">
        {driftText(q)} {q.alert ? <span className="badge badge-warn">drift</span> : q.drift === null ? null : <span className="badge badge-ok">steady</span>}
      </td>
      <td className="small">{accuracyText(q.accuracy)}</td>
    </tr>
  );
}

/** Each question's answers now and in the reference, mean confidence (for yes/no the mean P(yes)), drift against its threshold, and live accuracy. */
export function QuestionTable({ questions }: { questions: readonly MonitoredQuestion[] }) {
  return (
    <ScrollArea label="Live answers by question, scrolls">
      <table className="table" aria-label="Live answers by question">
        <ColumnHeads names={['Question', 'Answers now', 'Reference', 'Mean confidence', 'Drift', 'Live accuracy']} />
        <tbody>
          {questions.map((q) => (
            <QuestionRow key={q.question} q={q} />
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}
