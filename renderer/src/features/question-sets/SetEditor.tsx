import type { ValidationProblem } from '../../../../shared/contract/result';
import { problemsAt } from './draft';
import { PreferencesPanel } from './PreferencesPanel';
import { QuestionsPanel } from './QuestionsPanel';
import { SetPanel, type DraftEditing } from './SetPanel';

interface Props extends DraftEditing {
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
