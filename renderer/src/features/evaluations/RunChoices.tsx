import { DatasetChoice } from './DatasetChoice';
import { ModelChoice } from './ModelChoice';
import { PresetChoice } from './PresetChoice';
import { QuestionSetSelect } from './QuestionSetSelect';
import type { RunChoices as Choices } from './use-run-choices';

/** The set, the dataset (with what keeps it from judging the set), the models and the cascade presets of a new run. */
export function RunChoices({ choices: c, asked }: { choices: Choices; asked: boolean }) {
  const callable = (c.models.data ?? []).filter((m) => m.callable_endpoints > 0);
  return (
    <>
      <QuestionSetSelect value={c.effectiveSet} onChange={c.setSet} label="Question set to evaluate" />
      <DatasetChoice
        datasets={c.datasets.data ?? []}
        fits={c.fits.data}
        value={c.effectiveDataset}
        onChange={c.setDataset}
        problems={c.problems}
        asked={asked}
      />
      <ModelChoice models={c.models.data ?? []} chosen={c.chosen} onChosen={c.setChosen} />
      {(c.presets.data ?? []).length > 0 ? (
        <PresetChoice
          presets={c.presets.data ?? []}
          chosen={c.chosenPresets}
          onChosen={c.setChosenPresets}
          firstFor={c.firstFor}
          onFirstFor={c.setFirstFor}
          callable={callable}
        />
      ) : null}
    </>
  );
}
