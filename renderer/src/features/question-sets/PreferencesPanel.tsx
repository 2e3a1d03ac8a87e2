import type { ValidationProblem } from '../../../../shared/contract/result';
import { PreferencesForm } from './PreferencesForm';
import { FieldProblems } from './QuestionEditor';

const PREFERENCE_HELP =
  'The same as JSON (the form and the text follow each other). For example {"sort": "price", "zdr": true}. Fields: order, allow_fallbacks, only, ignore, sort ("price" | "latency" | "throughput" | "exacto", or {by, partition}), max_price {prompt, completion, request, image, audio as "USD" strings}, quantizations, zdr, data_collection ("allow" | "deny"), require_parameters, enforce_distillable_text, preferred_max_latency / preferred_min_throughput (a number for p50, or {p50, p75, p90, p99}), options {provider slug: {...}}.';

/** What the preferences set, in a few words, or that none are. */
function preferencesSummary(json: string): string {
  try {
    const keys = Object.keys((JSON.parse(json || '{}') as object) ?? {});
    return keys.length === 0 ? '(optional) · none set: every endpoint of the model may answer' : `· set: ${keys.join(', ')}`;
  } catch {
    return '· the JSON below has a problem';
  }
}

/** The set's provider preferences as a form and as JSON: twenty controls most sets never need, folded, saying what is set. */
export function PreferencesPanel({ json, onChange, problems }: { json: string; onChange: (json: string) => void; problems: ValidationProblem[] }) {
  return (
    <details className="panel preferences-panel" open={json.trim() !== '' && json.trim() !== '{}' ? true : undefined}>
      <summary>
        <strong>Provider preferences</strong> <span className="muted small">{preferencesSummary(json)}</span>
      </summary>
      <PreferencesForm json={json} onChange={onChange} />
      <p className="muted small">{PREFERENCE_HELP}</p>
      <label htmlFor="set-preferences" className="visually-hidden">
        Provider preferences JSON
      </label>
      <textarea id="set-preferences" rows={3} value={json} placeholder='{"sort": "price"}' onChange={(e) => onChange(e.target.value)} />
      <FieldProblems problems={problems} />
    </details>
  );
}
