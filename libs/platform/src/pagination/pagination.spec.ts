import { ProblemException } from '../problem/problem.filter';
import { CursorCodec, pageRequest, toPage } from './pagination';

const codec = new CursorCodec('test-secret');

function problemOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemException);
    return (error as ProblemException).body;
  }
  throw new Error('expected a problem');
}

describe('pagination', () => {
  it('defaults to 25 and reads page_size 1..100', () => {
    expect(pageRequest({}, codec, 'l', 's')).toEqual({ pageSize: 25, after: null });
    expect(pageRequest({ page_size: '1' }, codec, 'l', 's').pageSize).toBe(1);
    expect(pageRequest({ page_size: '100' }, codec, 'l', 's').pageSize).toBe(100);
  });

  it.each(['0', '101', 'abc', '-1', '1.5', '', ' 5'])('refuses page_size %p', (size) => {
    expect(problemOf(() => pageRequest({ page_size: size }, codec, 'l', 's'))).toMatchObject({
      status: 400,
      code: 'validation_error',
      errors: [{ field: 'page_size' }],
    });
  });

  it('round-trips a cursor for the same list and scope', () => {
    const cursor = codec.encode('partners', 'platform', '42');
    expect(cursor.length).toBeLessThanOrEqual(256);
    expect(pageRequest({ cursor }, codec, 'partners', 'platform').after).toBe('42');
  });

  it.each([
    [
      'tampered payload',
      (c: string) =>
        Buffer.from('["partners","platform","43"]').toString('base64url') + c.slice(c.indexOf('.')),
    ],
    ['tampered mac', (c: string) => c.slice(0, -1) + (c.endsWith('A') ? 'B' : 'A')],
    ['garbage', () => 'not-a-cursor'],
    ['too long', () => 'x'.repeat(257)],
  ])('refuses a %s cursor', (_, mutate) => {
    const cursor = mutate(codec.encode('partners', 'platform', '42'));
    expect(problemOf(() => pageRequest({ cursor }, codec, 'partners', 'platform'))).toMatchObject({
      status: 400,
      errors: [{ field: 'cursor' }],
    });
  });

  it('names both page_size and cursor when both are wrong', () => {
    expect(
      problemOf(() => pageRequest({ page_size: '0', cursor: 'garbage' }, codec, 'l', 's')),
    ).toMatchObject({
      errors: [{ field: 'page_size' }, { field: 'cursor' }],
    });
  });

  it('refuses a cursor of another list, another scope or another secret', () => {
    const cursor = codec.encode('partners', 'partner:a', '42');
    expect(() => pageRequest({ cursor }, codec, 'merchants', 'partner:a')).toThrow(ProblemException);
    expect(() => pageRequest({ cursor }, codec, 'partners', 'partner:b')).toThrow(ProblemException);
    expect(() => pageRequest({ cursor }, new CursorCodec('other'), 'partners', 'partner:a')).toThrow(
      ProblemException,
    );
  });

  it('builds a page from one extra row', () => {
    const rows = [{ k: '5' }, { k: '4' }, { k: '3' }];
    const page = toPage(
      rows,
      { pageSize: 2, after: null },
      9,
      (r) => r.k,
      (r) => r.k,
      (k) => `c${k}`,
    );
    expect(page).toEqual({
      data: ['5', '4'],
      pagination: { next_cursor: 'c4', has_more: true, total_count: 9 },
    });
    const last = toPage(
      rows.slice(2),
      { pageSize: 2, after: '4' },
      9,
      (r) => r.k,
      (r) => r.k,
      (k) => k,
    );
    expect(last.pagination).toEqual({ next_cursor: null, has_more: false, total_count: 9 });
  });
});
