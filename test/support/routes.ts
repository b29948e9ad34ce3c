import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { RouteAccess } from '../../libs/platform/src/auth/access';
import { discoverRoutes } from '../../libs/platform/src/openapi/route-discovery';

/** A route as the app's controllers declare it. */
export interface Route {
  method: string;
  /** `/api/v1/merchants/:merchantId`. */
  path: string;
  access: RouteAccess | undefined;
}

/**
 * Every route of the running app, read from its controllers' metadata (the router's own source),
 * so a route added tomorrow is found by the tests that walk them: the walk that builds the
 * OpenAPI document (libs/platform/src/openapi/route-discovery.ts).
 */
export function routesOfTheApp(app: Pick<INestApplication, 'get'>): Route[] {
  return discoverRoutes(app.get(ModulesContainer)).map(({ method, path, access }) => ({
    method,
    path,
    access,
  }));
}

/** The path parameters of a route, in order (`/merchants/:merchantId/customers/:customerId` → both). */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
}
