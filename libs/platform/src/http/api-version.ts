import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProblemException } from '../problem/problem.filter';
import { problem } from '../problem/problem';

/**
 * The dated API versions this deployment serves, oldest first (docs/api.md, "Versions"). A
 * partner is pinned to the version current when it was created (its configuration's
 * `api_version`); a request may ask for another served version with the `Api-Version` header, as
 * Stripe's `Stripe-Version` does. Only one version exists so far, so nothing differs yet.
 */
export const API_VERSIONS = ['2026-09-01'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1];

export const API_VERSION_HEADER = 'api-version';

declare module 'fastify' {
  interface FastifyRequest {
    /** The version the request pinned with `Api-Version`, when it did. */
    pinnedApiVersion?: ApiVersion;
  }
}

function isApiVersion(value: string): value is ApiVersion {
  return (API_VERSIONS as readonly string[]).includes(value);
}

/**
 * Every answer says which version it was built for (`Api-Version`): the pinned one, else the
 * partner's own, else the current one; a request pinning a version this deployment does not serve
 * is 400 before anything else runs.
 */
export function registerApiVersion(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request: FastifyRequest) => {
    const asked = request.headers[API_VERSION_HEADER];
    if (asked === undefined) return;
    const value = Array.isArray(asked) ? asked.join(',') : asked.trim();
    if (!isApiVersion(value)) {
      const message = `must be one of ${API_VERSIONS.join(', ')} (the dated versions this API serves)`;
      throw new ProblemException(
        problem(400, 'validation_error', `Api-Version ${message}`, {
          errors: [{ field: 'Api-Version', message }],
        }),
      );
    }
    request.pinnedApiVersion = value;
  });
  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = request.principal;
    const own = principal?.kind === 'partner' ? principal.apiVersion : undefined;
    reply.header(API_VERSION_HEADER, request.pinnedApiVersion ?? own ?? CURRENT_API_VERSION);
  });
}
