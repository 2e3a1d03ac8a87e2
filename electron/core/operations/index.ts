import type { OperationName } from '../../../shared/contract/names';
import type { OperationOutput, ParsedOperationInput } from '../../../shared/contract/operations';
import type { Core } from '../core';
import { appHandlers } from './app';
import { catalogHandlers } from './catalog';
import { keyHandlers } from './keys';
import { inspectorHandlers } from './inspector';
import { evalHandlers } from './evals';
import { boxReviewHandlers } from './box-review';

export type Handlers = {
  [N in OperationName]: (input: ParsedOperationInput<N>) => Promise<OperationOutput<N>>;
};

/** What the inspector operations need from the core. */
export type HandlerDeps = Omit<Core, 'handlers'>;

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
