import { CAPTURE_HEADER } from '../../../shared/schemas/capture';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../../shared/schemas/decisions-response';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import { answerCategory } from '../../../shared/monitor/drift';
import { FlushTimer } from '../flush-timer';
import { capturedState } from './content';
import { matches, type LiveRule } from './match';
import { questionSignature } from './signature';
import type { CaptureOutcome, CaptureStorage, NewCapture } from './storage';
import type { CascadeRecord } from '../decisions/stages';

/** How long captures wait to be written together, and how many a rule may have waiting. */
export const FLUSH_AFTER_MS = 200;
export const MAX_WAITING_PER_RULE = 2000;
/** At most this many (set, question, answer) series are counted; answers past it are not (a choice with free-form options could grow without end). */
export const MAX_ANSWER_SERIES = 5000;

/** An answered public Decisions call, as the route hands it over once the answer is charged. */
export interface OfferedCall {
  request: DecisionsRequest;
  response: DecisionsResponse;
  keyId: string;
  requestId: string;
  /** A request header, by its lower-case name. */
  header(name: string): string | undefined;
  /** How its stages went, when it asked for several. */
  cascade: Pick<CascadeRecord, 'triggered_by' | 'human'> | null;
  /** From its arrival to its answer. */
  latencyMs: number;
}

/** How a call went, as the monitor reads it: made only for a call a rule takes. */
export function outcomeOf(call: Pick<OfferedCall, 'request' | 'response' | 'cascade' | 'latencyMs'>): CaptureOutcome {
  return {
    latency_ms: call.latencyMs,
    escalated: (call.cascade?.triggered_by.length ?? 0) > 0,
    provisional: call.cascade?.human === true,
    refused: Object.keys(call.request.questions).filter((name) => call.response.answers[name] === undefined),
  };
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The request path's side of capturing: each answered call is held against the live rules (none:
 * nothing is done), sampled, and queued; the queue is written off the path, every rule's captures
 * in one transaction, in which the store holds the daily cap exactly across processes. What this
 * process knows a rule took today keeps it from queuing what the cap would drop anyway. Captures
 * waiting when the process dies are lost: they were never acknowledged to anyone.
 */
export class CaptureTap {
  private rules: readonly LiveRule[] = [];
  private readonly waiting = new Map<string, NewCapture[]>();
  /** `${rule}/${day}` → captures this process knows the rule took that day (stored, or waiting). */
  private readonly taken = new Map<string, number>();
  /** Signature → name of each saved question set a rule names: every answer to those sets is counted, captured or not. */
  private watched: ReadonlyMap<string, string> = new Map();
  /** `${set}\u0000${question}\u0000${answer}` → answers this process gave. */
  private readonly answered = new Map<string, number>();
  private readonly timer = new FlushTimer(FLUSH_AFTER_MS, () => void this.flush());
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: CaptureStorage,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly random: () => number = Math.random,
  ) {}

  /** The rules the path holds calls against, and what each took today as the store counts it. */
  setRules(rules: readonly LiveRule[], today?: ReadonlyMap<string, number>, watched?: ReadonlyMap<string, string>): void {
    this.rules = rules;
    if (watched) this.watched = watched;
    if (!today) return;
    const day = utcDay(this.clock.now());
    for (const rule of rules) {
      const key = `${rule.id}/${day}`;
      const waiting = (this.waiting.get(rule.id) ?? []).length;
      this.taken.set(key, Math.max(this.taken.get(key) ?? 0, (today.get(rule.id) ?? 0) + waiting));
    }
  }

  /** Holds one answered call against the rules; queues it for each that takes it. Never throws, never waits. */
  offer(call: OfferedCall): void {
    if (this.rules.length === 0) return;
    // Counted even when not to be captured: a count keeps nothing of the request.
    let signature = this.watched.size > 0 ? questionSignature(call.request.questions) : undefined;
    if (signature !== undefined) this.count(call, signature);
    if (call.header(CAPTURE_HEADER)?.trim().toLowerCase() === 'off') return;
    let outcome: CaptureOutcome | undefined;
    const answered = {
      keyId: call.keyId,
      asked: call.request.model,
      answeredBy: call.response.model,
      questions: call.request.questions,
      answers: call.response.answers,
    };
    const now = this.clock.now();
    const day = utcDay(now);
    for (const rule of this.rules) {
      if (!matches(rule, answered, () => (signature ??= questionSignature(call.request.questions)))) continue;
      if (rule.sampleRate < 1 && this.random() >= rule.sampleRate) continue;
      const key = `${rule.id}/${day}`;
      const taken = this.taken.get(key) ?? 0;
      const waiting = this.waiting.get(rule.id) ?? [];
      if (taken >= rule.dailyCap || waiting.length >= MAX_WAITING_PER_RULE) continue;
      this.taken.set(key, taken + 1);
      waiting.push({
        request_id: call.requestId,
        state: capturedState(call.request, rule.keepImages),
        key_id: call.keyId,
        model: call.response.model,
        provider: call.response.provider ?? null,
        cost: call.response.usage.cost ?? null,
        captured_at: new Date(now).toISOString(),
        questions: call.request.questions,
        answers: call.response.answers,
        outcome: (outcome ??= outcomeOf(call)),
      });
      this.waiting.set(rule.id, waiting);
    }
    if (this.waiting.size > 0) this.timer.arm();
  }

  /** Counts the call's answers under its set's name when a rule watches the set. */
  private count(call: OfferedCall, signature: string): void {
    const set = this.watched.get(signature);
    if (set === undefined) return;
    for (const [question, answer] of Object.entries(call.response.answers)) {
      const category = answerCategory(answer);
      if (category === null) continue;
      const key = `${set}\u0000${question}\u0000${category}`;
      const n = this.answered.get(key);
      if (n !== undefined) this.answered.set(key, n + 1);
      else if (this.answered.size < MAX_ANSWER_SERIES) this.answered.set(key, 1);
    }
  }

  /** Every answer this process gave to a watched set, by set name, question and answer (Prometheus's `verdict_answers_total`). */
  answerCounts(): { set: string; question: string; answer: string; count: number }[] {
    return [...this.answered].map(([key, count]) => {
      const [set, question, answer] = key.split('\u0000') as [string, string, string];
      return { set, question, answer, count };
    });
  }

  /** Writes every waiting capture now; resolves once they are stored (or dropped, logged, when the store refused). */
  flush(): Promise<void> {
    this.timer.disarm();
    const batches = [...this.waiting];
    this.waiting.clear();
    this.flushing = this.flushing.then(async () => {
      for (const [ruleId, captures] of batches) {
        for (const [day, ofDay] of byDay(captures)) {
          try {
            const kept = await this.storage.append(ruleId, day, ofDay);
            // What the cap dropped (another process took the day's last places) is taken all the same.
            if (kept < ofDay.length) this.taken.set(`${ruleId}/${day}`, Number.MAX_SAFE_INTEGER);
          } catch (error) {
            this.logger.warn({ err: error, rule_id: ruleId, captures: ofDay.length }, 'captures could not be stored; they were dropped');
          }
        }
      }
    });
    return this.flushing;
  }
}

function byDay(captures: readonly NewCapture[]): Map<string, NewCapture[]> {
  const days = new Map<string, NewCapture[]>();
  for (const c of captures) {
    const day = c.captured_at.slice(0, 10);
    const ofDay = days.get(day);
    if (ofDay) ofDay.push(c);
    else days.set(day, [c]);
  }
  return days;
}
