import { startSandboxFleet } from '../core/sandbox/fleet';

/**
 * The simulated providers in a process of their own, answering at once, so that a benchmark
 * of the gateway measures the gateway and not the simulation. Prints its catalog as JSON.
 */
const fleet = await startSandboxFleet({ seed: 11, failures: false, timeScale: 0 });
process.stdout.write(`${JSON.stringify(fleet.catalog)}\n`);
process.on('SIGTERM', () => void fleet.close().then(() => process.exit(0)));
