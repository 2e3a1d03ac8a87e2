import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres';

/**
 * Vitest's global setup: one PostgreSQL server for the whole unit run, which the test files share
 * (shared-postgres.ts), each in databases of its own. A server of its own per file cost about a
 * second of CPU each (its data directory copied, its start, its first database): 27 of them in a
 * run. Files that stop, crash or restart their server start one of their own (`startPostgres`).
 *
 * When no server can start, the run goes on and each file that asks for it fails with the reason.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  try {
    // Three workers' files at once, each with pools of its own (three team instances in one file).
    const server = await startPostgres({ maxConnections: 400 });
    project.provide('sharedPostgres', { url: server.url, from: server.from });
    return () => server.stop();
  } catch (error) {
    project.provide('sharedPostgres', { error: (error as Error).message });
    return () => undefined;
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    sharedPostgres: { url: string; from: string } | { error: string };
  }
}
