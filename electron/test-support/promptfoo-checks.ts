import { z } from 'zod';

/**
 * The checks promptfoo's `openai:decisions` provider holds an OpenAI-shaped Decisions reply to
 * before it grades anything (promptfoo/promptfoo `src/providers/openai/decisions.ts`, MIT; the
 * excerpt is fixtures/decisions/promptfoo/openai-decisions-checks.ts.txt): `confidence` required on
 * choice and score answers, integer token counts with `total_tokens = input + output`, each answer
 * named as its question in order, distributions summing to 1 within 0.01, every choice and level
 * present once, each score probability labelled with its level's label, and the score within 1% of
 * the range of the probability-weighted mean. promptfoo's release in the registry here predates the
 * provider, so these are its published rules restated.
 */

const choiceValue = z.union([z.string(), z.boolean()]);
const probability = z.number().min(0).max(1);
const DISTRIBUTION_TOLERANCE = 0.01 + 1e-12;
const answerName = { name: z.string().nullable() };
const answerSchema = z.discriminatedUnion('type', [
  z.object({ ...answerName, type: z.literal('refusal') }),
  z.object({ ...answerName, type: z.literal('predicate'), probability }),
  z.object({
    ...answerName,
    type: z.literal('choice'),
    choice: choiceValue,
    confidence: probability,
    probabilities: z.array(z.object({ value: choiceValue, probability })),
  }),
  z.object({
    ...answerName,
    type: z.literal('score'),
    score: z.number().nonnegative(),
    confidence: probability,
    probabilities: z.array(z.object({ value: z.number().int(), label: z.string(), probability })),
  }),
]);
const tokenCount = z.number().int().nonnegative();
const responseSchema = z.object({
  model: z.string().min(1),
  answers: z.array(answerSchema),
  usage: z
    .object({ input_tokens: tokenCount, output_tokens: tokenCount, total_tokens: tokenCount })
    .loose()
    .refine(({ input_tokens, output_tokens, total_tokens }) => total_tokens === input_tokens + output_tokens),
});

type Question = { type: string; name?: string; choices?: { value: string | boolean }[]; levels?: { label: string }[] };

/** Whether promptfoo would take the reply to these questions as a result rather than an error. */
export function promptfooAccepts(request: { questions: readonly Question[] }, reply: unknown): boolean {
  const parsed = responseSchema.safeParse(reply);
  if (!parsed.success) return false;
  const { answers } = parsed.data;
  const questions = request.questions;
  return (
    answers.length === questions.length &&
    answers.every((answer, index) => {
      const question = questions[index]!;
      if (answer.name !== (question.name ?? null)) return false;
      if (answer.type === 'refusal') return true;
      if (
        (answer.type === 'choice' || answer.type === 'score') &&
        Math.abs(answer.probabilities.reduce((sum, item) => sum + item.probability, 0) - 1) > DISTRIBUTION_TOLERANCE
      )
        return false;
      if (answer.type === 'choice' && question.type === 'choice') {
        const choices = question.choices!;
        return (
          choices.some(({ value }) => value === answer.choice) &&
          answer.probabilities.length === choices.length &&
          new Set(answer.probabilities.map(({ value }) => value)).size === choices.length &&
          answer.probabilities.every(({ value }) => choices.some((choice) => choice.value === value))
        );
      }
      if (answer.type === 'score' && question.type === 'score') {
        const levels = question.levels!;
        const maxScore = levels.length - 1;
        const expectedScore = answer.probabilities.reduce((sum, item) => sum + item.value * item.probability, 0);
        return (
          answer.score <= maxScore &&
          Math.abs(answer.score - expectedScore) / maxScore <= DISTRIBUTION_TOLERANCE &&
          answer.probabilities.length === levels.length &&
          new Set(answer.probabilities.map(({ value }) => value)).size === levels.length &&
          answer.probabilities.every(({ value, label }) => value >= 0 && label === levels[value]?.label)
        );
      }
      return answer.type === question.type;
    })
  );
}
