/**
 * Splicing one benchmark's results into an existing docs/benchmarks.md (`BENCH_ONLY=…`): its rows
 * of the Targets table are replaced (where the first of them was, else after the table's last
 * row), and its section (from its heading to the next `## `) is replaced, or added at the end.
 */

/** One part's results: its rows of the Targets table and its section's body. */
export interface PartResult {
  targets: string[];
  section: string;
}

export interface SplicedResults {
  /** Recognises this benchmark's rows of the Targets table (the old ones are dropped). */
  isTarget: (line: string) => boolean;
  targets: readonly string[];
  /** The section's heading, `## …`. */
  heading: string;
  /** The section's body, after its heading. */
  section: string;
}

export function spliceReport(report: string, results: SplicedResults): string {
  const all = report.split('\n');
  const tableStart = all.indexOf('## Targets');
  if (tableStart < 0) throw new Error('docs/benchmarks.md has no Targets table; run the whole bench once');
  const next = all.findIndex((line, i) => i > tableStart && line.startsWith('## '));
  const tableEnd = next < 0 ? all.length : next;
  const isOld = (line: string, i: number) =>
    i > tableStart && i < tableEnd && line.startsWith('|') && results.isTarget(line);
  const firstOld = all.findIndex(isOld);
  const lines = all.filter((line, i) => !isOld(line, i));
  let at: number;
  if (firstOld >= 0) {
    at = firstOld;
  } else {
    // After the last row of the Targets table: the run of table rows after its heading.
    let lastTarget = tableStart;
    while (lastTarget + 1 < lines.length && !lines[lastTarget + 1].startsWith('|')) lastTarget += 1;
    while (lines[lastTarget + 1]?.startsWith('|')) lastTarget += 1;
    at = lastTarget + 1;
  }
  lines.splice(at, 0, ...results.targets);
  const withTargets = lines.join('\n');
  const section = `${results.heading}\n\n${results.section}\n`;
  const start = withTargets.indexOf(`\n${results.heading}\n`);
  if (start < 0) return `${withTargets.trimEnd()}\n\n${section}`;
  const after = withTargets.indexOf('\n## ', start + 1);
  return `${withTargets.slice(0, start + 1)}${section}${after < 0 ? '' : withTargets.slice(after)}`;
}
