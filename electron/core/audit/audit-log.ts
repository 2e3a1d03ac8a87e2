import { randomUUID } from 'node:crypto';
import type { AuditAction, AuditActor, AuditEntry, AuditListInput, AuditPage, AuditTarget } from '../../../shared/schemas/audit';
import { isoTime, type Clock } from '../clock';
import type { AuditStorage } from '../store/ports';

/** Anything shaped like a Verdict key (`vd-<id>-<secret>`): never written to the log, whatever asked. */
const KEY_SHAPE = /vd-[0-9a-f]{12}-[A-Za-z0-9_-]{43}/;

/**
 * The audit log: who created, changed or revoked keys, limits, sets and datasets. Each entry point
 * names its actor (the public API's bearer key, the browser's signed-in key or printed link, the
 * desktop window, the command line) and the domain call that made the change records it here.
 *
 * An entry is written right after its change is committed, not in the change's transaction: the
 * audit log is a domain of its own, and domains do not share a transaction (docs/DESIGN.md, storage
 * ports). The caller awaits it before answering, so an acknowledged change has its entry, except
 * when the process is killed between the two commits, or the database refuses the entry's write
 * (then the call fails though its change was kept, and the caller hears so).
 */
export class AuditLog {
  constructor(
    private readonly storage: AuditStorage,
    private readonly clock: Clock,
  ) {}

  async record(actor: AuditActor, action: AuditAction, target: AuditTarget, details: Record<string, unknown> = {}): Promise<AuditEntry> {
    const text = JSON.stringify(details);
    // A key's secret must never reach the log; a caller that passed one is a bug, refused loudly.
    if (KEY_SHAPE.test(text) || KEY_SHAPE.test(target.name))
      throw new Error(`An audit entry for ${action} held something shaped like a key's secret; it was not written`);
    const entry: AuditEntry = {
      id: randomUUID(),
      at: isoTime(this.clock),
      actor,
      action,
      target,
      details: JSON.parse(text) as Record<string, unknown>,
    };
    await this.storage.append(entry);
    return entry;
  }

  async list(input: AuditListInput): Promise<AuditPage> {
    return this.storage.list({
      offset: input.offset,
      limit: input.limit,
      actorKind: input.actor_kind,
      actorKeyId: input.actor_key_id,
      targetKind: input.target_kind,
    });
  }
}
