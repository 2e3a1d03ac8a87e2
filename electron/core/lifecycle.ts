/**
 * The core's start and stop once it is built: the simulated fleet as the settings say, discovery in
 * the background and then the evaluation runs a stopped process left running; at close, the parts
 * stopped in order.
 */
import type { Logger } from './logger';

export async function startCore(deps: {
  logger: Logger;
  options: {
    /** Ask providers for their model listings now (default true). */
    readonly discovery?: boolean | undefined;
    /** Go on with the evaluation runs a stopped process left running (default true). */
    readonly resumeEvaluations?: boolean | undefined;
  };
  refreshSandbox(): Promise<void>;
  refreshDiscovery(): Promise<unknown>;
  evalRuns: { resumeInterrupted(): Promise<number> };
  closed(): boolean;
}): Promise<void> {
  const { logger, options } = deps;
  await deps.refreshSandbox();
  const resumeEvaluations = () => {
    if (options.resumeEvaluations !== false && !deps.closed())
      void deps.evalRuns.resumeInterrupted().catch((error: unknown) => logger.error({ err: error }, 'interrupted evaluation runs not resumed'));
  };
  // Evaluation runs that were running when the process stopped go on with the items not yet
  // stored, once the models discovery finds are known.
  if (options.discovery !== false) {
    // In the background: a provider that is slow to list its models must not delay the start.
    deps
      .refreshDiscovery()
      .catch((error: unknown) => logger.warn({ err: error }, 'discovery failed'))
      .finally(() => resumeEvaluations());
  } else resumeEvaluations();
}

/**
 * Stops the parts that work, one after another, then closes those that keep data: each of these
 * closes even when one before it cannot write (its database down), so what can be kept is.
 */
export async function closeInOrder(
  logger: Logger,
  stop: readonly (() => Promise<void> | void)[],
  keep: readonly (readonly [string, () => Promise<void>])[],
): Promise<void> {
  for (const step of stop) await step();
  for (const [what, step] of keep) await step().catch((error: unknown) => logger.error({ err: error }, `${what} not closed cleanly`));
}

/**
 * Closes the core's parts in order: first what works (discovery, the evaluations, which give their
 * claims back before the storage closes so that the other instances take them at once, the fleet,
 * upstream connections, the image pool, the remote gateway, the trace exporter), then what keeps data.
 */
export async function closeCore(parts: {
  logger: Logger;
  discovery: { close(): void };
  evaluations: { close(): Promise<void> };
  sandbox: { close(): Promise<void> };
  reaching: { http: { close(): Promise<void> } };
  images: { close(): Promise<void> };
  services: { close(): Promise<void> };
  tracer: { close(): Promise<void> };
  keys: { leave(): Promise<void>; closeShared(): Promise<void> };
  captures: { close(): Promise<void> };
  routing: { metrics: { close(): Promise<void> } };
  requestLog: { close(): Promise<void> };
  storage: { close(): Promise<void> };
}): Promise<void> {
  const { discovery, evaluations, sandbox, reaching, images, services, tracer, keys, captures, routing, requestLog, storage } = parts;
  await closeInOrder(
    parts.logger,
    [
      () => discovery.close(),
      () => evaluations.close(),
      () => sandbox.close(),
      () => reaching.http.close(),
      () => images.close(),
      () => services.close(),
      () => tracer.close(),
    ],
    [
      ['presence', () => keys.leave()],
      ['captures', () => captures.close()],
      ['endpoint figures', () => routing.metrics.close()],
      ['request log', () => requestLog.close()],
      ['storage', () => storage.close()],
      ['shared admission', () => keys.closeShared()],
    ],
  );
}
