import { randomUUID } from 'node:crypto';
import { DecisionsRequestSchema, type DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { QuestionSetSummary } from '../../../shared/schemas/inspector';
import { isoTime, type Clock } from '../clock';
import { GatewayError } from '../errors';
import type { QuestionSetStorage, StoredQuestionSet } from '../store/ports';

const summary = (set: StoredQuestionSet): QuestionSetSummary => {
  const request = set.request as DecisionsRequest;
  return {
    id: set.id,
    name: set.name,
    model: request.model,
    question_count: Object.keys(request.questions).length,
    updated_at: set.updated_at,
    sample: set.sample,
  };
};

/** Saved question sets; deleting marks a set so that it can be restored (undo). */
export class QuestionSets {
  constructor(
    private readonly storage: QuestionSetStorage,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<QuestionSetSummary[]> {
    return (await this.storage.live()).map(summary);
  }

  private async stored(id: string): Promise<StoredQuestionSet> {
    const set = await this.storage.get(id);
    if (!set) throw new GatewayError('not_found', `No question set with id "${id}"`);
    return set;
  }

  /** A set's name, deleted or not (what the audit log names it by); not found when there is no such set. */
  async nameOf(id: string): Promise<string> {
    return (await this.stored(id)).name;
  }

  /** The set's request and the cascade preset it names (null: none), apart: the request alone is the spec's. */
  async get(id: string): Promise<{ id: string; name: string; request: DecisionsRequest; cascade: string | null }> {
    const set = await this.stored(id);
    if (set.deleted_at) throw new GatewayError('not_found', `Question set "${set.name}" was deleted`);
    const { cascade, ...request } = set.request as Record<string, unknown>;
    const parsed = DecisionsRequestSchema.safeParse(request);
    if (!parsed.success || (cascade !== undefined && typeof cascade !== 'string'))
      throw new GatewayError('internal', `Question set "${set.name}" no longer validates`);
    return { id: set.id, name: set.name, request: parsed.data, cascade: (cascade as string | undefined) ?? null };
  }

  /**
   * `sample` marks the set offered on first start (only new sets take it). `cascade` (a preset's name,
   * checked by the caller) is kept in the stored request beside the spec's fields, as the API's extension is.
   */
  async save(input: {
    id?: string | undefined;
    name: string;
    request: DecisionsRequest;
    cascade?: string | null | undefined;
    sample?: boolean;
  }): Promise<QuestionSetSummary> {
    const now = isoTime(this.clock);
    const request = input.cascade ? { ...input.request, cascade: input.cascade } : input.request;
    if (input.id) {
      const existing = await this.stored(input.id);
      await this.storage.update(existing.id, { name: input.name, request, updated_at: now });
      return summary({ ...existing, name: input.name, request, updated_at: now });
    }
    const set: StoredQuestionSet = {
      id: `set-${randomUUID()}`,
      name: input.name,
      request,
      created_at: now,
      updated_at: now,
      deleted_at: null,
      sample: input.sample ?? false,
    };
    await this.storage.add(set);
    return summary(set);
  }

  async delete(id: string): Promise<{ id: string }> {
    await this.stored(id);
    await this.storage.setDeleted(id, isoTime(this.clock));
    return { id };
  }

  async restore(id: string): Promise<QuestionSetSummary> {
    const set = await this.stored(id);
    await this.storage.setDeleted(id, null);
    return summary({ ...set, deleted_at: null });
  }

  /** Removes the sample sets for good; how many went. */
  removeSamples(): Promise<number> {
    return this.storage.removeSamples();
  }
}
