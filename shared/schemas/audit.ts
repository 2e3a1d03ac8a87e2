import { z } from 'zod';

/**
 * Who made a change: the desktop app's window, a command run on the server's machine, the browser
 * holding the one-run link the server printed, or a person (or program) with a management key.
 */
export const AuditActorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('desktop') }),
  z.object({ kind: z.literal('command_line') }),
  z.object({ kind: z.literal('ui_token') }),
  z.object({ kind: z.literal('management_key'), key_id: z.string(), key_name: z.string() }),
  // The gateway itself, on a schedule: a capture rule's retention deleting what it captured.
  z.object({ kind: z.literal('system') }),
]);
export type AuditActor = z.infer<typeof AuditActorSchema>;
export const AuditActorKindSchema = z.enum(['desktop', 'command_line', 'ui_token', 'management_key', 'system']);
export type AuditActorKind = z.infer<typeof AuditActorKindSchema>;

export const AuditActionSchema = z.enum([
  'key.create',
  'key.update_limits',
  'key.revoke',
  'set.create',
  'set.update',
  'set.delete',
  'set.restore',
  'dataset.import',
  'dataset.create',
  'dataset.update',
  'dataset.delete',
  'cascade_preset.save',
  'cascade_preset.delete',
  'capture.create',
  'capture.delete',
  'capture.expire',
]);
export type AuditAction = z.infer<typeof AuditActionSchema>;

export const AuditTargetKindSchema = z.enum(['key', 'set', 'dataset', 'cascade_preset', 'capture']);
export type AuditTargetKind = z.infer<typeof AuditTargetKindSchema>;
export const AuditTargetSchema = z.object({ kind: AuditTargetKindSchema, id: z.string(), name: z.string() });
export type AuditTarget = z.infer<typeof AuditTargetSchema>;

/** One change as the audit log keeps it. `details` never holds a secret: a key's id, name and limits, never the key. */
export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: AuditActorSchema,
  action: AuditActionSchema,
  target: AuditTargetSchema,
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AuditListInputSchema = z
  .object({
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(200).default(50),
    actor_kind: AuditActorKindSchema.optional(),
    /** Only what this management key did. */
    actor_key_id: z.string().optional(),
    target_kind: AuditTargetKindSchema.optional(),
  })
  .strict();
export type AuditListInput = z.output<typeof AuditListInputSchema>;

/** A page of the audit log, newest first, and how many entries match in all. */
export const AuditPageSchema = z.object({ total: z.number().int(), entries: z.array(AuditEntrySchema) });
export type AuditPage = z.infer<typeof AuditPageSchema>;

/** Who this browser is signed in as: a management key, or the one-run link the server printed. */
export const UiSessionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ui_token') }),
  z.object({ kind: z.literal('management_key'), key_id: z.string(), key_name: z.string(), expires_at: z.string() }),
]);
export type UiSession = z.infer<typeof UiSessionSchema>;

export const SignInInputSchema = z.object({ key: z.string().min(1, 'paste a management key') }).strict();

/** `POST /api/inspector/session` and `GET`, `DELETE` of the same path: sign-in with a management key (browser mode only). */
export const UI_SESSION_PATH = '/api/inspector/session';
