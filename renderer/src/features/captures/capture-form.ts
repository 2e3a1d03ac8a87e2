import { CaptureRuleInputSchema, type CaptureRuleInput } from '../../../../shared/schemas/capture';
import { OperationError } from '../../transport/transport';

/** The schema's defaults, read from it rather than written again here: shown as each field's placeholder. */
export const RULE_DEFAULTS = CaptureRuleInputSchema.parse({ name: 'defaults' });

/** The form's fields as typed. */
export interface RuleDraft {
  name: string;
  keyIds: readonly string[];
  questionSetId: string;
  /** model ids, comma separated */
  models: string;
  /** a cascade condition as JSON text */
  when: string;
  /** percent as typed; empty for the default */
  samplePercent: string;
  dailyCap: string;
  retentionDays: string;
  keepImages: boolean;
}

/** Sets one field of the draft. */
export type SetDraft = <K extends keyof RuleDraft>(key: K, value: RuleDraft[K]) => void;

export const EMPTY_DRAFT: RuleDraft = {
  name: '',
  keyIds: [],
  questionSetId: '',
  models: '',
  when: '',
  samplePercent: '',
  dailyCap: '',
  retentionDays: '',
  keepImages: RULE_DEFAULTS.keep_images,
};

/** The fields of the input a problem may name, each shown beside its own field. */
export type RuleField = 'name' | 'key_ids' | 'question_set_id' | 'models' | 'when' | 'sample_rate' | 'daily_cap' | 'retention_days';
export type FieldProblems = Partial<Record<RuleField, string>>;

const FIELDS: readonly RuleField[] = ['name', 'key_ids', 'question_set_id', 'models', 'when', 'sample_rate', 'daily_cap', 'retention_days'];

/** A number as typed, left out when empty so that the schema's default applies; the core says what is wrong with the rest. */
const typed = (text: string, scale = 1): number | undefined => (text.trim() === '' ? undefined : Number(text) * scale);

/** The input the draft asks for, or the problem of its condition's JSON (named as the core names the field). */
export function ruleInput(draft: RuleDraft): { input: CaptureRuleInput } | { problems: FieldProblems } {
  let when: unknown;
  if (draft.when.trim() !== '') {
    try {
      when = JSON.parse(draft.when);
    } catch (error) {
      return { problems: { when: `when: not valid JSON (${(error as Error).message})` } };
    }
  }
  const models = draft.models
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  const input = {
    name: draft.name,
    ...(draft.keyIds.length > 0 ? { key_ids: [...draft.keyIds] } : {}),
    ...(draft.questionSetId ? { question_set_id: draft.questionSetId } : {}),
    ...(models.length > 0 ? { models } : {}),
    ...(when !== undefined ? { when } : {}),
    sample_rate: typed(draft.samplePercent, 1 / 100),
    daily_cap: typed(draft.dailyCap),
    retention_days: typed(draft.retentionDays),
    keep_images: draft.keepImages,
  };
  return { input: JSON.parse(JSON.stringify(input)) as CaptureRuleInput };
}

/** The field a problem's path or message starts with ("when.any[0]: …", "key_ids[0]: …"), if it is one of the form's. */
const fieldOf = (text: string): RuleField | undefined => FIELDS.find((f) => text === f || new RegExp(`^${f}(?![a-z_])`).test(text));

/**
 * The server's refusal, split by the field each part names: from the problems it lists (input that
 * failed the schema), else from its message ("capture rule: models[0]: …; when: …", the core's own checks).
 */
export function fieldProblems(error: unknown): FieldProblems {
  if (!(error instanceof Error)) return {};
  const listed = error instanceof OperationError ? error.metadata?.['problems'] : undefined;
  const parts = Array.isArray(listed)
    ? (listed as { path: string; message: string }[]).map((p) => `${p.path}: ${p.message}`)
    : error.message.replace(/^[^:]*?(input for [\w.]+|capture rule): /, '').split('; ');
  const found: FieldProblems = {};
  for (const part of parts) {
    const field = fieldOf(part);
    if (field) found[field] = found[field] ? `${found[field]}; ${part}` : part;
  }
  return found;
}
