import { pino, type Logger as PinoLogger, type DestinationStream } from 'pino';

export type Logger = Pick<PinoLogger, 'info' | 'warn' | 'error' | 'debug' | 'child'>;

/** Paths whose values never reach a log line, wherever they appear. */
export const REDACTED_PATHS = [
  'key',
  'secret',
  'authorization',
  '*.key',
  '*.secret',
  '*.authorization',
  'headers.authorization',
  'headers.cookie',
  'req.headers.authorization',
  'req.headers.cookie',
];

export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    { level: options.level ?? process.env['VERDICT_LOG_LEVEL'] ?? 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } },
    options.destination ?? pino.destination({ fd: 2, sync: false }),
  );
}

export const silentLogger: Logger = pino({ level: 'silent' });
