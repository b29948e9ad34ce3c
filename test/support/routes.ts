import type { INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, ModulesContainer } from '@nestjs/core';
import { ACCESS, type RouteAccess } from '../../libs/platform/src/auth/access';

/** A route as the app's controllers declare it. */
export interface Route {
  method: string;
  /** `/api/v1/merchants/:merchantId`. */
  path: string;
  access: RouteAccess | undefined;
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'ALL', 'OPTIONS', 'HEAD', 'SEARCH'];

/**
 * Every route of the running app, read from its controllers' metadata (the router's own source),
 * so a route added tomorrow is found by the tests that walk them.
 */
export function routesOfTheApp(app: Pick<INestApplication, 'get'>): Route[] {
  const discovery = new DiscoveryService(app.get(ModulesContainer));
  const scanner = new MetadataScanner();
  const routes: Route[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
    if (!controller) continue;
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    for (const name of scanner.getAllMethodNames(controller.prototype)) {
      const handler = (controller.prototype as Record<string, unknown>)[name] as object;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (path === undefined) continue;
      const method = METHODS[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      const access = (Reflect.getMetadata(ACCESS, handler) ?? Reflect.getMetadata(ACCESS, controller)) as
        RouteAccess | undefined;
      for (const p of Array.isArray(path) ? path : [path]) {
        const full = ['/api/v1', base, p]
          .map((part) => part.replace(/^\/+|\/+$/g, ''))
          .filter(Boolean)
          .join('/');
        routes.push({ method, path: `/${full}`, access });
      }
    }
  }
  return routes;
}

/** The path parameters of a route, in order (`/merchants/:merchantId/customers/:customerId` → both). */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
}
