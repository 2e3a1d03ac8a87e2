import { CAPTURE_HEADER } from '../../../shared/schemas/capture';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../../shared/schemas/decisions-response';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import { capturedState } from './content';
import { matches, type LiveRule } from './match';
import { questionSignature } from './signature';
import type { CaptureStorage, NewCapture } from './storage';

/** How long captures wait to be written together, and how many a rule may have waiting. */
export const FLUSH_AFTER_MS = 200;
export const MAX_WAITING_PER_RULE = 2000;

/** An answered public Decisions call, as the route hands it over once the answer is charged. */
export interface OfferedCall {
  request: DecisionsRequest;
  response: DecisionsResponse;
  keyId: string;
  requestId: string;
  /** A request header, by its lower-case name. */
  header(name: string): string | undefined;
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
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: CaptureStorage,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly random: () => number = Math.random,
  ) {}

  /** The rules the path holds calls against, and what each took today as the store counts it. */
  setRules(rules: readonly LiveRule[], today?: ReadonlyMap<string, number>): void {
    this.rules = rules;
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
    if (call.header(CAPTURE_HEADER)?.trim().toLowerCase() === 'off') return;
    let signature: string | undefined;
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
      });
      this.waiting.set(rule.id, waiting);
    }
    if (this.waiting.size > 0 && !this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
      this.timer.unref();
    }
  }

  /** Writes every waiting capture now; resolves once they are stored (or dropped, logged, when the store refused). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
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
