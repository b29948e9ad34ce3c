/**
 * Splicing one benchmark's results into an existing docs/benchmarks.md (`BENCH_ONLY=…`): its rows
 * of the Targets table are replaced (appended after the table's last row), and its section (from
 * its heading to the next `## `) is replaced, or added at the end.
 */
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
  const lines = report.split('\n').filter((line) => !results.isTarget(line));
  // The Targets table: the run of table rows after its heading.
  let lastTarget = lines.indexOf('## Targets');
  if (lastTarget < 0) throw new Error('docs/benchmarks.md has no Targets table; run the whole bench once');
  while (lastTarget + 1 < lines.length && !lines[lastTarget + 1].startsWith('|')) lastTarget += 1;
  while (lines[lastTarget + 1]?.startsWith('|')) lastTarget += 1;
  lines.splice(lastTarget + 1, 0, ...results.targets);
  const withTargets = lines.join('\n');
  const section = `${results.heading}\n\n${results.section}\n`;
  const start = withTargets.indexOf(`\n${results.heading}\n`);
  if (start < 0) return `${withTargets.trimEnd()}\n\n${section}`;
  const next = withTargets.indexOf('\n## ', start + 1);
  return `${withTargets.slice(0, start + 1)}${section}${next < 0 ? '' : withTargets.slice(next)}`;
}
