import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { EvalRun } from '../../../../shared/schemas/evaluation';
import { useStored } from '../../lib/use-stored';
import { modelsQuery } from '../endpoints';
import { setQuery, setsQuery } from '../question-sets';
import { cascadePresetsQuery, datasetFitQuery, datasetsQuery, evalRunsQuery } from './api';
import { defaultDataset, pairingProblems, setContent } from './dataset-choice';
import { presetVariant } from './run-variants';

/**
 * What the New run form runs: the set, the dataset (and how it suits the set), the models and
 * cascade presets ticked, and the baseline. `changed` hears every choice the estimate depends on.
 */
export function useRunChoices({
  datasetId,
  initialSet,
  again,
  changed,
}: {
  datasetId: string | null;
  initialSet: string | null;
  again: EvalRun | null;
  changed: () => void;
}) {
  const sets = useQuery(setsQuery());
  const datasets = useQuery(datasetsQuery());
  const models = useQuery(modelsQuery());
  const runs = useQuery(evalRunsQuery());
  const [setId, setSetId] = useState(initialSet ?? '');
  const effectiveSet = setId || sets.data?.[0]?.id || '';
  const set = useQuery({ ...setQuery(effectiveSet), enabled: effectiveSet !== '' });
  const fits = useQuery({ ...datasetFitQuery(set.data?.request.questions ?? {}), enabled: set.data !== undefined });
  const [dataset, setDataset] = useState('');
  // The models ticked, kept across screens and reloads like the other forms' choices.
  const [chosen, setChosen] = useStored<string[]>('verdict.evaluations.models', []);
  // The run this one is compared with once it starts; none unless one is chosen or it runs one again.
  const [baseline, setBaseline] = useState('');
  // Once per run asked to run again: its dataset, its plain models, and itself as the baseline.
  useEffect(() => {
    if (!again) return;
    setDataset(again.dataset_id);
    setChosen([...new Set(again.variants.filter((v) => !v.cascade && v.label === null).map((v) => v.model))]);
    setBaseline(again.id);
    changed();
  }, [again?.id]);
  const presets = useQuery(cascadePresetsQuery());
  // Presets ticked, by name, and the first model chosen for each preset that names none.
  const [chosenPresets, setChosenPresets] = useState<string[]>([]);
  const [firstFor, setFirstFor] = useState<Record<string, string>>({});
  // Ticked presets still saved (one may have been deleted since), each as its variant.
  const cascades = (presets.data ?? []).flatMap((p) => {
    const variant = chosenPresets.includes(p.name) ? presetVariant(p, firstFor[p.name]) : null;
    return variant ? [variant] : [];
  });
  // A dataset chosen here while it exists (it may have been deleted since), else one picked in the Datasets panel, else the one the set last ran on.
  const exists = (id: string) => id !== '' && (datasets.data ?? []).some((d) => d.id === id);
  // Kept models no longer listed (a provider's key removed since) are not sent.
  const ticked = models.data ? chosen.filter((id) => models.data.some((m) => m.id === id)) : chosen;
  const effectiveDataset = (exists(dataset) ? dataset : defaultDataset(datasets.data ?? [], fits.data, datasetId)) ?? '';
  const fit = fits.data?.find((f) => f.dataset_id === effectiveDataset);
  const chosenDataset = datasets.data?.find((d) => d.id === effectiveDataset);
  const problems =
    set.data && fit && chosenDataset
      ? pairingProblems({
          set: { name: set.data.name, questions: Object.keys(set.data.request.questions), content: setContent(set.data.request) },
          dataset: chosenDataset,
          fit,
        })
      : [];
  const baselineRun = (runs.data ?? []).find((r) => r.id === baseline && r.dataset_id === effectiveDataset);
  // Each choice the estimate depends on, said as changed.
  const changing =
    <T>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      changed();
    };
  return {
    sets,
    datasets,
    models,
    runs,
    fits,
    presets,
    effectiveSet,
    effectiveDataset,
    chosen,
    chosenPresets,
    firstFor,
    cascades,
    ticked,
    problems,
    baselineRun,
    pairing: `${effectiveSet} ${effectiveDataset}`,
    setSet: changing(setSetId),
    setDataset: changing(setDataset),
    setChosen: changing(setChosen),
    setChosenPresets: changing(setChosenPresets),
    setFirstFor: changing(setFirstFor),
    setBaseline,
  };
}

export type RunChoices = ReturnType<typeof useRunChoices>;
