import { randomUUID } from 'node:crypto';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../../shared/schemas/decisions-response';
import type { Question } from '../../../shared/schemas/question';
import type { CatalogEndpoint } from '../catalog/types';
import type { CancelSignal } from '../cancel';
import { GatewayError } from '../errors';
import { UpstreamError } from '../providers/upstream-error';
import type { Catalog } from '../catalog/catalog';
import type { Router } from '../routing/router';
import type { Upstreams } from './upstreams';
import { requestNeeds } from './needs';
import type { AttemptOutput, AttemptSummary, ExecutionResult } from '../routing/executor';
import type { Plan, PlannedAttempt } from '../routing/plan';
import { ask, askNative, MEASURED_ROUNDING, methodFor, type Answered, type AnsweringMethod } from './ask';
import { prepare, uprightImages, type Prepared } from './prepare';
import type { ImagePool } from '../images/pool';
import { maxCost, reservation } from './reserve';
import { attachUsage, tokenDetails, totalUsage, type LedgerEntry, type TokenDetails } from './usage';
import type { Answer } from '../../../shared/schemas/answer';
import type { Rounding } from '../providers/decision-host';

export type { AnsweringMethod } from './ask';
export { methodFor, MIN_COVERAGE, statedProbabilities } from './ask';
export { IMAGE_TOKENS } from './reserve';

export interface DecisionOutcome {
  /** The answers given; a question the host declined is in `refused` instead (only when the caller keeps refusals). */
  response: DecisionsResponse;
  /** Questions a host declined to answer, in question order. */
  refused: string[];
  /** The decimals the answers were rounded to, the coarsest of them (null: none declared, exact). */
  rounding: Rounding | null;
  /** Cached, cache-write and reasoning tokens over every call, as providers reported them. */
  tokens: TokenDetails;
  methods: Record<string, AnsweringMethod>;
  endpoint: CatalogEndpoint;
  attempts: AttemptSummary[];
  ledger: LedgerEntry[];
  /** The plan the request was routed by: each endpoint's place and why, and those left out. */
  plan: Plan;
}

export interface DecideOptions {
  requestId: string;
  signal?: CancelSignal;
  onAnswer?: (name: string) => void;
  /** Called once the plan is known and before any upstream call, with the most the request can cost (worked out only if asked); may refuse by throwing. */
  admit?: (maxCost: () => number) => unknown;
  /**
   * A question a host declined to answer: `fail` (the spec's route, whose answers have no refusal)
   * makes the request a 400 naming it, its calls charged; `keep` returns it in `refused` beside the
   * other answers (routes whose shape has a refusal answer).
   */
  refusals?: 'fail' | 'keep';
}

type Run = ExecutionResult<Answered[]>;

/**
 * Answers a Decisions request, in four steps: prepare it (image, labels), plan the endpoints,
 * answer the first question (warming the provider's prompt cache), then the rest in parallel on the
 * same endpoint, each falling back along the plan; then assemble the response. Answers come from
 * the model's own label probabilities, its stated probabilities, or a native Decisions endpoint;
 * never a number made up here.
 */
export interface EngineDeps {
  catalog: Catalog;
  router: Router;
  upstreams: Upstreams;
  /** Where box images are turned upright, off the server's thread. */
  images: ImagePool;
  timeouts?: { deadlineMs: number; attemptMs: number } | undefined;
}

export class DecisionsEngine {
  private readonly catalog: Catalog;
  private readonly router: Router;
  private readonly upstreams: Upstreams;

  constructor(private readonly deps: EngineDeps) {
    ({ catalog: this.catalog, router: this.router, upstreams: this.upstreams } = deps);
  }

  /** An error raised after paid upstream calls carries their usage (see `usageOf`), so the caller can charge it. */
  async decide(request: DecisionsRequest, options: DecideOptions): Promise<DecisionOutcome> {
    const ledger: LedgerEntry[] = [];
    try {
      const prepared = prepare(request, this.catalog.model(request.model));
      const plan = this.plan(request, prepared);
      // A shared admission answers asynchronously; this process's own, at once (no await then).
      const admitted = options.admit?.(() => maxCost(this.upstreams, plan, request, prepared));
      if (admitted instanceof Promise) await admitted;
      // Pixels are turned only for an admitted request: sizes and the plan need the header alone.
      const ready = await uprightImages(prepared, this.deps.images);
      const runs = await this.answer(request, ready, plan, options, ledger);
      const outcome = { ...assemble(request, ready, runs, ledger), plan };
      if (outcome.refused.length > 0 && options.refusals !== 'keep') throw refusalError(outcome);
      return outcome;
    } catch (error) {
      if (ledger.length > 0) attachUsage(error, totalUsage(ledger));
      throw error;
    }
  }

  /**
   * What `decide` would reserve at admission for this request (the `maxCost` its `admit` is given),
   * worked out by the same prepare and plan steps without sending anything: the most the request
   * can cost, every planned endpoint tried with the longest replies. Null when an endpoint of its
   * plan has an unknown price (the reservation counts such calls 0, so it bounds nothing then).
   * Throws as `decide` would when the request cannot be prepared or planned.
   */
  admissionCost(request: DecisionsRequest): number | null {
    const prepared = prepare(request, this.catalog.model(request.model));
    const held = reservation(this.upstreams, this.plan(request, prepared), request, prepared);
    return held.unpriced ? null : held.usd;
  }

  private plan(request: DecisionsRequest, prepared: Prepared): Plan {
    return this.router.plan(request.model, request.provider ?? undefined, requestNeeds(this.catalog, request, prepared));
  }

  /**
   * The first question, then the rest once the first call has produced its first token: by then
   * the provider has processed (and cached) the shared prefix, so they overlap the first call's
   * tail. The rest try the endpoint that took the first one first. A native endpoint answers all
   * of them in the first call.
   */
  private async answer(request: DecisionsRequest, prepared: Prepared, plan: Plan, options: DecideOptions, ledger: LedgerEntry[]): Promise<Run[]> {
    const [first, ...others] = prepared.labelled;
    let warmed!: (endpoint: CatalogEndpoint) => void;
    const warm = new Promise<CatalogEndpoint>((resolve) => (warmed = resolve));
    const firstRun = this.route(plan, options, (attempt, signal) =>
      this.upstreams.adapter(attempt.endpoint).decide
        ? askNative(this.upstreams, attempt.endpoint, request, prepared, signal, ledger)
        : this.askOne(attempt, first!, { prepared, signal, ledger, options, onFirstToken: () => warmed(attempt.endpoint) }),
    );
    let restRuns: Promise<Run>[] = [];
    if (others.length > 0) {
      const early = await Promise.race([
        warm.then((endpoint) => ({ endpoint, native: false })),
        firstRun.then((r) => ({ endpoint: r.endpoint, native: methodFor(r.endpoint, this.upstreams) === 'native' })),
      ]);
      if (!early.native) {
        const pinned: Plan = {
          ...plan,
          attempts: [...plan.attempts].sort((a, b) => Number(b.endpoint.id === early.endpoint.id) - Number(a.endpoint.id === early.endpoint.id)),
        };
        restRuns = others.map(([name, question]) =>
          this.route(pinned, options, async (attempt, signal) => {
            if (!this.upstreams.adapter(attempt.endpoint).decide) return this.askOne(attempt, [name, question], { prepared, signal, ledger, options });
            const native = await askNative(
              this.upstreams,
              attempt.endpoint,
              { state: request.state, questions: { [name]: question } },
              prepared,
              signal,
              ledger,
            );
            return { ...native, value: native.value.filter((a) => a.name === name) };
          }).then((r) => {
            for (const a of r.value) options.onAnswer?.(a.name);
            return r;
          }),
        );
      }
    }
    // Every call is awaited before an error is raised, so none is left running unobserved.
    const settled = await Promise.allSettled([firstRun, ...restRuns]);
    const runs = settled.map((r) => {
      if (r.status === 'rejected') throw r.reason;
      return r.value;
    });
    for (const a of runs[0]!.value) options.onAnswer?.(a.name);
    return runs;
  }

  /**
   * One question on a chat endpoint. A model that declines it (a refusal, a content filter) ends the
   * request as a 400 where the route has no refusal answer; where it has one, the question is
   * answered with a refusal and the others go on (what the call produced was billed all the same).
   */
  private async askOne(
    attempt: PlannedAttempt,
    [name, question]: [string, Question],
    ctx: { prepared: Prepared; signal: CancelSignal; ledger: LedgerEntry[]; options: DecideOptions; onFirstToken?: () => void },
  ): Promise<AttemptOutput<Answered[]>> {
    const { prepared } = ctx;
    const asking = {
      name,
      question,
      labels: prepared.sets.get(name),
      image: prepared.boxImages.get(name) ?? null,
      parts: prepared.parts,
      options: attempt.options,
    };
    const started = Date.now();
    try {
      const one = await ask(this.upstreams, attempt.endpoint, asking, ctx.signal, ctx.ledger, ctx.onFirstToken);
      return { value: [one], usage: one.usage, timings: one.timings };
    } catch (error) {
      if (!(error instanceof UpstreamError && error.kind === 'refused' && ctx.options.refusals === 'keep')) throw error;
      const usage = error.details.usage ?? { inputTokens: null, outputTokens: null, cachedInputTokens: 0, cacheWriteTokens: 0, cost: null };
      const method = methodFor(attempt.endpoint, this.upstreams, prepared.sets.get(name));
      return {
        value: [{ name, answer: { type: 'refusal' }, method, provider: attempt.endpoint.provider.name, rounding: MEASURED_ROUNDING }],
        usage,
        timings: { ttfbMs: 0, firstTokenMs: null, totalMs: Date.now() - started },
      };
    }
  }

  private route(
    plan: Plan,
    options: DecideOptions,
    attempt: (attempt: PlannedAttempt, signal: CancelSignal) => Promise<AttemptOutput<Answered[]>>,
  ): Promise<Run> {
    const timeouts = this.deps.timeouts;
    return this.router.run(plan, attempt, {
      requestId: options.requestId,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(timeouts ? { deadlineMs: timeouts.deadlineMs, attemptTimeoutMs: timeouts.attemptMs } : {}),
    });
  }
}

/** One answer per question, in the request's order; usage summed over every call; each answering provider named. */
function assemble(request: DecisionsRequest, prepared: Prepared, runs: Run[], ledger: LedgerEntry[]): Omit<DecisionOutcome, 'plan'> {
  const byName = new Map(runs.flatMap((r) => r.value).map((a) => [a.name, a]));
  const ordered = prepared.labelled.map(([name]) => {
    const found = byName.get(name);
    if (!found) throw new GatewayError('bad_gateway', `questions.${name}: the provider returned no answer for this question`);
    return found;
  });
  const answered = ordered.filter((a): a is typeof a & { answer: Answer } => a.answer.type !== 'refusal');
  return {
    response: {
      id: `gen-${randomUUID()}`,
      model: request.model,
      // Each provider that answered a question, in question order (usually one).
      provider: [...new Set(ordered.map((a) => a.provider))].join(', '),
      answers: Object.fromEntries(answered.map((a) => [a.name, a.answer])),
      usage: totalUsage(ledger),
    },
    refused: ordered.filter((a) => a.answer.type === 'refusal').map((a) => a.name),
    rounding: coarsest(ordered.map((a) => a.rounding)),
    tokens: tokenDetails(ledger),
    methods: Object.fromEntries(ordered.map((a) => [a.name, a.method])),
    endpoint: runs[0]!.endpoint,
    attempts: runs.flatMap((r) => r.attempts),
    ledger,
  };
}

/** The coarsest of several roundings, field by field; a rounding none declared (exact) does not coarsen. */
function coarsest(roundings: readonly (Rounding | null)[]): Rounding | null {
  const declared = roundings.filter((r): r is Rounding => r !== null);
  if (declared.length === 0) return null;
  return { probabilityDecimals: Math.min(...declared.map((r) => r.probabilityDecimals)), scoreDecimals: Math.min(...declared.map((r) => r.scoreDecimals)) };
}

/**
 * The spec's answers have no refusal: a declined question makes the request a 400 that names it.
 * Its calls were made and billed, so the error carries their usage and the key is charged.
 */
function refusalError(outcome: DecisionOutcome): GatewayError {
  const names = outcome.refused.map((n) => `questions.${n}`).join(', ');
  const error = new GatewayError(
    'bad_request',
    `${names}: ${outcome.response.provider} declined to answer ${outcome.refused.length === 1 ? 'this question' : 'these questions'}, and this route's answers have no refusal (POST /api/v1/decisions answers each refusal in place)`,
    {
      metadata: { refused: outcome.refused, provider: outcome.response.provider ?? null },
    },
  );
  attachUsage(error, outcome.response.usage);
  return error;
}
