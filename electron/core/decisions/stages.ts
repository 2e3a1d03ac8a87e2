import { evaluateCondition } from '../../../shared/cascade/conditions';
import type { CascadeCondition } from '../../../shared/schemas/cascade';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { DecisionsResponse, Usage } from '../../../shared/schemas/decisions-response';
import { attachUsage, usageOf } from './usage';
import { GatewayError } from '../errors';
import type { DecideOptions } from './engine';

/** What one stage's answer gives the stages after it: the response, and whatever the caller reads beside it. */
export interface StageAnswer {
  response: DecisionsResponse;
}

/** The second stage that is a person: the first model's answers go back at once, marked provisional, and the request joins the review queue. */
export const HUMAN_STAGE = 'human';

/**
 * A request asked of several models in turn. The first stage is the request's own model; `then` is
 * asked when the first stage's answers meet `when` (an uncertain answer) or when it fails; the
 * `fallbacks` are asked in order when the stage before them fails. Without `when`, every later model
 * is an error fallback only.
 */
export interface StagePlan {
  then: string | null;
  when: CascadeCondition | null;
  fallbacks: readonly string[];
  /** With the human stage: where the person's answers are posted, signed with the caller's secret. */
  webhook?: { url: string; secret: string } | undefined;
  /** The saved preset these stages came from, by name (its human stage's queue is counted per preset). */
  preset?: string | undefined;
}

/** One stage as it went: the model, who answered, what it cost, and why the next was asked. */
export interface StageRecord {
  model: string;
  provider: string | null;
  id: string | null;
  usage: Usage | null;
  /** Why it gave no answer; null when it answered. */
  error: string | null;
  /** The questions whose answers met the condition, when this stage was escalated. */
  triggered_by?: string[];
}

/** What a staged request says of itself in its response (`cascade` on Verdict's routes). */
export interface CascadeRecord {
  /** The model whose answers these are. */
  answered_by: string;
  /** The questions that sent the request on to the next model (none when it was not escalated). */
  triggered_by: string[];
  stages: StageRecord[];
  /** Escalated to a person (the `human` stage): these answers are the first model's, provisional until someone reviews them. */
  human?: true;
  /** The review the request joined (its id), once queued. */
  review_id?: string;
}

/** Failures of a stage another model may answer instead: the provider's, not the request's or the key's. */
const FALLS_BACK = new Set([429, 500, 502, 503, 524, 529]);

/** Both stages' usage: tokens summed; the cost only when every stage's is known (else none is said). */
function sumUsage(parts: readonly (Usage | null)[]): Usage {
  const known = parts.filter((u): u is Usage => u !== null);
  const costs = known.map((u) => u.cost);
  const total: Usage = {
    input_tokens: known.reduce((n, u) => n + u.input_tokens, 0),
    output_tokens: known.reduce((n, u) => n + u.output_tokens, 0),
  };
  return costs.every((c) => c !== undefined) ? { ...total, cost: costs.reduce((a, c) => a + c!, 0) } : total;
}

/**
 * Asks the stages in turn and answers with the last stage that answered. One admission covers
 * them all: the first stage's most it can cost plus each later model's (`worstOf`, worked out
 * without sending, only when there is an admission to hold it), held before anything is sent. Every
 * stage that made paid calls is billed: the answer's usage is their sum, and so is a failure's.
 * `decideOne` answers one stage; the service (service.ts) is the one caller.
 */
export async function decideInStages<A extends StageAnswer>(
  decideOne: (request: DecisionsRequest, options: DecideOptions) => Promise<A>,
  request: DecisionsRequest,
  plan: StagePlan,
  options: DecideOptions,
  worstOf: (model: string) => number | null,
): Promise<{ answered: A; record: CascadeRecord }> {
  const models = [request.model, ...(plan.then ? [plan.then] : []), ...plan.fallbacks];
  // A person costs nothing here; the models after them are never asked once the request escalated.
  const later = () => models.slice(1).reduce((sum, model) => sum + (model === HUMAN_STAGE ? 0 : (worstOf(model) ?? 0)), 0);
  let human = false;
  let admitted = false;
  const stages: StageRecord[] = [];
  let best: { answered: A; index: number } | null = null;
  let triggeredBy: string[] = [];
  let lastError: unknown = null;
  for (let i = 0; i < models.length; i += 1) {
    // After a first stage that answered, only the escalation (`then`) and its fallbacks are left.
    const model = models[i]!;
    const admit = admitted
      ? undefined
      : (maxCost: () => number) => {
          admitted = true;
          return options.admit?.(() => maxCost() + (i === 0 ? later() : 0));
        };
    try {
      const { admit: _outer, ...rest } = options;
      const answered = await decideOne(
        { ...request, model },
        { ...rest, requestId: i === 0 ? options.requestId : `${options.requestId}-${i + 1}`, ...(admit ? { admit } : {}) },
      );
      stages.push({ model, provider: answered.response.provider ?? null, id: answered.response.id ?? null, usage: answered.response.usage, error: null });
      if (i === 0 && plan.when && plan.then) {
        const verdict = evaluateCondition(plan.when, request.questions, answered.response.answers);
        best = { answered, index: 0 };
        if (verdict.holds) {
          triggeredBy = verdict.triggeredBy;
          stages[0]!.triggered_by = verdict.triggeredBy;
          if (plan.then === HUMAN_STAGE) {
            human = true;
            break;
          }
          continue;
        }
      }
      best = { answered, index: stages.length - 1 };
      break;
    } catch (error) {
      const usage = usageOf(error) ?? null;
      stages.push({ model, provider: null, id: null, usage, error: (error as Error).message });
      lastError = error;
      const status = error instanceof GatewayError ? error.status : 500;
      if (!FALLS_BACK.has(status)) break;
    }
  }
  const usage = sumUsage(stages.map((s) => s.usage));
  if (!best) {
    attachUsage(lastError, usage);
    throw lastError;
  }
  const answered = best.answered;
  return {
    answered: { ...answered, response: { ...answered.response, usage } },
    record: { answered_by: stages[best.index]!.model, triggered_by: triggeredBy, stages, ...(human ? { human: true as const } : {}) },
  };
}
