import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { Pool, type PoolClient } from 'pg';
import type { TransactionFilters } from '../wire/transaction-filters';
import { CSV_HEADER, csvRowOf } from '../wire/transactions-csv';
import { FROM, ITEM_COLUMNS, filterConditions, type TransactionListRow } from './transaction-list-sql';

/** Rows fetched per round trip while exporting (and so the most held in memory at once). */
export const EXPORT_BATCH_SIZE = 1000;

/** `GET /transactions/export`: the list's rows under its filters, as CSV. */
@Injectable()
export class TransactionExport {
  constructor(private readonly pool: Pool) {}

  /**
   * The CSV export as a byte stream: the header, then the rows newest first. The rows come from a
   * server-side cursor (`DECLARE … CURSOR` in a read-only transaction on one pooled connection),
   * {@link EXPORT_BATCH_SIZE} at a time, and the next batch is fetched only when the HTTP response
   * has taken the previous one (the stream is pulled), so memory stays flat however many rows
   * match. The cursor is opened and its first batch read before this returns, so a database
   * failure is still an ordinary error answer; the connection goes back to the pool when the
   * stream ends, fails or is abandoned by the client.
   */
  async export(partnerId: string, filters: TransactionFilters): Promise<Readable> {
    const { where, params } = filterConditions(partnerId, filters);
    const client = await this.pool.connect();
    let first: TransactionListRow[];
    try {
      await client.query('begin transaction isolation level repeatable read, read only');
      await client.query(
        `declare transaction_export no scroll cursor for
           select ${ITEM_COLUMNS} from ${FROM} where ${where.join(' and ')} order by t.created_position desc`,
        params,
      );
      first = (await client.query<TransactionListRow>(`fetch ${EXPORT_BATCH_SIZE} from transaction_export`))
        .rows;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      client.release(error as Error);
      throw error;
    }
    return new CsvExportStream(client, first);
  }
}

/**
 * The export's bytes, pulled: `_read` (called only when the consumer wants more) formats one
 * batch, or fetches the next one from the open cursor. The transaction ends exactly once, by
 * COMMIT after the last row or by ROLLBACK when the stream is destroyed first (a client that went
 * away, a failed fetch); only then is the connection given back.
 */
class CsvExportStream extends Readable {
  private pending: TransactionListRow[] | null;
  private started = false;
  private ending: Promise<boolean> | null = null;

  constructor(
    private readonly client: PoolClient,
    first: TransactionListRow[],
  ) {
    super();
    this.pending = first;
  }

  override _read(): void {
    if (this.pending) {
      const rows = this.pending;
      this.pending = null;
      this.emitRows(rows);
      return;
    }
    this.client.query<TransactionListRow>(`fetch ${EXPORT_BATCH_SIZE} from transaction_export`).then(
      (result) => this.emitRows(result.rows),
      (error: Error) => this.destroy(error),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    void this.end(false).then(() => callback(error));
  }

  private emitRows(rows: TransactionListRow[]): void {
    if (this.destroyed) return;
    const header = this.started ? '' : CSV_HEADER;
    this.started = true;
    const last = rows.length < EXPORT_BATCH_SIZE;
    if (header || rows.length > 0) this.push(header + rows.map(csvRowOf).join(''));
    if (last) {
      void this.end(true).then((ok) => {
        if (ok) this.push(null);
        else if (!this.destroyed) this.destroy(new Error('the export transaction did not commit'));
      });
    }
  }

  /** Ends the transaction once (later calls wait for the first) and gives the connection back. */
  private end(commit: boolean): Promise<boolean> {
    this.ending ??= this.client.query(commit ? 'commit' : 'rollback').then(
      () => {
        this.client.release();
        return true;
      },
      (error: Error) => {
        this.client.release(error);
        return false;
      },
    );
    return this.ending;
  }
}
