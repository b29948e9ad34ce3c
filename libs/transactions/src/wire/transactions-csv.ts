import { formatAmount } from '../../../platform/src/money/amount';
import {
  toListItem,
  type TransactionListItemRow,
  type TransactionListRow,
} from '../application/transaction-list-sql';

/** The export's columns: the list item's fields, in its order. */
export const CSV_COLUMNS = [
  'id',
  'merchant_id',
  'merchant_name',
  'type',
  'rail',
  'amount',
  'currency',
  'state',
  'approval_code',
  'decline_code',
  'decline_reason',
  'card_last4',
  'routing_last4',
  'account_last4',
  'account_type',
  'customer_id',
  'created_at',
] as const satisfies readonly (keyof TransactionListItemRow)[];

/** Characters that make a spreadsheet read a cell as a formula (or hide what precedes one). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_CARE = /^[=+\-@\t\r]|[",\r\n]/;

/**
 * One RFC 4180 field. A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR
 * first) gets a leading `'` and is quoted, so it reads as text; a cell with a comma, quote, CR or
 * LF is quoted with inner quotes doubled. `null` is an empty field.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  // One test for the common case (nothing to do), as exports run it for every cell.
  if (!NEEDS_CARE.test(text)) return text;
  return `"${FORMULA_START.test(text) ? "'" : ''}${text.replace(/"/g, '""')}"`;
}

/** One CSV record with its CRLF. */
export function csvRecord(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export const CSV_HEADER = csvRecord(CSV_COLUMNS);

/** A row as its CSV record: the list item, except `amount` as a decimal string (dollars). */
export function csvRowOf(row: TransactionListRow): string {
  const item = toListItem(row);
  let line = '';
  for (let i = 0; i < CSV_COLUMNS.length; i += 1) {
    const column = CSV_COLUMNS[i];
    const value = column === 'amount' ? formatAmount(BigInt(row.amount_minor), row.currency) : item[column];
    line += i === 0 ? csvCell(value) : `,${csvCell(value)}`;
  }
  return `${line}\r\n`;
}
