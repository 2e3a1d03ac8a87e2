import type { ValidationProblem } from '../../../../shared/contract/result';
import type { CascadePreset } from '../../../../shared/schemas/cascade-preset';
import type { ModelSummary } from '../../../../shared/schemas/inspector';
import { problemsAt, type SetDraft } from './draft';
import { PreferencesPanel } from './PreferencesPanel';
import { QuestionsPanel } from './QuestionsPanel';
import { SetPanel } from './SetPanel';

interface Props {
  draft: SetDraft;
  onChange: (patch: Partial<SetDraft>) => void;
  models: ModelSummary[] | undefined;
  presets: CascadePreset[] | undefined;
  /** Every problem of the request the draft builds. */
  problems: ValidationProblem[];
  /** Whether the problems under a field (by its first path segment) are shown yet. */
  shown: (field: string) => boolean;
}

/** The set as edited: its name, model, preset and content; its questions; its provider preferences. */
export function SetEditor({ draft, onChange, models, presets, problems, shown }: Props) {
  return (
    <>
      <SetPanel
        draft={draft}
        onChange={onChange}
        models={models}
        presets={presets}
        modelProblems={shown('model') ? problemsAt(problems, 'model') : []}
        stateProblems={shown('state') ? problemsAt(problems, 'state') : []}
      />
      <QuestionsPanel questions={draft.questions} problems={shown('questions') ? problems : []} onChange={(questions) => onChange({ questions })} />
      <PreferencesPanel
        json={draft.preferences}
        onChange={(preferences) => onChange({ preferences })}
        problems={shown('provider') ? problemsAt(problems, 'provider') : []}
      />
    </>
  );
}
