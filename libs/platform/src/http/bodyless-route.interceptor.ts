import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { ProblemException } from '../problem/problem.filter';
import { problem } from '../problem/problem';

/** Whether a handler declares a `@Body()` parameter (the only way a handler here reads a body). */
export function takesBody(controller: object, handler: string): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler) ?? {}) as Record<
    string,
    unknown
  >;
  return Object.keys(args).some((key) => Number(key.split(':')[0]) === RouteParamtypes.BODY);
}

/**
 * An action that takes no body (submit, rotate a key, cancel a session…) refuses one that has
 * fields, as every route refuses fields it does not know (CONTRACT §7: 400 `validation_error`).
 * Without this a stray field would be ignored and the action run anyway. Runs inside the
 * idempotency interceptor, so the refusal is the key's answer like any other validation error.
 */
@Injectable()
export class BodylessRouteInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const body = request.body;
    const empty =
      body === undefined ||
      body === null ||
      (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
    if (empty || takesBody(context.getClass(), context.getHandler().name)) return next.handle();
    const fields =
      typeof body === 'object' && !Array.isArray(body)
        ? Object.keys(body as object).map((field) => ({
            field,
            message: 'is not a field of this action (it takes no body)',
          }))
        : [{ field: 'body', message: 'must be empty: this action takes no body' }];
    throw new ProblemException(
      problem(400, 'validation_error', 'this action takes no body', { errors: fields }),
    );
  }
}
