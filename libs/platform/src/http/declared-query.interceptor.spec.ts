import 'reflect-metadata';
import { Controller, Delete, Get, Module, Post, Query } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Describe } from '../openapi/describe';
import { ProblemFilter } from '../problem/problem.filter';
import { DeclaredQueryInterceptor } from './declared-query.interceptor';
import { queryParam, strictQuery } from './strict-query';

const STATE_QUERY = { state: queryParam.oneOf(['ACTIVE', 'REVOKED']) };
/** Declared by its documentation only: the route parses it itself. */
const DOC_ONLY_QUERY = { merchant_id: { schema: { type: 'string', format: 'uuid' } } };

/** What each route ran with: a refused request never reaches its handler. */
const ran: string[] = [];

@Controller()
class RoutesController {
  @Get('record')
  @Describe({ summary: 'A record', response: null })
  record() {
    ran.push('record');
    return { ok: true };
  }

  @Post('record/cancel')
  @Describe({ summary: 'An action', response: null })
  cancel() {
    ran.push('cancel');
    return { ok: true };
  }

  @Delete('record')
  @Describe({ summary: 'A removal that takes a note', response: null, query: STATE_QUERY })
  remove(@Query() query: Record<string, unknown>) {
    ran.push('remove');
    return strictQuery(query, STATE_QUERY, { paged: false });
  }

  @Get('list')
  @Describe({ summary: 'A paged list', response: null, query: STATE_QUERY, paged: true })
  list(@Query() query: Record<string, unknown>) {
    ran.push('list');
    return strictQuery(query, STATE_QUERY);
  }

  @Get('documented')
  @Describe({ summary: 'A read parsing its own filter', response: null, query: DOC_ONLY_QUERY })
  documented() {
    ran.push('documented');
    return { ok: true };
  }

  @Get('page')
  @Describe({ summary: 'A page for people', response: null, ignoresUnknownQuery: true })
  page() {
    ran.push('page');
    return { ok: true };
  }

  @Get('undescribed')
  undescribed() {
    ran.push('undescribed');
    return { ok: true };
  }
}

@Module({
  controllers: [RoutesController],
  providers: [
    { provide: APP_FILTER, useClass: ProblemFilter },
    { provide: APP_INTERCEPTOR, useClass: DeclaredQueryInterceptor },
  ],
})
class DeclaredQueryTestModule {}

describe('DeclaredQueryInterceptor', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(DeclaredQueryTestModule, new FastifyAdapter(), {
      logger: false,
    });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });
  afterAll(() => app.close());
  beforeEach(() => {
    ran.length = 0;
  });

  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string) => {
    const res = await app.inject({ method, url });
    return { status: res.statusCode, type: String(res.headers['content-type']), body: res.json() };
  };

  it.each<[string, 'GET' | 'POST' | 'DELETE', string, string]>([
    ['a read', 'GET', '/record?amount=o', 'amount'],
    ['an action', 'POST', '/record/cancel?limit=x', 'limit'],
    ['a removal that declares another parameter', 'DELETE', '/record?reason=gone', 'reason'],
    ['a name that is an object key of JavaScript', 'GET', '/record?__proto__=x', '__proto__'],
    ['a name with brackets', 'GET', '/record?state[]=ACTIVE', 'state[]'],
    ['a name without a value', 'GET', '/record?debug', 'debug'],
    ['a name given twice', 'GET', '/record?id=1&id=2', 'id'],
    ['paging on a read that is not paged', 'GET', '/record?page_size=5', 'page_size'],
    ['a route without a description', 'GET', '/undescribed?x=1', 'x'],
  ])(
    'refuses an undeclared parameter on %s: 400 validation_error naming it, the handler not run',
    async (_case, method, url, field) => {
      const res = await call(method, url);
      expect(res.status).toBe(400);
      expect(res.type).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 400, code: 'validation_error' });
      expect(res.body.errors).toEqual([
        { field, message: expect.stringMatching(/^is not a known parameter/) },
      ]);
      expect(ran).toEqual([]);
    },
  );

  it('says why paging is unknown on a read that is not paged, as the lists do', async () =>
    expect((await call('GET', '/record?cursor=abc')).body.errors).toEqual([
      { field: 'cursor', message: 'is not a known parameter (this read is not paged)' },
    ]));

  it('names every undeclared parameter of one request', async () =>
    expect(
      (await call('GET', '/record?a=1&b=2&c=3')).body.errors.map((e: { field: string }) => e.field),
    ).toEqual(['a', 'b', 'c']));

  it('names the bad values of the declared parameters in the same answer', async () => {
    const res = await call('GET', '/list?nope=1&state=active&page_size=5');
    expect(res.body.errors).toEqual([
      { field: 'nope', message: 'is not a known parameter' },
      { field: 'state', message: 'must be one of ACTIVE, REVOKED' },
    ]);
    expect(ran).toEqual([]);
  });

  it('leaves a parameter declared by its documentation only to the route', async () => {
    expect((await call('GET', '/documented?merchant_id=x&nope=1')).body.errors).toEqual([
      { field: 'nope', message: 'is not a known parameter' },
    ]);
    expect((await call('GET', '/documented?merchant_id=x')).status).toBe(200);
  });

  it.each([
    ['GET', '/record'],
    ['POST', '/record/cancel'],
    ['DELETE', '/record?state=REVOKED'],
    ['GET', '/list?state=ACTIVE&cursor=abc&page_size=5'],
    ['GET', '/documented?merchant_id=x'],
  ] as const)('lets %s %s through: every parameter is declared', async (method, url) => {
    expect((await call(method, url)).status).toBeLessThan(300);
    expect(ran).toHaveLength(1);
  });

  it('leaves the values of a request with nothing undeclared to the route’s own read', async () => {
    const res = await call('DELETE', '/record?state=active');
    expect(res.body.errors).toEqual([{ field: 'state', message: 'must be one of ACTIVE, REVOKED' }]);
    expect(ran).toEqual(['remove']);
  });

  it('lets a page for people ignore what it does not declare (utm_source, a cache-buster)', async () => {
    expect((await call('GET', '/page?utm_source=mail&_=1700000000')).status).toBe(200);
    expect(ran).toEqual(['page']);
  });

  it('echoes neither control characters nor a huge name', async () => {
    const [control] = (await call('GET', '/record?a%1Bb%E2%80%AE=1')).body.errors;
    expect(control.field).toBe('a\uFFFDb\uFFFD');
    const [huge] = (await call('GET', `/record?${'n'.repeat(5000)}=1`)).body.errors;
    expect([...huge.field].length).toBeLessThanOrEqual(101);
  });
});
