import { RULE_DEFAULTS, type FieldProblems, type RuleDraft, type SetDraft } from './capture-form';
import { NumberField } from './NumberField';

/** The three limits: the draft's field, the schema's field its problems are named by, bounds, and words. */
const LIMITS = [
  {
    id: 'capture-sample',
    label: 'Sample rate (%)',
    draft: 'samplePercent',
    field: 'sample_rate',
    min: 0,
    max: 100,
    shown: RULE_DEFAULTS.sample_rate * 100,
    help: `Share of matching requests taken; ${RULE_DEFAULTS.sample_rate * 100}% when empty.`,
  },
  {
    id: 'capture-cap',
    label: 'Daily cap',
    draft: 'dailyCap',
    field: 'daily_cap',
    min: 1,
    max: 1_000_000,
    shown: RULE_DEFAULTS.daily_cap,
    help: `Most items a UTC day; ${RULE_DEFAULTS.daily_cap.toLocaleString('en-US')} when empty.`,
  },
  {
    id: 'capture-retention',
    label: 'Retention (days)',
    draft: 'retentionDays',
    field: 'retention_days',
    min: 1,
    max: 3650,
    shown: RULE_DEFAULTS.retention_days,
    help: `Items older are deleted; ${RULE_DEFAULTS.retention_days} days when empty.`,
  },
] as const;

/** How much a rule takes and keeps: a share of what matches, at most so many a day, for so many days; each empty field the schema's default. */
export function LimitFields({ draft, set, problems }: { draft: RuleDraft; set: SetDraft; problems: FieldProblems }) {
  return (
    <>
      {LIMITS.map((l) => (
        <NumberField
          key={l.id}
          id={l.id}
          label={l.label}
          value={draft[l.draft]}
          onChange={(v) => set(l.draft, v)}
          min={l.min}
          max={l.max}
          placeholder={`${l.shown}`}
          help={l.help}
          problem={problems[l.field]}
        />
      ))}
    </>
  );
}
