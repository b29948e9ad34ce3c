import { ModulesContainer } from '@nestjs/core';
import { RouteTable } from '../../libs/platform/src/http/route-table';
import { openApiPath } from '../../libs/platform/src/openapi/openapi-document';
import { discoverRoutes } from '../../libs/platform/src/openapi/route-discovery';
import { useTestPlatform, type TestPlatform } from '../support/api';

type Document = { paths: Record<string, Record<string, { 'x-sandbox-only'?: boolean; tags: string[] }>> };

/**
 * The router and the OpenAPI document agree: every route the app serves (Fastify's route table as
 * the app registered it) is an operation of `GET /api/v1/openapi.json`, and every operation is a
 * route, with and without the terminals released (CONTRACT §9: unreleased, they are absent).
 */
function routerAgreesWithDocument(platform: () => TestPlatform): () => Promise<Document> {
  return async () => {
    const { app } = platform().service;
    const undescribed = discoverRoutes(app.get(ModulesContainer))
      .filter((route) => !route.description)
      .map((route) => `${route.method} ${route.path} (${route.controller}.${route.handler})`);
    expect(undescribed).toEqual([]);

    const res = await platform().as(null).get('/openapi.json');
    expect(res.status).toBe(200);
    const document = res.body as Document;
    const served = (app.get(RouteTable) as RouteTable)
      .list()
      .filter((route) => route.method !== 'HEAD' && route.url.startsWith('/api/v1'))
      .map((route) => `${route.method} ${openApiPath(route.url)}`)
      .sort();
    const documented = Object.entries(document.paths)
      .flatMap(([path, operations]) => Object.keys(operations).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect({ servedButNotDocumented: served.filter((r) => !documented.includes(r)) }).toEqual({
      servedButNotDocumented: [],
    });
    expect({ documentedButNotServed: documented.filter((r) => !served.includes(r)) }).toEqual({
      documentedButNotServed: [],
    });
    return document;
  };
}

describe('the OpenAPI document covers the router (terminals released)', () => {
  const platform = useTestPlatform({ RELEASED_OPERATIONS: 'terminals' });

  it('every served route is an operation and every operation a served route', async () => {
    const document = await routerAgreesWithDocument(platform)();
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/terminals', '/terminals/{terminalId}']));
  });
});

describe('the OpenAPI document covers the router (terminals not released)', () => {
  const platform = useTestPlatform();

  it('agrees with the router, and no terminal path is in it', async () => {
    const document = await routerAgreesWithDocument(platform)();
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/terminals'))).toEqual([]);
    const unknown = await platform().as(null).get('/terminals');
    expect(unknown.status).toBe(404);
  });
});
