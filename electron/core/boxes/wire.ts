/** Boxes, wired: box items and the review over datasets of images, which reads a run's answers from the evaluations' read side. */
import type { Clock } from '../clock';
import type { Datasets } from '../datasets/datasets';
import type { EvalResults } from '../evaluations/results/eval-results';
import type { Storage } from '../store/ports';
import { BoxItems } from './box-items';
import { BoxReview } from './box-review';

export function wireBoxes(deps: { storage: Pick<Storage, 'boxes'>; clock: Clock; datasets: Datasets; results: EvalResults }): {
  boxItems: BoxItems;
  boxReview: BoxReview;
} {
  const { storage, clock } = deps;
  return { boxItems: new BoxItems(storage.boxes, clock), boxReview: new BoxReview(storage.boxes, clock, deps.datasets, deps.results) };
}
