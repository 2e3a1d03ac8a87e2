import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { TryRun } from './api';
import type { Example } from './examples';

/** The set's own content is the first example; its expected answers are kept under this key. */
export const OWN = 'own';

/** Every ready example on every model, each run labelled as Runs lists it. */
export function tryRuns(options: {
  /** the examples to send (the set's own content first when it has some) */
  examples: readonly Example[];
  /** the examples in their numbered order (the set's own content not among them) */
  numbered: readonly Example[];
  models: readonly string[];
  request: DecisionsRequest;
  ownState: DecisionsRequest['state'] | null;
  textQuestions: readonly string[];
  setName: string;
  setId: string | undefined;
  cascade: string | null;
}): TryRun[] {
  const { examples, numbered, models, request, ownState, textQuestions, setName, setId, cascade } = options;
  return examples.flatMap((e) =>
    models.map((model) => {
      // Examples of text only: the set's questions about images are asked of the set's own content alone.
      const state = e.key === OWN ? ownState! : e.text;
      const asked = e.key === OWN ? request.questions : Object.fromEntries(textQuestions.map((q) => [q, request.questions[q]!]));
      // Labelled as Runs lists them: the set's own run by the set's name, an example's by its place.
      const label = e.key === OWN ? setName : `${setName} · example ${numbered.indexOf(e) + 1}`;
      return {
        key: `${e.key}|${model}`,
        input: {
          request: { ...request, model, state, questions: asked } as DecisionsRequest,
          ...(setId ? { set_id: setId } : {}),
          ...(cascade && model === request.model ? { cascade } : {}),
          label,
        },
      };
    }),
  );
}
