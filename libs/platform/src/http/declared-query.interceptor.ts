import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { ROUTE_DESCRIPTION, type RouteDescription } from '../openapi/describe';
import { validationProblem } from '../validation/validation.pipe';
import { declaredQueryErrors } from './strict-query';

/**
 * Every operation refuses the query parameters its OpenAPI operation does not declare, as the
 * lists always did (docs/input.md, "Query strings"): 400 `validation_error` naming each one, in
 * strict-query.ts's words. What a route declares is read from its `@Describe()` (`query`,
 * `paged`), the description the document is built from, so the document and the check cannot
 * disagree. A route that reads declared parameters with `strictQuery` has their bad values named
 * in the same answer; its own read still checks them when nothing undeclared came.
 *
 * Pages people open in a browser and the health probe (`ignoresUnknownQuery`) are left alone.
 * Runs after the auth guard (an unauthenticated call is 401 whatever its query) and inside the
 * idempotency interceptor, so on a write the refusal is the key's answer like any validation error.
 */
@Injectable()
export class DeclaredQueryInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const description = Reflect.getMetadata(ROUTE_DESCRIPTION, context.getHandler()) as
      RouteDescription | undefined;
    if (description?.ignoresUnknownQuery) return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const errors = declaredQueryErrors(
      request.query as Record<string, unknown> | undefined,
      description?.query ?? {},
      { paged: description?.paged ?? false },
    );
    if (errors) throw validationProblem(errors);
    return next.handle();
  }
}
