import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { CAPTURE_HEADER, type CaptureRule } from '../../../../shared/schemas/capture';
import { counted } from '../../lib/plural';
import { announce } from '../../ui/announcer';
import { EmptyState, ErrorNotice, Loading, Panel } from '../../ui/components';
import { setsQuery } from '../question-sets';
import { apiKeysQuery } from '../settings';
import { capturesQuery, useRemoveCaptureRule } from './api';
import { CaptureRuleForm } from './CaptureRuleForm';
import { CaptureRuleTable } from './CaptureRuleTable';
import './captures.css';

/** The question asked before a rule goes: it stops now, and what it took stays. */
const removeQuestion = (r: CaptureRule) =>
  `Remove the capture rule “${r.name}”? It stops capturing now. The ${counted(r.captured_total, 'item')} it captured stay in the dataset “${r.dataset_name}”.`;

/** Capture rules: which live Decisions requests become dataset items, and a way to make and remove them. */
export function CapturesPanel() {
  const rules = useQuery(capturesQuery());
  const keys = useQuery(apiKeysQuery());
  const sets = useQuery(setsQuery());
  const keyNames = useMemo(() => new Map((keys.data ?? []).map((k) => [k.id, k.name])), [keys.data]);
  const setNames = useMemo(() => new Map((sets.data ?? []).map((s) => [s.id, s.name])), [sets.data]);
  const remove = useRemoveCaptureRule(({ name }) => announce(`Removed the capture rule “${name}”; what it captured stays in its dataset.`));
  const onRemove = (r: CaptureRule) => {
    if (window.confirm(removeQuestion(r))) remove.mutate(r.id);
  };
  return (
    <Panel title="Capture rules">
      <p className="muted">
        Off by default: nothing is captured until a rule is made. A rule turns the live Decisions requests it matches into items of its dataset (listed in{' '}
        <a href="#/evaluations">Evaluations</a>); a request sent with the header <code>{CAPTURE_HEADER}: off</code> is never captured. Captured answers are kept
        as predictions, not labels: label the items before evaluating on them.
      </p>
      <CaptureRuleForm />
      {rules.isPending ? <Loading what="capture rules" /> : null}
      {rules.error ? <ErrorNotice error={rules.error} title="Capture rules could not be loaded" /> : null}
      {remove.error ? <ErrorNotice error={remove.error} title="Rule not removed" /> : null}
      {rules.data && rules.data.length === 0 ? <EmptyState title="No capture rules">Make one above to collect live requests as a dataset.</EmptyState> : null}
      {rules.data && rules.data.length > 0 ? (
        <>
          <CaptureRuleTable rules={rules.data} keyNames={keyNames} setNames={setNames} removing={remove.isPending} onRemove={onRemove} />
          <p className="muted small">
            What the rules capture, its drift against a reference window and its live accuracy once reviewed: the <a href="#/monitor">Monitor</a> screen
            (Alt+6).
          </p>
        </>
      ) : null}
    </Panel>
  );
}
