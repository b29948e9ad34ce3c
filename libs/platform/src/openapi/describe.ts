import { SetMetadata } from '@nestjs/common';
import type { z } from 'zod';
import type { QueryDoc } from '../http/strict-query';

/**
 * What a route says about itself for the OpenAPI document (docs/adr/0007-openapi-from-code.md).
 * Method, path, access tier, scope, feature flag, success status, path parameters and a DTO body
 * are read from the route's own decorators; this adds what they cannot say. A route without it
 * fails the router test (test/e2e/openapi-routes.e2e.ts).
 */
export interface RouteDescription {
  /** One line, imperative or noun phrase: "Create a merchant". */
  summary: string;
  description?: string;
  /**
   * The success answer: a zod schema of its JSON body, `null` for no body (204, 202 without
   * one), or another media type (`{ mediaType: 'text/csv' }`).
   */
  response:
    | z.ZodType
    | null
    | { mediaType: string | readonly string[]; description?: string; schema?: Record<string, unknown> };
  /** Other success answers a route gives (a 303 redirect…), by status. */
  otherResponses?: Record<number, { description: string; schema?: z.ZodType; mediaType?: string }>;
  /**
   * Problem statuses this route answers besides those every route of its kind may give (see
   * `commonErrorStatuses`): 404 for a record that is not found, 409, 422, 501, 502…
   */
  errors?: readonly number[];
  /** A JSON body parsed by hand with this schema (a `@Body()` DTO class describes itself). */
  body?: z.ZodType;
  /** A body in another media type (the payer's form): its schema and media type. */
  form?: { mediaType: string; schema: z.ZodType };
  /** The query string the handler reads with `strictQuery` (the same spec object). */
  query?: QueryDoc;
  /** Whether the read takes `cursor` and `page_size` (a cursor-paged list). */
  paged?: boolean;
  /** Exists only in sandbox (`x-sandbox-only: true`); production answers 404. */
  sandboxOnly?: boolean;
  /** A page for people (the payer's hosted page): its refusals are HTML pages, not problem+json. */
  htmlErrors?: boolean;
  /** Grouping in the reference page; by default the first path segment. */
  tag?: string;
}

export const ROUTE_DESCRIPTION = 'openapi:route-description';

/** Describes a route for the OpenAPI document. */
export const Describe = (description: RouteDescription) => SetMetadata(ROUTE_DESCRIPTION, description);
