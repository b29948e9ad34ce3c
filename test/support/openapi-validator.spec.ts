import { OpenApiValidator, type Exchange } from './openapi-validator';

/** The checker of the e2e exchanges finds what it is there to find (and nothing else). */
describe('OpenApiValidator', () => {
  const validator = new OpenApiValidator({
    openapi: '3.1.0',
    paths: {
      '/things/{thingId}': {
        get: {
          parameters: [
            { name: 'thingId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
            { name: 'page_size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          ],
          responses: {
            200: {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
            },
            404: { $ref: '#/components/responses/Problem404' },
          },
        },
      },
      '/things': {
        post: {
          parameters: [{ name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string' } }],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { n: { type: 'integer' } },
                  additionalProperties: false,
                },
              },
            },
          },
          responses: { 201: { description: 'created' } },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          properties: { amount: { type: 'string', pattern: '^[0-9]+\\.[0-9]{2}$' } },
          required: ['amount'],
          additionalProperties: false,
        },
        Problem: {
          type: 'object',
          properties: { code: { type: 'string' } },
          required: ['code'],
        },
      },
      responses: {
        Problem404: {
          description: 'not found',
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
      },
    },
  });
  const id = '00000000-0000-4000-8000-000000000000';
  const json = (status: number, body: unknown, type = 'application/json'): Partial<Exchange> => ({
    status,
    responseHeaders: new Headers({ 'content-type': type }),
    responseText: JSON.stringify(body),
  });
  const exchange = (over: Partial<Exchange>): Exchange =>
    ({
      method: 'GET',
      path: `/api/v1/things/${id}`,
      requestHeaders: {},
      requestBody: undefined,
      ...json(200, { amount: '1.00' }),
      ...over,
    }) as Exchange;

  it('passes an exchange that matches', () => {
    expect(validator.check(exchange({}))).toEqual([]);
    expect(validator.check(exchange({ path: `/api/v1/things/${id}?page_size=5` }))).toEqual([]);
    expect(
      validator.check(exchange(json(404, { code: 'thing_not_found' }, 'application/problem+json'))),
    ).toEqual([]);
  });

  it('names the route, the status and the error path of a body off its schema', () => {
    const [problem] = validator.check(exchange(json(200, { amount: 1 })));
    expect(problem).toContain(`GET /api/v1/things/${id} → 200`);
    expect(problem).toContain('/amount');
  });

  it('refuses an undeclared status, a wrong media type and a problem off its schema', () => {
    expect(validator.check(exchange(json(409, { code: 'x' }, 'application/problem+json')))[0]).toContain(
      'status 409 is not declared',
    );
    expect(validator.check(exchange(json(200, { amount: '1.00' }, 'text/plain')))[0]).toContain('media type');
    expect(validator.check(exchange(json(404, { detail: 'x' }, 'application/problem+json')))[0]).toContain(
      "must have required property 'code'",
    );
  });

  it('flags a request the document refuses only when the app accepted it', () => {
    const unknown = exchange({ path: `/api/v1/things/${id}?colour=red` });
    expect(validator.check(unknown)[0]).toContain('query parameter colour is not declared');
    expect(validator.check({ ...unknown, ...json(404, { code: 'x' }, 'application/problem+json') })).toEqual(
      [],
    );
    const write = exchange({
      method: 'POST',
      path: '/api/v1/things',
      requestBody: { n: 'one' },
      status: 201,
    });
    write.responseText = '';
    write.responseHeaders = new Headers();
    const problems = validator.check(write);
    expect(problems.join('\n')).toContain('header Idempotency-Key is required');
    expect(problems.join('\n')).toContain('request body /n must be integer');
  });

  it('expects an unknown path to answer a 404 or 405 problem', () => {
    expect(
      validator.check(
        exchange({
          path: '/api/v1/nowhere',
          ...json(404, { code: 'not_found' }, 'application/problem+json'),
        }),
      ),
    ).toEqual([]);
    expect(validator.check(exchange({ path: '/api/v1/nowhere', ...json(200, {}) }))[0]).toContain(
      'no operation',
    );
    expect(
      validator.check(
        exchange({ method: 'DELETE', ...json(404, { code: 'x' }, 'application/problem+json') }),
      )[0],
    ).toContain('not 405');
  });
});
