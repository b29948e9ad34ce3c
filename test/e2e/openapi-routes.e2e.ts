import { execFile } from 'node:child_process';
import { ModulesContainer } from '@nestjs/core';
import { MERCHANT_STATES } from '../../libs/merchants/src/domain';
import { RouteTable } from '../../libs/platform/src/http/route-table';
import { openApiPath } from '../../libs/platform/src/openapi/openapi-document';
import { discoverRoutes } from '../../libs/platform/src/openapi/route-discovery';
import { useTestPlatform, type TestPlatform } from '../support/api';

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is JSON the test inspects freely */
type Document = {
  paths: Record<string, Record<string, any>>;
  components: Record<string, Record<string, any>>;
};

/** Another implementation's verdict on the document (swagger-parser, in a process of its own: it is ESM). */
async function swaggerParserProblems(text: string): Promise<string> {
  const script = `let s = '';
process.stdin.on('data', (d) => (s += d)).on('end', () =>
  require('@apidevtools/swagger-parser')
    .validate(JSON.parse(s))
    .then(() => console.log('valid'), (e) => console.log(e.message)));`;
  // Asynchronously: the service under test runs in this process and must keep answering.
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['-e', script], { encoding: 'utf8' }, (error, stdout) =>
      error ? reject(error) : resolve(stdout.trim()),
    );
    child.stdin!.end(text);
  });
}

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
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/terminals', '/terminals/{terminalId}']),
    );
  });

  it('is valid OpenAPI 3.1 by another implementation’s validator', async () => {
    const res = await platform().as(null).get('/openapi.json');
    expect(res.body.openapi).toBe('3.1.0');
    expect(await swaggerParserProblems(res.text!)).toBe('valid');
  });

  it('says what every operation shares: keys, Idempotency-Key, money, enums, pages, problems, sandbox, operator', async () => {
    const document = (await platform().as(null).get('/openapi.json')).body as Document;
    const { paths, components } = document;
    expect(Object.keys(components.securitySchemes).sort()).toEqual([
      'operatorKey',
      'partnerKey',
      'terminalKey',
    ]);
    expect(paths['/merchants'].get.security).toEqual([{ partnerKey: ['merchant:read'] }]);
    expect(paths['/platform/partners'].post.security).toEqual([{ operatorKey: [] }]);
    expect(paths['/terminals/{terminalId}/heartbeat'].post.security).toEqual([{ terminalKey: [] }]);
    expect(paths['/health'].get.security).toEqual([]);
    // Every write the interceptor holds to a key says so; the payer's form and the heartbeat do not.
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const key = (operation.parameters as any[]).find((p) => p.name === 'Idempotency-Key');
        const exempt = path === '/hpp/{sessionId}' || path.endsWith('/heartbeat');
        expect({ path, method, key: Boolean(key?.required) }).toEqual({
          path,
          method,
          key: ['post', 'put', 'patch'].includes(method) && !exempt,
        });
        expect(operation.responses['503']).toBeDefined();
      }
    }
    // Money is a decimal string with a pattern; the transaction list's amount is integer minor units.
    expect(components.schemas.Money).toMatchObject({ type: 'string', pattern: expect.any(String) });
    expect(new RegExp(components.schemas.Money.pattern).test('10.50')).toBe(true);
    expect(new RegExp(components.schemas.Money.pattern).test('1050')).toBe(false);
    expect(components.schemas.Transaction.properties.amount).toEqual({
      anyOf: [{ $ref: '#/components/schemas/Money' }, { type: 'null' }],
    });
    expect(components.schemas.TransactionListItem.properties.amount.type).toBe('integer');
    // Enums are the domain's own constants.
    expect(components.schemas.Merchant.properties.state.enum).toEqual([...MERCHANT_STATES]);
    // Cursor pagination on lists.
    const names = (paths['/merchants'].get.parameters as any[]).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['state', 'merchant_category_code', 'cursor', 'page_size']));
    expect(components.schemas.Pagination.required).toEqual(['next_cursor', 'has_more', 'total_count']);
    // POST /transactions: a union discriminated by type.
    const request = components.schemas.TransactionRequest;
    expect(request.oneOf.map((member: any) => member.properties.type.const)).toEqual(
      expect.arrayContaining(['SALE', 'ACH_DEBIT', 'VOID', 'REFUND', 'PARTIAL_REFUND', 'ACH_REVERSAL']),
    );
    // Errors: one Problem schema with errors[], as application/problem+json.
    expect(components.responses.Problem400.content['application/problem+json'].schema).toEqual({
      $ref: '#/components/schemas/Problem',
    });
    expect(components.schemas.Problem.properties.errors).toBeDefined();
    // Sandbox-only operations are marked; operator routes are tagged.
    expect(paths['/platform/sandbox/clock'].post['x-sandbox-only']).toBe(true);
    expect(paths['/platform/sandbox/transactions/{transactionId}/ach-return'].post['x-sandbox-only']).toBe(
      true,
    );
    expect(paths['/transactions'].post['x-sandbox-only']).toBeUndefined();
    for (const [path, item] of Object.entries(paths)) {
      for (const operation of Object.values(item)) {
        if (path.startsWith('/platform/'))
          expect({ path, tags: operation.tags }).toEqual({ path, tags: ['Platform (operator)'] });
      }
    }
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
