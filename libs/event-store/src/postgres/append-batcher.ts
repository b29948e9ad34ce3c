/** One append as the batch statement takes it (a JSON object, already serialised). */
export interface BatchItem {
  json: string;
}

/** What the batch statement answers for one item. */
export interface ItemOutcome {
  outcome: 'appended' | 'revision' | 'idempotency';
  /** The stream's revision after the item (appended), or as the refusal found it. */
  revision: bigint;
  /** The global position of the item's last event; null when refused (or it had no events). */
  lastPosition: bigint | null;
}

export interface AppendBatcherOptions {
  /**
   * Batches in flight at once, each one statement and one transaction. One is the classic group
   * commit: what arrives while a batch commits goes in the next one, so a lone append waits for
   * nothing and a busy store commits many appends per flush.
   */
  maxInFlight: number;
  /** The most items one statement carries. */
  maxItems: number;
}

/**
 * SQLSTATE classes an item can cause by itself (bad data, a constraint): a batch that fails with
 * one is split and its items are tried one by one, so only the culprit fails. Anything else (the
 * connection, the server) fails every item of the batch with the same error.
 */
const ITEM_ERROR = /^(22|23)/;

/**
 * Group commit for appends (docs/adr/0008-write-path.md): concurrent appends are written by one
 * statement in one transaction. Each item gets its own answer (a refused expectation reaches only
 * its own caller); a batch that fails for a reason of its own fails every item in it.
 */
interface Pending {
  item: BatchItem;
  resolve(outcome: ItemOutcome): void;
  reject(error: unknown): void;
}

export class AppendBatcher {
  private readonly queue: Pending[] = [];
  private inFlight = 0;

  constructor(
    /** Runs the statement for a JSON array of items; answers one row per item, in item order. */
    private readonly send: (items: string) => Promise<ItemOutcome[]>,
    private readonly options: AppendBatcherOptions,
  ) {}

  /** Appends waiting for the batch in flight to end (they go in the next one). */
  get waiting(): number {
    return this.queue.length;
  }

  submit(item: BatchItem): Promise<ItemOutcome> {
    return new Promise<ItemOutcome>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxItems);
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    let outcomes: ItemOutcome[];
    try {
      outcomes = await this.send(`[${batch.map((p) => p.item.json).join(',')}]`);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (batch.length > 1 && typeof code === 'string' && ITEM_ERROR.test(code)) {
        for (const pending of batch) await this.write([pending]);
        return;
      }
      for (const pending of batch) pending.reject(error);
      return;
    }
    batch.forEach((pending, i) => pending.resolve(outcomes[i]));
  }
}
