/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are JSON the tests inspect freely */
import { useTestPlatform } from '../support/api';
import { expectProblemDetails } from '../support/problems';

/**
 * List pagination on `GET /platform/partners` (spec Endpoints and Limits): `page_size` 1 to 100
 * (default 25), an opaque signed `cursor` of at most 256 characters, newest first, and stable
 * while rows are added.
 */
describe('pagination of GET /platform/partners', () => {
  const platform = useTestPlatform();
  const operator = () => platform().operator;

  /** The partners created by this suite, oldest first. */
  const created: string[] = [];
  const INITIAL = 28;
  let counter = 0;

  async function createPartner(): Promise<string> {
    const n = ++counter;
    const res = await operator().post('/platform/partners', {
      name: `Paged Partner ${String(n).padStart(3, '0')}`,
      contact_email: `paged-${n}@example.test`,
      contact_name: 'Page Turner',
    });
    if (res.status !== 201) throw new Error(`partner create: ${JSON.stringify(res.body)}`);
    return res.body.id;
  }

  beforeAll(async () => {
    // One by one, so their order (newest first = reverse of creation) is known.
    for (let i = 0; i < INITIAL; i++) created.push(await createPartner());
  }, 60_000);

  const list = (query = '') => operator().get(`/platform/partners${query ? `?${query}` : ''}`);

  function expectPage(body: any): void {
    expect(Object.keys(body).sort()).toEqual(['data', 'pagination']);
    expect(Object.keys(body.pagination).sort()).toEqual(['has_more', 'next_cursor', 'total_count']);
    expect(Array.isArray(body.data)).toBe(true);
    expect(typeof body.pagination.has_more).toBe('boolean');
    expect(typeof body.pagination.total_count).toBe('number');
    if (body.pagination.has_more) {
      expect(typeof body.pagination.next_cursor).toBe('string');
      expect(body.pagination.next_cursor.length).toBeLessThanOrEqual(256);
    } else {
      expect(body.pagination.next_cursor).toBeNull();
    }
  }

  /** Follows next_cursor to the end, calling `between` after each page. */
  async function walk(pageSize: number, between: (page: number) => Promise<void> = async () => {}) {
    const ids: string[] = [];
    const totals: number[] = [];
    let cursor: string | null = null;
    for (let page = 1; page <= 100; page++) {
      const query: string = `page_size=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await list(query);
      expect(res.status).toBe(200);
      expectPage(res.body);
      ids.push(...res.body.data.map((p: any) => p.id));
      totals.push(res.body.pagination.total_count);
      if (!res.body.pagination.has_more) {
        expect(res.body.data.length).toBeLessThanOrEqual(pageSize);
        return { ids, totals, pages: page };
      }
      expect(res.body.data).toHaveLength(pageSize);
      cursor = res.body.pagination.next_cursor;
      await between(page);
    }
    throw new Error('the walk did not end');
  }

  it('answers {data, pagination: {next_cursor, has_more, total_count}} with 25 items by default', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expectPage(res.body);
    expect(res.body.data).toHaveLength(25);
    expect(res.body.pagination.has_more).toBe(true);
    expect(res.body.pagination.total_count).toBe(INITIAL);
    expect(res.body.data.map((p: any) => p.id)).toEqual([...created].reverse().slice(0, 25));
    expect(res.body.data[0]).toMatchObject({
      id: created[created.length - 1],
      name: `Paged Partner ${String(INITIAL).padStart(3, '0')}`,
      contact_email: `paged-${INITIAL}@example.test`,
      state: expect.any(String),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('takes page_size 1', async () => {
    const res = await list('page_size=1');
    expect(res.status).toBe(200);
    expectPage(res.body);
    expect(res.body.data.map((p: any) => p.id)).toEqual([created[created.length - 1]]);
    expect(res.body.pagination).toMatchObject({ has_more: true, total_count: INITIAL });
  });

  it('takes page_size 100 and then has no more', async () => {
    const res = await list('page_size=100');
    expect(res.status).toBe(200);
    expectPage(res.body);
    expect(res.body.data.map((p: any) => p.id)).toEqual([...created].reverse());
    expect(res.body.pagination).toEqual({ next_cursor: null, has_more: false, total_count: INITIAL });
  });

  it('says has_more false when the page is exactly full', async () => {
    const res = await list(`page_size=${INITIAL}`);
    expect(res.body.data).toHaveLength(INITIAL);
    expect(res.body.pagination).toEqual({ next_cursor: null, has_more: false, total_count: INITIAL });
  });

  it.each([['0'], ['101'], ['abc'], ['1.5'], ['-1'], [''], ['1e1'], ['0x10'], ['25&page_size=26']])(
    'refuses page_size=%s with 400 naming page_size',
    async (value) => {
      const res = await list(`page_size=${value}`);
      expectProblemDetails(res, {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [{ field: 'page_size', message: 'must be a whole number from 1 to 100' }],
      });
    },
  );

  it('walks every partner exactly once, newest first, with page_size 2', async () => {
    const { ids, totals, pages } = await walk(2);
    expect(ids).toEqual([...created].reverse());
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toBe(Math.ceil(INITIAL / 2));
    expect(new Set(totals)).toEqual(new Set([INITIAL]));
  });

  it('walks an odd page size to a short last page', async () => {
    const { ids, pages } = await walk(5);
    expect(ids).toEqual([...created].reverse());
    expect(pages).toBe(Math.ceil(INITIAL / 5));
  });

  it('neither skips nor repeats a partner when new ones are created while paging', async () => {
    const originals = [...created].reverse();
    const added: string[] = [];
    const { ids, totals } = await walk(3, async (page) => {
      if (page <= 3) added.push(await createPartner(), await createPartner());
    });
    created.push(...added);
    expect(added).toHaveLength(6);
    // Each original exactly once and in order; the new ones are above page one, so not in this walk.
    expect(ids).toEqual(originals);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of added) expect(ids).not.toContain(id);
    // total_count follows the list as it grows.
    expect(totals[0]).toBe(originals.length);
    expect(totals[totals.length - 1]).toBe(originals.length + added.length);
    // A fresh walk sees them all, newest first.
    expect((await walk(10)).ids).toEqual([...created].reverse());
  });

  describe('cursors', () => {
    async function aCursor(): Promise<string> {
      const res = await list('page_size=2');
      expect(res.body.pagination.has_more).toBe(true);
      return res.body.pagination.next_cursor;
    }

    const cursorProblem = {
      status: 400,
      code: 'validation_error',
      title: 'Bad Request',
      errors: [{ field: 'cursor' }],
    };

    it('follows a genuine cursor', async () => {
      const cursor = await aCursor();
      const res = await list(`page_size=2&cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(2);
    });

    it('refuses a cursor whose payload was altered (it is signed)', async () => {
      const cursor = await aCursor();
      const [payload, mac] = cursor.split('.');
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      expect(Array.isArray(decoded)).toBe(true);
      // Point it further back, keeping the signature: a forged position.
      decoded[decoded.length - 1] = '1';
      const forged = `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${mac}`;
      expectProblemDetails(await list(`cursor=${encodeURIComponent(forged)}`), cursorProblem);
    });

    it('refuses a cursor with a flipped character in its signature', async () => {
      const cursor = await aCursor();
      const last = cursor[cursor.length - 1];
      const flipped = cursor.slice(0, -1) + (last === 'A' ? 'B' : 'A');
      expectProblemDetails(await list(`cursor=${encodeURIComponent(flipped)}`), cursorProblem);
    });

    it('refuses a cursor over 256 characters', async () => {
      const cursor = await aCursor();
      const long = cursor + 'x'.repeat(257 - cursor.length);
      expect(long.length).toBe(257);
      expectProblemDetails(await list(`cursor=${encodeURIComponent(long)}`), {
        ...cursorProblem,
        errors: [{ field: 'cursor', message: 'must be 1 to 256 characters' }],
      });
    });

    it.each([['garbage'], ['a.b'], ['a.b.c'], ['..'], ['%00'], ['']])(
      'refuses the cursor %p',
      async (value) => {
        expectProblemDetails(await list(`cursor=${value}`), cursorProblem);
      },
    );

    it('refuses two cursors', async () => {
      const cursor = encodeURIComponent(await aCursor());
      expectProblemDetails(await list(`cursor=${cursor}&cursor=${cursor}`), cursorProblem);
    });

    it('names both page_size and cursor when both are wrong', async () => {
      expectProblemDetails(await list('page_size=0&cursor=garbage'), {
        status: 400,
        code: 'validation_error',
        title: 'Bad Request',
        errors: [{ field: 'page_size' }, { field: 'cursor' }],
      });
    });
  });
});
