/**
 * The loop's figures in Prometheus: the review queues (the human stage's, and each watched question
 * set's captured items no one has reviewed), every answer given to a watched set, and each set's
 * drift, as the Monitor screen works them out (captures/monitor-figures.ts). Registered by
 * observability.ts on its registry.
 */
import type * as PromClient from 'prom-client';
import type { Core } from '../core';

/** The human stage's queue as the database holds it (every instance reports the same figure). */
type QueueFigures = () => Promise<{ pending: number; oldest_pending_seconds: number | null; reviewed_last_hour: number }>;

/** Per watched question set: each question's drift over the last day against the week before, and its items waiting for review. */
type SetFigures = () => Promise<{ set: string; waiting: number; drift: { question: string; drift: number }[] }[]>;

/** How often the per-set figures are worked out again: each reads a day and a week of captures. */
const SET_FIGURES_TTL_MS = 60_000;

/** The monitor's figures of every set a capture rule names, kept for a minute between scrapes. */
export function setFigures(core: Core): SetFigures {
  let kept: { at: number; figures: Promise<Awaited<ReturnType<SetFigures>>> } | null = null;
  const read = async () => {
    const ids = await core.captures.watchedSetIds();
    const monitors = await Promise.all(ids.map((id) => core.captures.monitor({ question_set_id: id, window: '24h' }).catch(() => null)));
    return monitors.flatMap((m) =>
      m
        ? [
            {
              set: m.subject.name,
              waiting: m.waiting_review,
              drift: m.questions.flatMap((q) => (q.drift === null ? [] : [{ question: q.question, drift: q.drift }])),
            },
          ]
        : [],
    );
  };
  return () => {
    const now = Date.now();
    if (!kept || now - kept.at > SET_FIGURES_TTL_MS) kept = { at: now, figures: read() };
    return kept.figures;
  };
}

export interface LoopSources {
  queue: QueueFigures;
  /** Answers this process gave to watched sets, by set, question and answer. */
  answers: () => { set: string; question: string; answer: string; count: number }[];
  sets: SetFigures;
}

/** The loop's gauges and counter on `registry`, each read when scraped. */
export function registerLoopMetrics({ Counter, Gauge }: typeof PromClient, registry: PromClient.Registry, sources: LoopSources): void {
  const { queue, answers, sets } = sources;
  // Read from the database at each scrape: the same figure on every instance.
  const queueFigure = (pick: (f: Awaited<ReturnType<QueueFigures>>) => number | null) =>
    async function (this: PromClient.Gauge) {
      const value = await queue().then(pick, () => null);
      this.reset();
      // Labelled, so that "none waits" is no series rather than a made-up 0 seconds.
      if (value !== null) this.set({ queue: 'human' }, value);
    };
  new Gauge({
    name: 'verdict_review_queue_items',
    help: 'Items waiting for a person: requests a cascade\'s human stage sent (queue="human"), and captured items of a watched question set no one has reviewed (queue="captured", set="…")',
    labelNames: ['queue', 'set'],
    registers: [registry],
    async collect() {
      const [pending, perSet] = await Promise.all([
        queue().then(
          (f) => f.pending,
          () => null,
        ),
        sets().catch(() => []),
      ]);
      this.reset();
      if (pending !== null) this.set({ queue: 'human' }, pending);
      for (const s of perSet) this.set({ queue: 'captured', set: s.set }, s.waiting);
    },
  });
  new Counter({
    name: 'verdict_answers_total',
    help: 'Answers given to requests of a question set a capture rule names, by set, question and answer (yes/no, the option, the level, "box"), captured or not',
    labelNames: ['set', 'question', 'answer'],
    registers: [registry],
    collect() {
      this.reset();
      for (const a of answers()) this.inc({ set: a.set, question: a.question, answer: a.answer }, a.count);
    },
  });
  new Gauge({
    name: 'verdict_drift',
    help: "How far a watched set's answers to a question moved over the last day from the week before: yes-rate change for yes/no, population stability index for choices and levels, centre move or area change for boxes",
    labelNames: ['set', 'question'],
    registers: [registry],
    async collect() {
      const perSet = await sets().catch(() => []);
      this.reset();
      for (const s of perSet) for (const q of s.drift) this.set({ set: s.set, question: q.question }, q.drift);
    },
  });
  new Gauge({
    name: 'verdict_review_queue_oldest_seconds',
    help: 'How long the oldest request waiting for a person has waited (absent when none waits)',
    labelNames: ['queue'],
    registers: [registry],
    collect: queueFigure((f) => f.oldest_pending_seconds),
  });
  new Gauge({
    name: 'verdict_reviews_last_hour',
    help: 'Human-stage requests people answered or flagged in the last hour',
    labelNames: ['queue'],
    registers: [registry],
    collect: queueFigure((f) => f.reviewed_last_hour),
  });
}
