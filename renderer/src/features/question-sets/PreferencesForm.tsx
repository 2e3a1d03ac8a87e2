import { QUANTIZATIONS, SORT_KEYS } from '../../../../shared/schemas/provider-preferences';

type Prefs = Record<string, unknown>;

const list = (v: unknown): string => (Array.isArray(v) ? v.join(', ') : '');
const toList = (s: string): string[] | undefined => {
  const items = s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  return items.length > 0 ? items : undefined;
};
const numberOrUndefined = (s: string): number | undefined => (s.trim() === '' || Number.isNaN(Number(s)) ? undefined : Number(s));

const PERCENTILES = ['p50', 'p75', 'p90', 'p99'] as const;

/** The preferred cutoffs, each a number or one per percentile: latency first, then throughput. */
const PREFERRED_CUTOFFS = [
  { name: 'preferred_max_latency', label: 'Preferred max latency (seconds to first token)', step: 0.1 },
  { name: 'preferred_min_throughput', label: 'Preferred min throughput (tokens/s)', step: 1 },
] as const;

/** p50…p99 cutoffs; only p50 set is written as a plain number, as the spec allows. */
function Cutoffs({ label, help, value, step, onChange }: { label: string; help: string; value: unknown; step: number; onChange: (v: unknown) => void }) {
  const current: Record<string, number | undefined> =
    typeof value === 'number' ? { p50: value } : ((value as Record<string, number | undefined> | undefined) ?? {});
  const update = (p: string, raw: string) => {
    const next = { ...current, [p]: numberOrUndefined(raw) };
    const given = PERCENTILES.filter((k) => next[k] !== undefined);
    onChange(given.length === 0 ? undefined : given.length === 1 && given[0] === 'p50' ? next['p50'] : Object.fromEntries(given.map((k) => [k, next[k]])));
  };
  return (
    <div className="pref-field">
      <span className="pref-label">{label}</span>
      <div className="pref-inline">
        {PERCENTILES.map((p) => (
          <input
            key={p}
            aria-label={`${label} ${p}`}
            type="number"
            min={0}
            step={step}
            size={6}
            placeholder={p}
            value={current[p] ?? ''}
            onChange={(e) => update(p, e.target.value)}
          />
        ))}
      </div>
      <Help>{help}</Help>
    </div>
  );
}

function Help({ children }: { children: string }) {
  return <span className="field-help">{children}</span>;
}

/** The preferences the JSON text holds, or null when it does not parse to an object. */
function readPrefs(json: string): Prefs | null {
  try {
    const prefs = json.trim() ? (JSON.parse(json) as Prefs) : {};
    return !prefs || typeof prefs !== 'object' || Array.isArray(prefs) ? null : prefs;
  } catch {
    return null;
  }
}

/** The JSON text with `key` set to `value`, or without it when the value is empty; '' when nothing is left. */
function withPref(prefs: Prefs, key: string, value: unknown): string {
  const next = { ...prefs };
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) delete next[key];
  else next[key] = value;
  return Object.keys(next).length > 0 ? JSON.stringify(next, null, 2) : '';
}

interface FieldProps {
  prefs: Prefs;
  set: (key: string, value: unknown) => void;
}

/** A yes / no / default field. */
function TriField({ prefs, set, name, label, help }: FieldProps & { name: string; label: string; help: string }) {
  return (
    <div className="pref-field">
      <label htmlFor={`pref-${name}`}>{label}</label>
      <select
        id={`pref-${name}`}
        value={prefs[name] === true ? 'true' : prefs[name] === false ? 'false' : ''}
        onChange={(e) => set(name, e.target.value === '' ? undefined : e.target.value === 'true')}
      >
        <option value="">default</option>
        <option value="true">yes</option>
        <option value="false">no</option>
      </select>
      <Help>{help}</Help>
    </div>
  );
}

/** A list of provider slugs, comma-separated. */
function SlugsField({ prefs, set, name, label, help }: FieldProps & { name: string; label: string; help: string }) {
  return (
    <div className="pref-field">
      <label htmlFor={`pref-${name}`}>{label}</label>
      <input id={`pref-${name}`} value={list(prefs[name])} placeholder="slugs, comma-separated" onChange={(e) => set(name, toList(e.target.value))} />
      <Help>{help}</Help>
    </div>
  );
}

function SortField({ prefs, set }: FieldProps) {
  const sort = prefs['sort'];
  const sortBy = typeof sort === 'string' ? sort : ((sort as { by?: string } | undefined)?.by ?? '');
  const partition = typeof sort === 'object' && sort ? ((sort as { partition?: string }).partition ?? 'model') : 'model';
  return (
    <div className="pref-field">
      <label htmlFor="pref-sort">Sort by</label>
      <select
        id="pref-sort"
        value={sortBy}
        onChange={(e) => set('sort', e.target.value === '' ? undefined : partition === 'none' ? { by: e.target.value, partition } : e.target.value)}
      >
        <option value="">none (load balance by price)</option>
        {SORT_KEYS.map((k) => (
          <option key={k}>{k}</option>
        ))}
      </select>
      <label className="inline-check small">
        <input
          type="checkbox"
          disabled={!sortBy}
          checked={partition === 'none'}
          onChange={(e) => set('sort', e.target.checked ? { by: sortBy, partition: 'none' } : sortBy)}
        />{' '}
        across models
      </label>
      <Help>Sorted order, no load balancing. exacto: measured success rate first.</Help>
    </div>
  );
}

function MaxPriceField({ prefs, set }: FieldProps) {
  const maxPrice = (prefs['max_price'] as Record<string, string> | undefined) ?? {};
  return (
    <div className="pref-field">
      <span className="pref-label">Max price (USD)</span>
      <div className="pref-inline">
        {(['prompt', 'completion', 'request', 'image', 'audio'] as const).map((k) => (
          <input
            key={k}
            aria-label={`Max ${k} price`}
            placeholder={k === 'prompt' || k === 'completion' ? `${k} /M` : k}
            value={maxPrice[k] ?? ''}
            size={8}
            onChange={(e) => {
              const next = { ...maxPrice, [k]: e.target.value.trim() };
              if (!next[k]) delete next[k];
              set('max_price', Object.keys(next).length > 0 ? next : undefined);
            }}
          />
        ))}
      </div>
      <Help>Prompt and completion per million tokens; endpoints above any limit are never used.</Help>
    </div>
  );
}

function QuantizationsField({ prefs, set }: FieldProps) {
  const quantizations = (prefs['quantizations'] as string[] | undefined) ?? [];
  return (
    <div className="pref-field">
      <span className="pref-label">Quantizations</span>
      <div className="pref-inline">
        {QUANTIZATIONS.map((q) => (
          <label key={q} className="inline-check small">
            <input
              type="checkbox"
              checked={quantizations.includes(q)}
              onChange={(e) => set('quantizations', e.target.checked ? [...quantizations, q] : quantizations.filter((x) => x !== q))}
            />
            {q}
          </label>
        ))}
      </div>
      <Help>Only endpoints serving one of these.</Help>
    </div>
  );
}

function DataCollectionField({ prefs, set }: FieldProps) {
  return (
    <div className="pref-field">
      <label htmlFor="pref-data_collection">Data collection</label>
      <select
        id="pref-data_collection"
        value={(prefs['data_collection'] as string | undefined) ?? ''}
        onChange={(e) => set('data_collection', e.target.value || undefined)}
      >
        <option value="">default (allow)</option>
        <option value="allow">allow</option>
        <option value="deny">deny</option>
      </select>
      <Help>deny: only providers known not to collect data.</Help>
    </div>
  );
}

/**
 * Every field of provider preferences (spec 2.5) as a form, kept in step with the JSON text
 * beside it: the form writes the JSON, and JSON typed by hand shows in the form.
 */
export function PreferencesForm({ json, onChange }: { json: string; onChange: (json: string) => void }) {
  const prefs = readPrefs(json);
  if (!prefs) return <p className="muted small">The JSON below does not parse; fix it there, or clear it, to use the form.</p>;
  const set = (key: string, value: unknown) => onChange(withPref(prefs, key, value));
  const p = { prefs, set };
  return (
    <div className="pref-form">
      <SlugsField {...p} name="order" label="Order" help="Try these providers first, in this order." />
      <TriField {...p} name="allow_fallbacks" label="Allow fallbacks" help="No: only the ordered providers (or the first endpoint); its error is returned." />
      <SlugsField {...p} name="only" label="Only" help="Use only these providers (merged with the account-wide list)." />
      <SlugsField {...p} name="ignore" label="Ignore" help="Never use these providers." />
      <SortField {...p} />
      <MaxPriceField {...p} />
      <QuantizationsField {...p} />
      <TriField {...p} name="zdr" label="Zero data retention" help="Yes: only endpoints known to keep no prompts." />
      <DataCollectionField {...p} />
      <TriField {...p} name="require_parameters" label="Require parameters" help="Yes: only endpoints supporting every parameter the request needs." />
      <TriField {...p} name="enforce_distillable_text" label="Distillable text only" help="Yes: only models whose author allows distillation." />
      {PREFERRED_CUTOFFS.map(({ name, label, step }) => (
        <Cutoffs
          key={name}
          label={label}
          help="Endpoints slower at any given percentile are tried later, not excluded."
          value={prefs[name]}
          step={step}
          onChange={(v) => set(name, v)}
        />
      ))}
      <p className="field-help">Per-provider options (provider.options) are set in the JSON below.</p>
    </div>
  );
}
