import { ProblemException } from '../problem/problem.filter';
import { queryErrors, queryParam, strictQuery } from './strict-query';

const STATES = ['ACTIVE', 'REVOKED'] as const;
const spec = {
  state: queryParam.oneOf(STATES),
  customer_id: queryParam.uuid(),
  limit: queryParam.wholeNumber(1, 1000),
  reason: queryParam.text(10, { blankIsAbsent: true }),
};
const fields = (query: Record<string, unknown>, options?: { paged?: boolean }) =>
  queryErrors(query, spec, options).errors.map((error) => error.field);

describe('strictQuery', () => {
  it('reads the declared parameters; absent ones are undefined', () =>
    expect(
      strictQuery({ state: 'REVOKED', customer_id: 'A0000000-0000-4000-8000-000000000000' }, spec),
    ).toEqual({
      state: 'REVOKED',
      customer_id: 'a0000000-0000-4000-8000-000000000000',
    }));

  it.each<[string, Record<string, unknown>, string[]]>([
    ['an unknown parameter', { amount_min: 'NaN' }, ['amount_min']],
    ['a misspelt filter', { sate: 'ACTIVE' }, ['sate']],
    ['an injection attempt', { merchant_id: "' OR 1=1--" }, ['merchant_id']],
    ['a malformed value', { customer_id: "' OR 1=1--" }, ['customer_id']],
    ['an unknown enum value', { state: 'active' }, ['state']],
    ['a blank value', { state: '' }, ['state']],
    ['a blank-looking value', { state: '   ' }, ['state']],
    ['a repeated parameter', { state: ['ACTIVE', 'REVOKED'] }, ['state']],
    ['a number out of range', { limit: '0' }, ['limit']],
    ['a number that is not plain digits', { limit: '1e3' }, ['limit']],
    ['a control character', { reason: 'a\u001bb' }, ['reason']],
    ['a bidi override', { reason: 'a\u202eb' }, ['reason']],
    ['free text too long', { reason: 'x'.repeat(11) }, ['reason']],
    ['everything at once', { x: '1', state: '', limit: 'many' }, ['x', 'state', 'limit']],
  ])('refuses %s, naming it', (_case, query, expected) =>
    expect(fields(query).sort()).toEqual(expected.sort()),
  );

  it('lets cursor and page_size through on a paged read (pageRequest checks them)', () =>
    expect(fields({ cursor: 'x', page_size: '5' })).toEqual([]));

  it('refuses cursor and page_size on a read that is not paged', () =>
    expect(fields({ cursor: 'x', page_size: '5' }, { paged: false }).sort()).toEqual([
      'cursor',
      'page_size',
    ]));

  it('reads a blank free-text note as not given when the parameter says so', () =>
    expect(strictQuery({ reason: '  ' }, spec)).toEqual({}));

  it('throws one 400 validation_error naming every bad parameter', () => {
    try {
      strictQuery({ nope: '1', state: 'x' }, spec);
      throw new Error('expected a problem');
    } catch (error) {
      expect(error).toBeInstanceOf(ProblemException);
      const body = (error as ProblemException).body;
      expect(body).toMatchObject({ status: 400, code: 'validation_error' });
      expect(body.errors?.map((e) => e.field).sort()).toEqual(['nope', 'state']);
    }
  });

  it('does not echo control or bidi characters of an unknown name', () =>
    expect(queryErrors({ 'a\u001b[31mb\u202e': '1' }, spec).errors[0].field).toBe('a\uFFFD[31mb\uFFFD'));

  it('echoes a huge unknown name only in part', () => {
    const [error] = queryErrors({ ['n'.repeat(5000)]: '1' }, spec).errors;
    expect([...error.field].length).toBeLessThanOrEqual(101);
  });
});
