import type { BOX_REVIEW_OPERATIONS } from '../../../shared/contract/box-review-operations';
import type { ValidRow } from '../datasets/dataset-rows';
import { expectedWithTruth } from '../boxes/box-review-rows';
import { actorOf, type Handlers } from './index';
import type { AuditLog } from '../audit/audit-log';
import type { BoxItems } from '../boxes/box-items';
import type { BoxReview } from '../boxes/box-review';
import type { Datasets } from '../datasets/datasets';
import type { EvalRunBook } from '../evaluations/runs/run-book';
import { auditedCreate } from '../audit/audited';

type BoxReviewOps = Pick<Handlers, keyof typeof BOX_REVIEW_OPERATIONS>;

/** Box review over datasets (see BoxReview). */
/** What box review's operations use: the review, box items, datasets, the runs reviewed and the audit log. */
export interface BoxReviewDeps {
  readonly audit: AuditLog;
  readonly boxItems: BoxItems;
  readonly boxReview: BoxReview;
  readonly datasets: Datasets;
  readonly evalRuns: EvalRunBook;
}

export function boxReviewHandlers(core: BoxReviewDeps): BoxReviewOps {
  return {
    'boxReview.datasets': async () => core.boxReview.imageDatasets(),
    'boxReview.items': async ({ dataset_id, run_id, variant }) => core.boxReview.items(dataset_id, { run_id, variant }),
    'boxReview.image': async ({ dataset_id, position }) => core.boxReview.image(dataset_id, position),
    'boxReview.update': async (input) => core.boxReview.update(input),
    'boxReview.addImages': async (input, context) => {
      const actor = actorOf(context, 'boxReview.addImages');
      const dataset = await core.boxReview.addImages(input);
      if (input.dataset_id === undefined) return auditedCreate(core.audit, actor, dataset, `${input.images.length} images`);
      await core.audit.record(actor, 'dataset.update', { kind: 'dataset', id: dataset.id, name: dataset.name }, { added_images: input.images.length });
      return dataset;
    },
    'boxReview.runImage': async ({ dataset_id, position, run_id, variants }) => {
      await core.boxReview.checkRun(dataset_id, run_id, position);
      return core.evalRuns.rerun(run_id, [position], variants);
    },
    'boxReview.fromLegacy': async ({ name, question }, context) => {
      const actor = actorOf(context, 'boxReview.fromLegacy');
      const seen = new Set<string>();
      const legacy = await core.boxItems.list();
      const named = legacy.map((b) => {
        let id = b.name;
        for (let n = 2; seen.has(id); n += 1) id = `${b.name} (${n})`;
        seen.add(id);
        return { id, item: b };
      });
      const rows = named.map(({ id, item }): ValidRow => ({
        id,
        state: [{ type: 'image_url', image_url: { url: item.data_url } }],
        expected: expectedWithTruth({}, item.truth, question),
      }));
      const dataset = await core.datasets.create(name, rows);
      await core.boxReview.keepVerdicts(
        dataset.id,
        named.map(({ id, item }) => ({
          item_id: id,
          verdict: item.verdict,
          note: item.note,
          model: item.verdict_model,
          answers: Object.keys(item.answers).length > 0 ? item.answers : item.answer ? { [question]: item.answer } : {},
        })),
      );
      return auditedCreate(core.audit, actor, dataset, 'the earlier box review');
    },
  };
}
