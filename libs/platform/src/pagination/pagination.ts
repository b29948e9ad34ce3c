import { createHmac, timingSafeEqual } from 'node:crypto';
import { ProblemException } from '../problem/problem.filter';
import { validationProblem } from '../validation/validation.pipe';

/**
 * List pagination (spec: `cursor` opaque, at most 256 characters, no reverse paging;
 * `page_size` 1 to 100, default 25). Lists run newest first on a monotonic key (the global
 * position of the event that created the row), so rows inserted while a client pages appear
 * above page one and never shift or repeat what it has still to read.
 *
 * A cursor is `<payload>.<mac>`: the list's name, the caller's scope and the last key, signed
 * with HMAC-SHA256. A tampered cursor, or one from another list or another partner, is 400.
 */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;
export const MAX_CURSOR_LENGTH = 256;

export interface PageRequest {
  pageSize: number;
  /** The key after which the page starts (exclusive); null for the first page. */
  after: string | null;
}

export interface Page<T> {
  data: T[];
  pagination: { next_cursor: string | null; has_more: boolean; total_count: number };
}

export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(list: string, scope: string, key: string): string {
    const payload = Buffer.from(JSON.stringify([list, scope, key])).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The key in a cursor made for this list and scope, or a 400. */
  decode(cursor: string, list: string, scope: string): string {
    const bad = () =>
      validationProblem([{ field: 'cursor', message: 'is not a cursor this list handed out' }]);
    const [payload, mac, extra] = cursor.split('.');
    if (!payload || !mac || extra !== undefined) throw bad();
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw bad();
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw bad();
    }
    if (
      !Array.isArray(decoded) ||
      decoded[0] !== list ||
      decoded[1] !== scope ||
      typeof decoded[2] !== 'string'
    ) {
      throw bad();
    }
    return decoded[2];
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 22);
  }
}

/** Reads `page_size` and `cursor` from a query string, with the spec's limits. */
export function pageRequest(
  query: Record<string, unknown>,
  codec: CursorCodec,
  list: string,
  scope: string,
): PageRequest {
  const errors: { field: string; message: string }[] = [];
  let pageSize = DEFAULT_PAGE_SIZE;
  const rawSize = query.page_size;
  if (rawSize !== undefined) {
    if (
      typeof rawSize !== 'string' ||
      !/^\d{1,3}$/.test(rawSize) ||
      +rawSize < 1 ||
      +rawSize > MAX_PAGE_SIZE
    ) {
      errors.push({ field: 'page_size', message: `must be a whole number from 1 to ${MAX_PAGE_SIZE}` });
    } else {
      pageSize = Number(rawSize);
    }
  }
  const cursor = query.cursor;
  let after: string | null = null;
  if (cursor !== undefined) {
    if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH) {
      errors.push({ field: 'cursor', message: `must be 1 to ${MAX_CURSOR_LENGTH} characters` });
    } else {
      // Checked even when page_size is wrong, so one answer names every bad parameter.
      try {
        after = codec.decode(cursor, list, scope);
      } catch (error) {
        if (!(error instanceof ProblemException) || !error.body.errors) throw error;
        errors.push(...error.body.errors);
      }
    }
  }
  if (errors.length) throw validationProblem(errors);
  return { pageSize, after };
}

/**
 * Builds the page from `pageSize + 1` rows fetched in list order: the extra row only says
 * whether there is more.
 */
export function toPage<R, T>(
  rows: R[],
  request: PageRequest,
  totalCount: number,
  keyOf: (row: R) => string,
  render: (row: R) => T,
  next: (key: string) => string,
): Page<T> {
  const hasMore = rows.length > request.pageSize;
  const shown = hasMore ? rows.slice(0, request.pageSize) : rows;
  return {
    data: shown.map(render),
    pagination: {
      next_cursor: hasMore ? next(keyOf(shown[shown.length - 1])) : null,
      has_more: hasMore,
      total_count: totalCount,
    },
  };
}
