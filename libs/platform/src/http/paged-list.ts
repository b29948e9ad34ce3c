import { CursorCodec, pageRequest, toPage, type Page, type PageRequest } from '../pagination/pagination';

/** One page of a list's rows (`pageSize + 1` at most, in list order) and the total under its filters. */
export interface PageRows<R> {
  rows: R[];
  total: number;
}

/** What a list endpoint says of its list; {@link pagedList} does the paging around it. */
export interface PagedListRead<R, T> {
  /** The list's name: a cursor handed out by another list is 400. */
  list: string;
  /** The caller and its filters: a cursor of another partner or other filters is 400. */
  scope: string;
  rows(page: PageRequest): Promise<PageRows<R>> | PageRows<R>;
  render(row: R): T;
  /** A row's key in the list's order (the next cursor holds the last shown); `position_key` by default. */
  key?: (row: R) => string;
}

/**
 * A paged list endpoint's answer: reads `cursor` and `page_size` from the query string (400 as
 * `pageRequest` says), fetches the page's rows, renders them and signs the next cursor for the
 * same list and scope. The filters are the caller's to check first, so a bad filter is reported
 * before a bad cursor, as every list did by hand.
 */
export function pagedList<R, T>(
  query: Record<string, unknown>,
  cursors: CursorCodec,
  read: PagedListRead<R, T> & { key: (row: R) => string },
): Promise<Page<T>>;
export function pagedList<R extends { position_key: string }, T>(
  query: Record<string, unknown>,
  cursors: CursorCodec,
  read: PagedListRead<R, T>,
): Promise<Page<T>>;
export async function pagedList<R, T>(
  query: Record<string, unknown>,
  cursors: CursorCodec,
  read: PagedListRead<R, T>,
): Promise<Page<T>> {
  const page = pageRequest(query, cursors, read.list, read.scope);
  const { rows, total } = await read.rows(page);
  const key = read.key ?? ((row: R) => (row as { position_key: string }).position_key);
  return toPage(
    rows,
    page,
    total,
    key,
    (row) => read.render(row),
    (last) => cursors.encode(read.list, read.scope, last),
  );
}
