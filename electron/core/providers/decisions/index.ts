import { GENERIC } from '../capabilities';
import type { WireModule } from '../wire-module';
import { decisionsAdapter } from './adapter';
import { gatewayHost } from './hosts';

/** Another gateway's Decisions route (the spec's `/api/alpha/decisions`): a native host family, no model listing of its own. */
export const decisionsWire: WireModule = { wireFormat: 'decisions', adapter: decisionsAdapter, capabilities: () => GENERIC, host: gatewayHost };
