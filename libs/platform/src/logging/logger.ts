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

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'partner-payments' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
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
