/**
 * The gateway core's face: the one core file the hosts (the server, its command lines and the
 * Electron main process) import, so what they may use of the core is listed here and nowhere else
 * (ESLint holds it). Types are re-exported freely; values are only those the hosts use, each from
 * the module that already holds it. Heavy packages (pg, ioredis, undici, piscina, image libraries,
 * prom-client) stay behind `await import()` or `onFirstUse` in their modules, so importing the face
 * loads no more than importing those modules did.
 */

// The core itself: made once per process by the composition root.
export type { Core, CoreOptions } from './core';
export { createCore, DATABASE_FILE } from './create-core';
export type { Handlers, OperationContext } from './operations';
export { dispatch } from './dispatch';

// What every host passes in or builds around the core.
export { systemClock, isoTime, type Clock } from './clock';
export { createLogger, silentLogger, type Logger } from './logger';
export { FileSecretStore, ownerOnlyFileCodec, type SecretCodec, type SecretStore } from './keys/secret-store';
export { Cancellation, type CancelSignal } from './cancel';
export { onFirstUse } from './on-first-use';

// Errors and input checks at the hosts' trust boundaries.
export { GatewayError, isGatewayError } from './errors';
export { jsonTextTooDeepAt, MAX_JSON_DEPTH } from './json-depth';
export { isBase64 } from './decisions/state';
export { parseOrBadRequest, parseStrictOrBadRequest, refuseReservedKeys } from './validation';

// Storage, as the server's options and the `store` command see it.
export { isPostgresUrl, openPlace } from './store/open';
export { redactUrl } from './store/redact';
export { StorageUnavailable, type Storage } from './store/ports';
export { copyStore, CopyRefused, TABLES, type CopyCounts } from './store/copy';
export type { PgOptions } from './store/postgres/database';
export { RequestLog, REQUEST_LOG_DIR } from './public-api/request-log';

// Options of the parts the server configures.
export { collectorFromEnv, type OtlpCollector } from './trace/otlp';
export type { ImageFetchOptions } from './decisions/image-fetch';
export type { FleetOptions } from './sandbox/fleet';

// Keys and sign-ins.
export type { VerifiedKey } from './keys/api-keys';
export { SESSION_LIFETIME_MS } from './audit/ui-sessions';
export { auditedImport } from './audit/audited';

// The public API's shapes and answering one call.
export { SHAPES, alphaShape } from './public-api/shapes';
export type { PublicShape } from './public-api/shape';
export { answerShape } from './public-api/answer-shape';
export { GatewayDecisionRequestSchema, GatewayDecisionResponseSchema, GatewayErrorBodySchema } from './public-api/shapes/ai-gateway-protocol';

// Datasets from files and uploads.
export { asResult, importPath, importUpload } from './datasets/dataset-upload';
export { fileRows, formatOf } from './datasets/dataset-sources';

// Evaluations as the eval command line runs and reports them.
export { usdText } from './evaluations/sending/budget';
export { ciReport, type BaselineSource, type CiReport } from './evaluations/reports/ci-report';
export { onThresholdGrid } from './evaluations/reports/at-threshold';
export { parseGates, parseRegressionMetrics, type GateSpec } from './evaluations/reports/gate-specs';
export { MIN_FINAL_N } from './evaluations/reports/report';
export { pickPoint } from './evaluations/reports/cascade-curve';
export { formatCurve } from './evaluations/reports/cascade-curve-text';
export { junitXml } from './evaluations/reports/junit';
export { markdownSummary, SUMMARY_LIMIT } from './evaluations/reports/markdown';
export { formatTable, resultLine } from './evaluations/reports/results-export';
export { setKey } from './evaluations/calibration/calibrations';
export type { FinishedResult } from './evaluations/runs/run-book';
export type { StoredEvalRun } from './evaluations/runs/storage';
