import type { Captures } from '../captures/captures';
import { actorOf, type Handlers } from './index';

type CaptureOps = Pick<Handlers, 'captures.list' | 'captures.create' | 'captures.delete' | 'captures.monitor'>;

/** What the operations on capture rules use. */
export interface CaptureDeps {
  readonly captures: Captures;
}

export function captureHandlers(core: CaptureDeps): CaptureOps {
  return {
    'captures.list': async () => core.captures.list(),
    'captures.create': async (input, context) => core.captures.create(actorOf(context, 'captures.create'), input),
    'captures.delete': async ({ id }, context) => core.captures.remove(actorOf(context, 'captures.delete'), id),
    'captures.monitor': async (input) => core.captures.monitor(input),
  };
}
