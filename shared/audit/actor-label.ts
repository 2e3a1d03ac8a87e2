import type { AuditActor } from '../schemas/audit';

/** Who made a change, as a person reads it: a management key by its name, else where the change came from. */
export function actorLabel(actor: AuditActor): string {
  switch (actor.kind) {
    case 'management_key':
      return actor.key_name;
    case 'desktop':
      return 'desktop app';
    case 'command_line':
      return 'command line';
    case 'ui_token':
      return 'printed link';
    case 'system':
      return 'Verdict, on a schedule';
  }
}
