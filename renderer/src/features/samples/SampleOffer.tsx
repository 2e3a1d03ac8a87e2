import { useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { clickOnce, once } from '../../lib/send-once';
import { announce } from '../../ui/announcer';
import { ErrorNotice } from '../../ui/components';
import { setsQuery } from '../question-sets';
import { datasetsQuery } from '../evaluations';
import { useAddSamples, useRemoveSamples } from './api';

type OnAdded = (added: { set: string; dataset: string }) => void;

/** The sets and datasets (whether samples are there) and the adding of the samples, announced, then handed to `onAdded`. */
function useSampleAdding(onAdded: OnAdded | undefined) {
  const sets = useQuery(setsQuery());
  const datasets = useQuery(datasetsQuery());
  const held = useRef(false);
  const add = useAddSamples((added) => {
    announce(`Added the sample question set “${added.set.name}” and the dataset “${added.dataset.name}”.`);
    onAdded?.({ set: added.set.id, dataset: added.dataset.id });
  });
  return { sets, datasets, held, add };
}

/**
 * Offered while there is no question set and no dataset (a first start): a support-triage question
 * set with forty labelled tickets to rehearse on, marked as samples and removed with one click.
 */
export function SampleOffer({ onAdded }: { onAdded?: OnAdded }) {
  const { sets, datasets, held, add } = useSampleAdding(onAdded);
  if (!sets.data || !datasets.data || sets.data.length > 0 || datasets.data.length > 0) return null;
  return (
    <div className="notice sample-offer" role="region" aria-label="Samples to try">
      <strong>New here? Try it on a sample.</strong>
      <span>
        A support-triage question set (is a ticket urgent, what is it about, how upset is the customer) and 40 labelled tickets to run it on. Both are marked
        <span className="badge badge-muted">sample</span> and can be removed at any time.
      </span>
      <button type="button" disabled={add.isPending} onClick={clickOnce(held, () => add.mutateAsync())}>
        Add the sample set and dataset
      </button>
      {add.error ? <ErrorNotice error={add.error} title="Samples not added" /> : null}
    </div>
  );
}

/** Removes the samples (and runs made on the sample dataset), after asking. */
export function RemoveSamples() {
  const sets = useQuery(setsQuery());
  const datasets = useQuery(datasetsQuery());
  const held = useRef(false);
  const remove = useRemoveSamples();
  const has = (sets.data ?? []).some((s) => s.sample) || (datasets.data ?? []).some((d) => d.sample);
  if (!has) return null;
  return (
    <button
      type="button"
      className="secondary"
      disabled={remove.isPending}
      onClick={() =>
        once(held, async () => {
          if (window.confirm('Remove the sample question set and the sample dataset, with the evaluation runs made on it?')) await remove.mutateAsync();
        })
      }
    >
      Remove the samples
    </button>
  );
}

/**
 * Adds the samples later, once the first-start offer is gone (a set or a dataset of one's own
 * exists): shown while the sample set or the sample dataset is missing.
 */
export function AddSamples({ onAdded }: { onAdded?: OnAdded }) {
  const { sets, datasets, held, add } = useSampleAdding(onAdded);
  if (!sets.data || !datasets.data) return null;
  const first = sets.data.length === 0 && datasets.data.length === 0;
  const complete = sets.data.some((s) => s.sample) && datasets.data.some((d) => d.sample);
  // On a first start the offer says it all.
  if (first || complete) return null;
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={add.isPending}
        title="A support-triage question set and 40 labelled tickets to rehearse on, marked as samples"
        onClick={clickOnce(held, () => add.mutateAsync())}
      >
        Add the samples
      </button>
      {add.error ? <ErrorNotice error={add.error} title="Samples not added" /> : null}
    </>
  );
}
