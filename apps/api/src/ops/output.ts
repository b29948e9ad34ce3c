/**
 * How the operator CLI writes: a table for a person at a terminal, JSON lines for a program (when
 * stdout is piped, or with `--json`), so `npm run ops -- projections | jq` just works.
 */
export interface Output {
  readonly json: boolean;
  /** Rows: a table on a terminal, one JSON object per line otherwise. */
  rows(rows: Record<string, unknown>[], columns?: string[]): void;
  /** One record. */
  record(record: Record<string, unknown>): void;
  /** A line for a person (suppressed in JSON mode unless it is the only output). */
  note(text: string): void;
}

export function outputFor(
  json: boolean,
  write: (text: string) => void = (t) => process.stdout.write(t),
): Output {
  const cell = (value: unknown) =>
    value === null || value === undefined
      ? '—'
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  return {
    json,
    rows(rows, columns) {
      if (json) {
        for (const row of rows) write(`${JSON.stringify(row)}\n`);
        return;
      }
      const names = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
      const widths = names.map((n) => Math.max(n.length, ...rows.map((r) => cell(r[n]).length)));
      const line = (cells: string[]) =>
        `${cells
          .map((c, i) => c.padEnd(widths[i]))
          .join('  ')
          .trimEnd()}\n`;
      write(line(names));
      write(line(widths.map((w) => '─'.repeat(w))));
      for (const row of rows) write(line(names.map((n) => cell(row[n]))));
    },
    record(record) {
      if (json) {
        write(`${JSON.stringify(record)}\n`);
        return;
      }
      const width = Math.max(...Object.keys(record).map((k) => k.length));
      for (const [key, value] of Object.entries(record)) write(`${key.padEnd(width)}  ${cell(value)}\n`);
    },
    note(text) {
      if (!json) write(`${text}\n`);
    },
  };
}

/** A progress bar with an ETA on stderr, for terminals only. */
export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr) {
  const started = process.hrtime.bigint();
  let last = 0;
  return {
    update(done: number, total: number): void {
      if (!stream.isTTY) return;
      const now = Number((process.hrtime.bigint() - started) / 1_000_000n);
      if (now - last < 100 && done < total) return;
      last = now;
      const ratio = total > 0 ? Math.min(1, done / total) : 1;
      const width = 30;
      const filled = Math.round(ratio * width);
      const eta = ratio > 0 && ratio < 1 ? Math.round((now / ratio - now) / 1000) : 0;
      stream.write(
        `\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.round(ratio * 100)}% ${done}/${total} events  ETA ${eta}s `,
      );
    },
    done(): void {
      if (stream.isTTY) stream.write('\n');
    },
  };
}
