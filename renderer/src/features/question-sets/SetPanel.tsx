import { useQuery } from '@tanstack/react-query';
import type { ValidationProblem } from '../../../../shared/contract/result';
import type { CascadePreset } from '../../../../shared/schemas/cascade-preset';
import type { ModelSummary } from '../../../../shared/schemas/inspector';
import { describeCascade } from '../../../../shared/cascade/describe';
import { modelKind } from '../../lib/answering';
import { Panel } from '../../ui/components';
import { listingQuery } from '../endpoints';
import type { SetDraft } from './draft';
import { FieldProblems } from './QuestionEditor';
import { StateEditor } from './StateEditor';
import { MODEL_FIELD_ID } from './use-set-draft';
import { counted } from '../../lib/plural';

/** The endpoints serving the picked model, so the choice is made knowing prices and policies. */
function ModelEndpoints({ model, known }: { model: string; known: boolean }) {
  const listing = useQuery({ ...listingQuery(model, false), enabled: known });
  if (!known) return model ? <p className="muted small">Not in the catalog: the request will be refused unless a remote gateway knows it.</p> : null;
  if (!listing.data) return null;
  return (
    <p className="small muted endpoint-line">
      {/* Facts, not controls: a plain line, with where to compare them. */}
      <span className="visually-hidden">Endpoints: </span>
      <span role="list" aria-label={`Endpoints of ${model}`}>
        {listing.data.endpoints.map((e, i) => (
          <span role="listitem" key={e.tag}>
            {i > 0 ? ' · ' : ''}
            {e.provider_name} {e.pricing.prompt === '-1' ? 'price unknown' : `$${(Number(e.pricing.prompt) * 1e6).toFixed(2)}/M in`}
          </span>
        ))}
      </span>{' '}
      · <a href="#/endpoints">compare in Endpoints</a>
    </p>
  );
}

/** The draft being edited, and what its fields offer: the models and the cascade presets (undefined while they load). */
export interface DraftEditing {
  draft: SetDraft;
  onChange: (patch: Partial<SetDraft>) => void;
  models: ModelSummary[] | undefined;
  presets: CascadePreset[] | undefined;
}

interface Props extends DraftEditing {
  /** The problems shown under the model and under the content. */
  modelProblems: ValidationProblem[];
  stateProblems: ValidationProblem[];
}

/** The set's name, model (with the endpoints serving it), cascade preset and content. */
export function SetPanel({ draft, onChange, models, presets, modelProblems, stateProblems }: Props) {
  return (
    <Panel title="Set">
      <div className="two-cols">
        <div>
          <label htmlFor="set-name">Name</label>
          <input id="set-name" value={draft.name} onChange={(e) => onChange({ name: e.target.value })} />
        </div>
        <div>
          <label htmlFor={MODEL_FIELD_ID}>Model</label>
          <input id={MODEL_FIELD_ID} list="model-options" value={draft.model} onChange={(e) => onChange({ model: e.target.value })} placeholder="author/slug" />
          <datalist id="model-options">
            {(models ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.name} · {counted(m.endpoint_count, 'endpoint')} · {modelKind(m)}
              </option>
            ))}
          </datalist>
          <FieldProblems problems={modelProblems} />
          <ModelEndpoints model={draft.model} known={(models ?? []).some((m) => m.id === draft.model)} />
        </div>
      </div>
      {/* Offered once a preset exists (saved from a run's Cascade panel), or while the set names one: on a first start it offered only "none". */}
      {(presets ?? []).length > 0 || draft.cascade ? (
        <div>
          <label htmlFor="set-cascade">Cascade preset</label>
          <select id="set-cascade" style={{ maxWidth: '100%' }} value={draft.cascade ?? ''} onChange={(e) => onChange({ cascade: e.target.value })}>
            <option value="">none: the model alone answers</option>
            {(presets ?? []).map((p) => (
              <option key={p.name} value={p.name}>
                {p.name}: {describeCascade(p.first_model ?? draft.model, p.model, p.when)}
              </option>
            ))}
            {/* A preset deleted since the set was saved stays named, so the run's refusal is understood. */}
            {draft.cascade && presets && !presets.some((p) => p.name === draft.cascade) ? (
              <option value={draft.cascade}>{draft.cascade}: deleted; runs are refused until another is chosen</option>
            ) : null}
          </select>
          <p className="muted small">Run here, the set asks its model first and the preset&apos;s model when the condition holds.</p>
        </div>
      ) : null}
      <StateEditor draft={draft} onChange={onChange} />
      <FieldProblems problems={stateProblems} />
    </Panel>
  );
}
