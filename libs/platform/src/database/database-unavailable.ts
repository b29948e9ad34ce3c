import { DomainError } from '../problem/domain-error';

/**
 * How long a client is asked to wait while the database is unreachable. Short: the embedded
 * database is restarted within seconds, and the answer is the same 503 until it is back.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** Raised without touching the database once it is known to be down (503, retryable). */
export class DatabaseUnavailable extends DomainError {
  readonly code = 'service_unavailable';
  override readonly retryable = true;

  constructor(readonly reason: string) {
    super(`the database is unreachable (${reason}); retry after the Retry-After delay`);
  }
}

// SQLSTATE class 08 (connection exception), 57P01-57P03 (the server shutting down, crashed and
// recovering, or starting up) and class 53 (out of connections, memory or disk).
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53[0-9A-Z]{3})$/;
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);
// The KurrentDB client's own errors for a node it cannot reach, one that did not answer in time,
// or one that is no longer the leader (a retry reaches the new one): their `type`.
const UNAVAILABLE_KURRENTDB_TYPES = new Set(['unavailable', 'deadline-exceeded', 'not-leader']);
// gRPC status codes the KurrentDB client passes through unwrapped (with the status's `details`):
// 14 UNAVAILABLE, 4 DEADLINE_EXCEEDED.
const UNAVAILABLE_GRPC_CODES = new Set([14, 4]);
// What `pg` and its pool say when the socket went away or never came.
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|is not queryable|Cannot use a pool after calling end/i;

/**
 * Whether an error says "the database (or the KurrentDB event store) cannot be reached right now" rather than "this query is
 * wrong". Looks through the wrappers the drivers put around the socket's error: TypeORM's
 * `driverError`, `cause`, and the AggregateError of a connect that tried several addresses.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  if (error instanceof DatabaseUnavailable) return true;
  const { code, type, details, message, driverError, cause, errors, address } = error as {
    code?: unknown;
    type?: unknown;
    details?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
    address?: unknown;
  };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_NODE_CODES.has(code))) {
    return true;
  }
  // A server's Unix socket is gone while it is down (a clean stop removes it).
  if (code === 'ENOENT' && typeof address === 'string' && address.includes('.s.PGSQL.')) return true;
  if (typeof type === 'string' && UNAVAILABLE_KURRENTDB_TYPES.has(type)) return true;
  if (typeof code === 'number' && typeof details === 'string' && UNAVAILABLE_GRPC_CODES.has(code))
    return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(driverError, depth + 1) || isDatabaseUnavailable(cause, depth + 1);
}
