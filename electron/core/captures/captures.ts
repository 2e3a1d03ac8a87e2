/**
 * The captures domain: rules that turn live Decisions requests into dataset items with the answers
 * as predictions (`tap.ts` on the request path, `storage.ts` its port), their retention, and their
 * management with an audit entry for every rule made or removed and every deletion by retention.
 * Imports datasets, question sets, the audit log and the evaluations' pure judging (monitor-figures.ts);
 * the request path reaches it only through the tap.
 */
import { randomUUID } from 'node:crypto';
import {
  MAX_CAPTURE_RULES,
  type CaptureMonitor,
  type CaptureMonitorInput,
  type CaptureRule,
  type MonitorWindow,
  type ParsedCaptureRuleInput,
} from '../../../shared/schemas/capture';
import type { Expected } from '../../../shared/schemas/evaluation';
import type { CascadeCondition } from '../../../shared/schemas/cascade';
import type { AuditActor } from '../../../shared/schemas/audit';
import { conditionProblems } from '../../../shared/cascade/conditions';
import type { AuditLog } from '../audit/audit-log';
import { isoTime, type Clock } from '../clock';
import type { Datasets } from '../datasets/datasets';
import { GatewayError } from '../errors';
import type { QuestionSets } from '../question-sets/question-sets';
import { liveRule } from './match';
import { monitorFigures, oncePerRequest, type ReadCapture } from './monitor-figures';
import { questionSignature } from './signature';
import type { CaptureStorage, StoredCapture, StoredCaptureRule } from './storage';
import type { CaptureTap } from './tap';

const DAY_MS = 24 * 60 * 60 * 1000;
const WINDOW_MS: Record<MonitorWindow, number> = { '1h': 3_600_000, '24h': DAY_MS, '7d': 7 * DAY_MS };
/** Captures read a window, the newest first: enough for shares within a point or two. */
export const MONITOR_LIMIT = 20_000;

/** What the rules are checked against when made. */
export interface CaptureDeps {
  readonly clock: Clock;
  readonly audit: AuditLog;
  readonly datasets: Datasets;
  readonly questionSets: QuestionSets;
  readonly tap: CaptureTap;
  /** Whether an API key of this id exists (revoked or not). */
  knownKey(id: string): Promise<boolean>;
  /** Whether the gateway serves a model of this id. */
  knownModel(id: string): boolean;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class Captures {
  constructor(
    private readonly storage: CaptureStorage,
    private readonly deps: CaptureDeps,
  ) {}

  /** Every rule, oldest first, with what it captured today and holds in all. */
  async list(): Promise<CaptureRule[]> {
    const [rules, counts] = await Promise.all([this.storage.list(), this.storage.counts(utcDay(this.deps.clock.now()))]);
    return rules.map((r) => ({
      ...r,
      when: (r.when ?? null) as CascadeCondition | null,
      captured_today: counts.get(r.id)?.today ?? 0,
      captured_total: counts.get(r.id)?.total ?? 0,
    }));
  }

  /** Makes a rule after checking everything it names; its dataset is made too unless it names one. */
  async create(actor: AuditActor, input: ParsedCaptureRuleInput): Promise<CaptureRule> {
    if ((await this.storage.list()).length >= MAX_CAPTURE_RULES) {
      throw new GatewayError('bad_request', `At most ${MAX_CAPTURE_RULES} capture rules: remove one first`);
    }
    const signature = await this.checked(input);
    const dataset = input.dataset_id ? await this.deps.datasets.get(input.dataset_id) : await this.deps.datasets.create(`Captured: ${input.name}`, []);
    const rule: StoredCaptureRule = {
      id: `capture-${randomUUID()}`,
      name: input.name,
      dataset_id: dataset.id,
      key_ids: input.key_ids ?? null,
      question_set_id: input.question_set_id ?? null,
      question_signature: signature,
      models: input.models ?? null,
      when: input.when ?? null,
      sample_rate: input.sample_rate,
      daily_cap: input.daily_cap,
      retention_days: input.retention_days,
      keep_images: input.keep_images,
      created_at: isoTime(this.deps.clock),
    };
    await this.storage.add(rule);
    await this.deps.audit.record(actor, 'capture.create', { kind: 'capture', id: rule.id, name: rule.name }, { ...rule, dataset_name: dataset.name });
    await this.refresh();
    return { ...rule, when: input.when ?? null, dataset_name: dataset.name, captured_today: 0, captured_total: 0 };
  }

  /** The set's signature when the rule names one; every key, model and condition checked, each refusal naming its field. */
  private async checked(input: ParsedCaptureRuleInput): Promise<string | null> {
    const problems: string[] = [];
    for (const [i, id] of (input.key_ids ?? []).entries()) if (!(await this.deps.knownKey(id))) problems.push(`key_ids[${i}]: no API key with id "${id}"`);
    for (const [i, id] of (input.models ?? []).entries()) if (!this.deps.knownModel(id)) problems.push(`models[${i}]: no model "${id}" is served here`);
    let signature: string | null = null;
    if (input.question_set_id !== undefined) {
      const set = await this.deps.questionSets.get(input.question_set_id).catch(() => null);
      if (!set) problems.push(`question_set_id: no question set with id "${input.question_set_id}"`);
      else {
        signature = questionSignature(set.request.questions);
        if (input.when) problems.push(...conditionProblems(input.when, set.request.questions, 'when'));
      }
    }
    if (input.dataset_id !== undefined && !(await this.deps.datasets.get(input.dataset_id).catch(() => null))) {
      problems.push(`dataset_id: no dataset with id "${input.dataset_id}"`);
    }
    if (problems.length > 0) throw new GatewayError('bad_request', `capture rule: ${problems.join('; ')}`);
    return signature;
  }

  /** Removes a rule; what it captured stays in its dataset. */
  async remove(actor: AuditActor, id: string): Promise<{ id: string; name: string }> {
    const rule = await this.storage.get(id);
    if (!rule || !(await this.storage.remove(id))) throw new GatewayError('not_found', `No capture rule with id "${id}"`);
    await this.deps.audit.record(actor, 'capture.delete', { kind: 'capture', id, name: rule.name }, { dataset_id: rule.dataset_id });
    await this.refresh();
    return { id, name: rule.name };
  }

  /** Refreshes started, and the latest whose reading reached the request path. */
  private refreshes = { started: 0, applied: 0 };

  /**
   * Reads the rules again (another instance may have changed them) and hands them to the request path.
   * Reads can overlap (the schedule's and a change's own); one that began before a later one was
   * applied holds older rules and is dropped, so a rule just made is never put back to missing.
   */
  async refresh(): Promise<void> {
    const turn = (this.refreshes.started += 1);
    const [rules, today] = await Promise.all([this.storage.list(), this.storage.takenOn(utcDay(this.deps.clock.now()))]);
    const watched = await this.watchedSets(rules);
    if (turn < this.refreshes.applied) return;
    this.refreshes.applied = turn;
    this.deps.tap.setRules(rules.map(liveRule), today, watched);
  }

  /** Signature → name of each saved set a rule names (read again only when the rules change). */
  private watched: { key: string; sets: Map<string, string> } = { key: '', sets: new Map() };
  private async watchedSets(rules: readonly StoredCaptureRule[]): Promise<Map<string, string>> {
    const named = rules.filter((r) => r.question_set_id !== null && r.question_signature !== null);
    const key = named.map((r) => `${r.question_set_id}:${r.question_signature}`).join(',');
    if (key === this.watched.key) return this.watched.sets;
    const sets = new Map<string, string>();
    for (const rule of named) {
      const set = await this.deps.questionSets.get(rule.question_set_id!).catch(() => null);
      sets.set(rule.question_signature!, set?.name ?? rule.question_set_id!);
    }
    this.watched = { key, sets };
    return sets;
  }

  /** The saved question sets some rule names, for the figures kept per set. */
  async watchedSetIds(): Promise<string[]> {
    return [...new Set((await this.storage.list()).flatMap((r) => (r.question_set_id === null ? [] : [r.question_set_id])))];
  }

  /** Deletes what each rule captured longer ago than its retention, each deletion in the audit log; how many items went. */
  async expire(): Promise<number> {
    let removed = 0;
    for (const rule of await this.storage.list()) {
      const before = new Date(this.deps.clock.now() - rule.retention_days * DAY_MS).toISOString();
      const n = await this.storage.expire(rule.id, before);
      if (n === 0) continue;
      removed += n;
      await this.deps.audit.record(
        { kind: 'system' },
        'capture.expire',
        { kind: 'capture', id: rule.id, name: rule.name },
        { items: n, before, dataset_id: rule.dataset_id },
      );
    }
    return removed;
  }

  /**
   * Live answers over the window beside the reference (by default the week before the window), of
   * one rule or of a saved question set (every rule naming it, a request taken by two counted once):
   * each question's figures, drift and live accuracy where people reviewed items, how the requests
   * went and what they cost (monitor-figures.ts). A sample when a rule samples or hits its cap; at
   * most MONITOR_LIMIT captures a window.
   */
  async monitor(input: CaptureMonitorInput): Promise<CaptureMonitor> {
    const { subject, rules } = await this.subjectOf(input);
    const now = this.deps.clock.now();
    const from = now - WINDOW_MS[input.window];
    const refTo = input.reference_to ? Date.parse(input.reference_to) : from;
    const refFrom = input.reference_from ? Date.parse(input.reference_from) : refTo - 7 * DAY_MS;
    if (!(refFrom < refTo)) throw new GatewayError('bad_request', 'reference_from: the reference window must start before it ends');
    const iso = (ms: number) => new Date(ms).toISOString();
    const read = async (a: number, b: number) => (await Promise.all(rules.map((r) => this.storage.between(r.id, iso(a), iso(b), MONITOR_LIMIT)))).flat();
    const [window, reference] = await Promise.all([read(from, now), read(refFrom, refTo)]);
    const { captures, waiting } = await this.withExpected(rules, window);
    const figures = monitorFigures(oncePerRequest(captures).slice(0, MONITOR_LIMIT), oncePerRequest(reference).slice(0, MONITOR_LIMIT));
    return {
      subject,
      rule_ids: rules.map((r) => r.id),
      waiting_review: waiting,
      window: { from: iso(from), to: iso(now), ...figures.window },
      reference: { from: iso(refFrom), to: iso(refTo), requests: figures.reference_requests },
      limit: MONITOR_LIMIT,
      accuracy: figures.accuracy,
      questions: figures.questions,
    };
  }

  /** The rule named, or the question set named and the rules that name it. */
  private async subjectOf(input: CaptureMonitorInput): Promise<{ subject: CaptureMonitor['subject']; rules: StoredCaptureRule[] }> {
    if (input.rule_id !== undefined) {
      const rule = await this.storage.get(input.rule_id);
      if (!rule) throw new GatewayError('not_found', `No capture rule with id "${input.rule_id}"`);
      return { subject: { kind: 'rule', id: rule.id, name: rule.name }, rules: [rule] };
    }
    const id = input.question_set_id!;
    const set = await this.deps.questionSets.get(id).catch(() => null);
    if (!set) throw new GatewayError('not_found', `No question set with id "${id}"`);
    const rules = (await this.storage.list()).filter((r) => r.question_set_id === id);
    return { subject: { kind: 'set', id, name: set.name }, rules };
  }

  /** Each capture with the expected answers people gave its item (read once per dataset), and how many items no one has reviewed. */
  private async withExpected(rules: readonly StoredCaptureRule[], captures: readonly StoredCapture[]): Promise<{ captures: ReadCapture[]; waiting: number }> {
    const datasetOf = new Map(rules.map((r) => [r.id, r.dataset_id]));
    const expected = new Map<string, Map<number, Expected>>();
    let waiting = 0;
    for (const datasetId of new Set(datasetOf.values())) {
      const items = await this.deps.datasets.expectations(datasetId).catch(() => []);
      waiting += items.filter((i) => Object.keys(i.expected).length === 0).length;
      expected.set(datasetId, new Map(items.map((i) => [i.position, i.expected])));
    }
    return { captures: captures.map((c) => ({ ...c, expected: expected.get(datasetOf.get(c.rule_id) ?? '')?.get(c.position) ?? {} })), waiting };
  }

  /** Keeps the answers to an item added outside the rules (the human stage's queue) as its prediction. */
  keepPrediction(datasetId: string, capture: StoredCapture): Promise<void> {
    return this.storage.putPredictions(datasetId, [capture]);
  }

  /** The predictions of captured items of a dataset, by position (every one when `positions` is null). */
  predictions(datasetId: string, positions: readonly number[] | null): Promise<StoredCapture[]> {
    return this.storage.predictions(datasetId, positions);
  }
}
