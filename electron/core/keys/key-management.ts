import type { AuditActor } from '../../../shared/schemas/audit';
import type { ApiKeyInfo, ApiKeyKind, ApiKeyLimits } from '../../../shared/schemas/inspector';
import type { AuditLog } from '../audit/audit-log';
import { GatewayError } from '../errors';
import type { ApiKeys } from './api-keys';

const limitsOf = (info: ApiKeyInfo): ApiKeyLimits => ({ credit_limit: info.credit_limit, rate_limit_rpm: info.rate_limit_rpm });

/**
 * Creating, changing and revoking API keys for a named actor, each change in the audit log. Every
 * entry point that manages keys comes through here (the public API, the inspector's operations, the
 * command line, the server's first start); the entries hold a key's id, name, kind and limits, never
 * its secret.
 */
export class KeyManagement {
  constructor(
    private readonly keys: ApiKeys,
    private readonly audit: AuditLog,
  ) {}

  async create(actor: AuditActor, input: { name: string; kind: ApiKeyKind } & ApiKeyLimits): Promise<{ info: ApiKeyInfo; key: string }> {
    const created = await this.keys.create(input.name, input.kind, { credit_limit: input.credit_limit, rate_limit_rpm: input.rate_limit_rpm });
    const { info } = created;
    await this.audit.record(actor, 'key.create', { kind: 'key', id: info.id, name: info.name }, { kind: info.kind, label: info.label, ...limitsOf(info) });
    return created;
  }

  /** The first key of all, made once whichever instance asks first; undefined when there was one. */
  async createFirst(actor: AuditActor, input: { name: string; kind: ApiKeyKind }): Promise<{ info: ApiKeyInfo; key: string } | undefined> {
    const created = await this.keys.createFirst(input.name, input.kind);
    if (!created) return undefined;
    const { info } = created;
    await this.audit.record(actor, 'key.create', { kind: 'key', id: info.id, name: info.name }, { kind: info.kind, label: info.label, ...limitsOf(info) });
    return created;
  }

  async updateLimits(actor: AuditActor, id: string, limits: ApiKeyLimits): Promise<ApiKeyInfo> {
    const before = await this.keys.stored(id);
    if (!before) throw new GatewayError('not_found', `No API key with id "${id}"`);
    if (before.revoked_at) throw new GatewayError('bad_request', `Key ${before.label} "${before.name}" is revoked; its limits no longer matter`);
    const after = await this.keys.updateLimits(id, limits);
    await this.audit.record(actor, 'key.update_limits', { kind: 'key', id, name: after.name }, { before: limitsOf(before), after: limitsOf(after) });
    return after;
  }

  /** Revokes a key; one already revoked is answered as it is, and nothing is logged (nothing changed). */
  async revoke(actor: AuditActor, id: string): Promise<ApiKeyInfo> {
    const before = await this.keys.stored(id);
    const after = await this.keys.revoke(id);
    if (before && !before.revoked_at) {
      await this.audit.record(
        actor,
        'key.revoke',
        { kind: 'key', id, name: after.name },
        { kind: after.kind, label: after.label, revoked_at: after.revoked_at },
      );
    }
    return after;
  }
}
