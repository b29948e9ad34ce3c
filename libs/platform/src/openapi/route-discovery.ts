import {
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { DiscoveryService, MetadataScanner, type ModulesContainer } from '@nestjs/core';
import { ACCESS, FEATURE, type RouteAccess } from '../auth/access';
import { UuidParam } from '../http/uuid-param.pipe';
import { NO_IDEMPOTENCY_HEADER } from '../idempotency/idempotency.interceptor';
import { API_PREFIX, isWrite, type DiscoveredRoute } from './openapi-document';
import { ROUTE_DESCRIPTION, type RouteDescription } from './describe';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'ALL', 'OPTIONS', 'HEAD', 'SEARCH'];

type Handler = (...args: unknown[]) => unknown;
type ArgMetadata = { index: number; data?: unknown; pipes?: unknown[] };

/**
 * Every route of the running app, as Nest discovered its controllers (the same walk the router
 * test compares with Fastify's route table), with what each route's decorators say.
 */
export function discoverRoutes(modules: ModulesContainer): DiscoveredRoute[] {
  const discovery = new DiscoveryService(modules);
  const scanner = new MetadataScanner();
  const routes: DiscoveredRoute[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
    if (!controller) continue;
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    const prototype = controller.prototype as Record<string, Handler>;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name];
      const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (paths === undefined) continue;
      const method = METHODS[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
        string,
        ArgMetadata
      >;
      const paramTypes = (Reflect.getMetadata('design:paramtypes', controller.prototype, name) ??
        []) as unknown[];
      const pipesOf: Record<string, unknown[]> = {};
      let bodyIndex: number | undefined;
      for (const [key, arg] of Object.entries(args)) {
        const type = Number(key.split(':')[0]);
        if (type === RouteParamtypes.PARAM && typeof arg.data === 'string')
          pipesOf[arg.data] = arg.pipes ?? [];
        if (type === RouteParamtypes.BODY) bodyIndex = arg.index;
      }
      const bodyType = bodyIndex === undefined ? undefined : paramTypes[bodyIndex];
      for (const p of Array.isArray(paths) ? paths : [paths]) {
        const path = `/${[API_PREFIX, base, p]
          .map((part) => part.replace(/^\/+|\/+$/g, ''))
          .filter(Boolean)
          .join('/')}`;
        const pathParams = [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => ({
          name: match[1],
          uuid: (pipesOf[match[1]] ?? []).includes(UuidParam),
        }));
        routes.push({
          method,
          path,
          controller: controller.name,
          handler: name,
          access: (Reflect.getMetadata(ACCESS, handler) ?? Reflect.getMetadata(ACCESS, controller)) as
            RouteAccess | undefined,
          feature: (Reflect.getMetadata(FEATURE, handler) ?? Reflect.getMetadata(FEATURE, controller)) as
            string | undefined,
          description: Reflect.getMetadata(ROUTE_DESCRIPTION, handler) as RouteDescription | undefined,
          successStatus:
            (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ??
            (method === 'POST' ? 201 : 200),
          bodyType: isDtoClass(bodyType) ? bodyType : undefined,
          takesBody: bodyIndex !== undefined,
          idempotencyKey:
            isWrite(method) &&
            !(
              Reflect.getMetadata(NO_IDEMPOTENCY_HEADER, handler) ??
              Reflect.getMetadata(NO_IDEMPOTENCY_HEADER, controller)
            ),
          pathParams,
        });
      }
    }
  }
  return routes;
}

function isDtoClass(type: unknown): type is new (...args: never[]) => unknown {
  return typeof type === 'function' && type !== Object && type !== String && type !== Array;
}
