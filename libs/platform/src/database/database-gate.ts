import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from '../problem/problem.filter';
import type { DatabaseMonitor } from './database-monitor';
import { DatabaseUnavailable } from './database-unavailable';

/** The readiness probe answers for itself (it names what is down); everything else is gated. */
const HEALTH_PATH = /^\/api\/v1\/health\/?(\?|$)/;

/**
 * A Fastify `onRequest` hook: while the database is known to be down, every request answers 503
 * problem+json with `Retry-After` at once. Without it each request would first wait for a
 * connection attempt of its own, and a write could get as far as the gateway before finding out.
 */
export function refuseWhileDatabaseDown(monitor: DatabaseMonitor) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (monitor.state === 'up' || HEALTH_PATH.test(request.url)) return undefined;
    sendProblem(reply, request, new DatabaseUnavailable(monitor.reason ?? 'no answer'));
    return reply;
  };
}
