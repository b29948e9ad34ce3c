import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import { scrubLogLine, scrubText } from './scrub';

/**
 * Structured JSON logs. Secrets never reach them: credentials and card fields are redacted by
 * path, request bodies are never logged at all, and every finished line is scrubbed of card
 * numbers, bank account numbers and key secrets wherever they sit (./scrub.ts, docs/logging.md).
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
 * A text as a log may show it: keys keep their prefix only (`csk_abcdefgh_[redacted]`), card numbers
 * their last four digits, named account and routing numbers nothing.
 */
export function scrubSecrets(text: string): string {
  return scrubText(text);
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'partner-payments' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
      hooks: {
        // The finished line, whatever put text in it: the request URL (a card number or a key in a
        // query string), an error's message and stack, Nest's messages, PostgreSQL's log lines.
        streamWrite: scrubLogLine,
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
