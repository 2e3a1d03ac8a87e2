import { GENERIC } from '../capabilities';
import type { WireModule } from '../wire-module';
import { systemOneAdapter } from './adapter';
import { systemOneHost } from './hosts';
import { listSystemOneModels } from './listing';

/** TypeSafe's System One family: native hosts with their rows and a model listing. */
export const systemOneWire: WireModule = {
  wireFormat: 'systemone',
  adapter: systemOneAdapter,
  capabilities: () => GENERIC,
  host: systemOneHost,
  listModels: listSystemOneModels,
};
