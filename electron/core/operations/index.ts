import type { OperationName } from '../../../shared/contract/names';
import type { OperationOutput, ParsedOperationInput } from '../../../shared/contract/operations';
import type { AuditActor } from '../../../shared/schemas/audit';
import { appHandlers, type AppDeps } from './app';
import { catalogHandlers, type CatalogDeps } from './catalog';
import { keyHandlers, type KeyDeps } from './keys';
import { inspectorHandlers, type InspectorDeps } from './inspector';
import { evalHandlers, type EvalDeps } from './evals';
import { boxReviewHandlers, type BoxReviewDeps } from './box-review';
import { captureHandlers, type CaptureDeps } from './captures';
import { reviewHandlers, type ReviewDeps } from './reviews';

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

/** What the operations use, each domain's factory naming its own part. */
export type HandlerDeps = AppDeps & KeyDeps & CatalogDeps & InspectorDeps & EvalDeps & BoxReviewDeps & CaptureDeps & ReviewDeps;

/** The implementation of every inspector operation, one factory per domain, each given what it uses. */
export function createHandlers(core: HandlerDeps): Handlers {
  return {
    ...appHandlers(core),
    ...keyHandlers(core),
    ...catalogHandlers(core),
    ...inspectorHandlers(core),
    ...evalHandlers(core),
    ...boxReviewHandlers(core),
    ...captureHandlers(core),
    ...reviewHandlers(core),
  };
}
