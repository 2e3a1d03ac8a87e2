import type { OperationName } from '../../../shared/contract/names';
import type { OperationOutput, ParsedOperationInput } from '../../../shared/contract/operations';
import type { AuditActor } from '../../../shared/schemas/audit';
import type { Core } from '../core';
import type { DatasetBackup } from '../datasets/dataset-backup';
import { appHandlers } from './app';
import { catalogHandlers } from './catalog';
import { keyHandlers } from './keys';
import { inspectorHandlers } from './inspector';
import { evalHandlers } from './evals';
import { boxReviewHandlers } from './box-review';

/** What an operation knows of its call besides the input: who asked (named in the audit log when it changes something). */
export interface OperationContext {
  actor: AuditActor;
}

export type Handlers = {
  [N in OperationName]: (input: ParsedOperationInput<N>, context?: OperationContext) => Promise<OperationOutput<N>>;
};

/** The actor of a change; every host passes one through `dispatch`, so a call without one is a caller's bug. */
export function actorOf(context: OperationContext | undefined, operation: OperationName): AuditActor {
  if (!context) throw new Error(`${operation} changes data and was called without an actor for the audit log`);
  return context.actor;
}

/** What the inspector operations need from the core. */
export type HandlerDeps = Omit<Core, 'handlers'> & { readonly datasetBackup: DatasetBackup };

/** The implementation of every inspector operation, one module per domain. */
export function createHandlers(core: HandlerDeps): Handlers {
  return {
    ...appHandlers(core),
    ...keyHandlers(core),
    ...catalogHandlers(core),
    ...inspectorHandlers(core),
    ...evalHandlers(core),
    ...boxReviewHandlers(core),
  };
}
