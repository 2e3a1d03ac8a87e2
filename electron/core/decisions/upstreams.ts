import type { Gateway } from '../gateway';

/**
 * What answering needs from the providers: send a chat call or a native Decisions ask to one
 * endpoint, and know that endpoint's adapter and capabilities. Nothing of planning, keys or metrics.
 */
export type Upstreams = Pick<Gateway, 'call' | 'decide' | 'adapter' | 'capabilities'>;

/**
 * What the engine is handed: the model's configuration, the plan for a request, the route that
 * walks a plan's endpoints (fallbacks, timeouts, health), and the upstreams. A request goes forward
 * from the plan to an endpoint's call and back, never through the rest of the gateway.
 */
export type EngineRoutes = Upstreams & Pick<Gateway, 'model' | 'hasNativeEndpoint' | 'plan' | 'route'>;
