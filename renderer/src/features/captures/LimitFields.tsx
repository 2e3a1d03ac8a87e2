import { RULE_DEFAULTS, type FieldProblems, type RuleDraft, type SetDraft } from './capture-form';
import { NumberField } from './NumberField';

/** How much a rule takes and keeps: a share of what matches, at most so many a day, for so many days; each empty field the schema's default. */
export function LimitFields({ draft, set, problems }: { draft: RuleDraft; set: SetDraft; problems: FieldProblems }) {
  return (
    <>
      <NumberField
        id="capture-sample"
        label="Sample rate (%)"
        value={draft.samplePercent}
        onChange={(v) => set('samplePercent', v)}
        min={0}
        max={100}
        placeholder={`${RULE_DEFAULTS.sample_rate * 100}`}
        help={`Share of matching requests taken; ${RULE_DEFAULTS.sample_rate * 100}% when empty.`}
        problem={problems.sample_rate}
      />
      <NumberField
        id="capture-cap"
        label="Daily cap"
        value={draft.dailyCap}
        onChange={(v) => set('dailyCap', v)}
        min={1}
        max={1_000_000}
        placeholder={`${RULE_DEFAULTS.daily_cap}`}
        help={`Most items a UTC day; ${RULE_DEFAULTS.daily_cap.toLocaleString('en-US')} when empty.`}
        problem={problems.daily_cap}
      />
      <NumberField
        id="capture-retention"
        label="Retention (days)"
        value={draft.retentionDays}
        onChange={(v) => set('retentionDays', v)}
        min={1}
        max={3650}
        placeholder={`${RULE_DEFAULTS.retention_days}`}
        help={`Items older are deleted; ${RULE_DEFAULTS.retention_days} days when empty.`}
        problem={problems.retention_days}
      />
    </>
  );
}
