import { useQuery } from '@tanstack/react-query';
import type { CaptureMonitor } from '../../../../shared/schemas/capture';
import { screenLink } from '../../lib/hash-params';
import { integer } from '../../ui/format';
import { datasetsQuery } from '../evaluations';
import type { Subject } from './use-monitor-subject';

/**
 * The ways back into the loop: review what waits (the rule's dataset with the most open items), and
 * evaluate the set across models on what people reviewed (the dataset with the most labelled items),
 * whose cascade curve then says which threshold to adopt.
 */
export function LoopActions({ subject, data }: { subject: Subject; data: CaptureMonitor }) {
  const datasets = useQuery(datasetsQuery());
  const ofRules = (datasets.data ?? []).filter((d) => subject.rules.some((r) => r.dataset_id === d.id));
  const labelled = (d: (typeof ofRules)[number]) => Math.max(0, ...Object.values(d.labelled));
  const mostOpen = [...ofRules].sort((a, b) => b.items - labelled(b) - (a.items - labelled(a)))[0];
  const mostLabelled = [...ofRules].sort((a, b) => labelled(b) - labelled(a))[0];
  const reviewed = mostLabelled ? labelled(mostLabelled) : 0;
  return (
    <div className="toolbar monitor-loop">
      {mostOpen && data.waiting_review > 0 ? (
        <a className="button-link" href={screenLink('review', { dataset: mostOpen.id })}>
          Review the waiting items ({integer(mostOpen.items - labelled(mostOpen))} in “{mostOpen.name}”)
        </a>
      ) : null}
      {mostLabelled && reviewed > 0 && subject.setId ? (
        <a className="button-link" href={screenLink('evaluations', { new: true, dataset: mostLabelled.id, set: subject.setId })}>
          Evaluate the set on the {integer(reviewed)} reviewed items
        </a>
      ) : (
        <span className="muted small">
          {subject.setId
            ? 'Once people review captured items, evaluate the set on them across models here, and adopt a cascade threshold from its curve.'
            : 'This rule names no saved question set: evaluate its reviewed dataset from Evaluations with the set its requests ask.'}
        </span>
      )}
    </div>
  );
}
