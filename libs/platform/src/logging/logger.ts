import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs. Secrets never reach them: credentials, idempotency-bound bodies and card
 * fields are redacted by path, and request bodies are never logged at all.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'headers.authorization',
  'authorization',
  'password',
  'secret',
  'api_key',
  'card_number',
  'cvc',
  'account_number',
  '*.password',
  '*.secret',
  '*.api_key',
  '*.card_number',
  '*.cvc',
  '*.account_number',
];

/**
 * A partner or operator key anywhere in a text (`csk_<prefix>_<secret>`, `cop_…`): the prefix
 * stays, as the spec allows in logs; the secret goes.
 */
const KEY_IN_TEXT = /\b(c(?:sk|op)_[A-Za-z0-9_-]{8})_[A-Za-z0-9_-]{16,}/g;

export function scrubSecrets(text: string): string {
  return text.replace(KEY_IN_TEXT, '$1_[redacted]');
}

/**
 * The request line as logged: a caller who puts a key in the query string (`?api_key=…`) is
 * refused with 401, and the key must not reach the log on the way.
 */
function scrubRequest(log: Record<string, unknown>): Record<string, unknown> {
  const req = log.req as { url?: unknown } | undefined;
  if (req && typeof req === 'object' && typeof req.url === 'string') {
    return { ...log, req: { ...req, url: scrubSecrets(req.url) } };
  }
  return log;
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'partner-payments' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }), log: scrubRequest },
      hooks: {
        // Messages are text too (an error message may quote a URL).
        logMethod(args, method) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? scrubSecrets(arg) : arg)) as Parameters<
              typeof method
            >,
          );
        },
      },
    },
    destination,
  );
}

/** Nest's own messages (module wiring, route mapping) go through the same JSON logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
