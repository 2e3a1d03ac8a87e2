import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ErrorNotice } from '../../ui/components';
import { setsQuery } from '../question-sets';
import { KeyChoice } from './KeyChoice';
import { LimitFields } from './LimitFields';
import { described, RuleFieldNote } from './RuleFieldNote';
import { useCaptureRuleForm } from './use-capture-rule-form';

const CONDITION_EXAMPLE = 'e.g. {"question": "urgent", "probabilityBetween": [0.3, 0.7]}';

/** A new rule: what it matches (each part optional), how much it takes and how long it keeps it. */
export function CaptureRuleForm() {
  const form = useRef<HTMLFormElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  const { draft, set, submit, problems, error, pending } = useCaptureRuleForm(() => nameField.current?.focus());
  const sets = useQuery(setsQuery());
  // A refusal takes focus to the first field it names, where its problem is read with the field.
  useEffect(() => {
    if (error) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [error]);
  return (
    <form ref={form} className="capture-form" onSubmit={submit} aria-labelledby="capture-form-title" noValidate>
      <h3 id="capture-form-title" className="small-heading">
        New capture rule
      </h3>
      <div className="pref-form">
        <div className="pref-field">
          <label htmlFor="capture-name">Rule name</label>
          <input
            ref={nameField}
            id="capture-name"
            value={draft.name}
            maxLength={100}
            onChange={(e) => set('name', e.target.value)}
            placeholder="e.g. unsure urgent tickets"
            {...described('capture-name', problems.name)}
          />
          <RuleFieldNote id="capture-name" help="Its items go to a new dataset, “Captured: <this name>”." problem={problems.name} />
        </div>
        <div className="pref-field">
          <label htmlFor="capture-models">Models</label>
          <input
            id="capture-models"
            value={draft.models}
            onChange={(e) => set('models', e.target.value)}
            placeholder="any model"
            spellCheck={false}
            {...described('capture-models', problems.models)}
          />
          <RuleFieldNote id="capture-models" help="Optional; model ids, comma separated." problem={problems.models} />
        </div>
        <div className="pref-field">
          <label htmlFor="capture-set">Question set</label>
          <select
            id="capture-set"
            value={draft.questionSetId}
            onChange={(e) => set('questionSetId', e.target.value)}
            {...described('capture-set', problems.question_set_id)}
          >
            <option value="">any questions</option>
            {(sets.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          <RuleFieldNote id="capture-set" help="Optional; requests asking exactly this set's questions." problem={problems.question_set_id} />
        </div>
        <div className="pref-field capture-wide">
          <label htmlFor="capture-when">Condition (JSON)</label>
          <textarea
            id="capture-when"
            rows={2}
            value={draft.when}
            onChange={(e) => set('when', e.target.value)}
            placeholder={CONDITION_EXAMPLE}
            spellCheck={false}
            {...described('capture-when', problems.when)}
          />
          <RuleFieldNote
            id="capture-when"
            help="Optional; on the answers, in the cascade grammar: confidenceBelow, probabilityBetween, any, all, atLeast."
            problem={problems.when}
          />
        </div>
        <LimitFields draft={draft} set={set} problems={problems} />
        <KeyChoice value={draft.keyIds} onChange={(ids) => set('keyIds', ids)} problem={problems.key_ids} />
        <div className="pref-field">
          <span className="pref-label">Images</span>
          <label className="inline-check">
            <input type="checkbox" checked={draft.keepImages} onChange={(e) => set('keepImages', e.target.checked)} /> Keep images
          </label>
          <span className="field-help">Else each image is replaced by a marker.</span>
        </div>
      </div>
      <div className="toolbar">
        <button type="submit" disabled={!draft.name.trim() || pending}>
          {pending ? 'Making rule…' : 'Make rule'}
        </button>
      </div>
      {error ? <ErrorNotice error={error} title="Rule not made" /> : null}
    </form>
  );
}
