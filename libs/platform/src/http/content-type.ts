import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { ProblemException } from '../problem/problem.filter';
import { problem } from '../problem/problem';

/** Route config flag of the few routes that take an HTML form post (hosted payment pages). */
export const ACCEPTS_FORM_BODY = 'acceptsFormBody';
export const AcceptsFormBody = () => RouteConfig({ [ACCEPTS_FORM_BODY]: true });

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * The API takes JSON bodies only (spec Endpoints): any other media type is 415 before the body
 * is read. Without this, Fastify's built-in `text/plain` parser would hand the handler a string
 * and Nest's form parser an object that passes validation like a JSON body would.
 * Unknown routes are left to the 404/405 answer.
 */
export function refuseNonJsonBody(request: FastifyRequest): void {
  if (request.is404) return;
  const length = request.headers['content-length'];
  const hasBody =
    request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
  if (!hasBody) return;
  const raw = request.headers['content-type'];
  const type = (raw ?? '').split(';')[0].trim().toLowerCase();
  if (type === JSON_TYPE) return;
  const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  if (type === FORM_TYPE && config?.[ACCEPTS_FORM_BODY] === true) return;
  throw new ProblemException(
    problem(
      415,
      'unsupported_media_type',
      raw
        ? `the request body must be ${JSON_TYPE}, not ${type}`
        : `the request body must be ${JSON_TYPE}; send a Content-Type header`,
    ),
  );
}
