import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The guides in docs/ are run by tests, so a step that no longer works fails the suite. A guide
 * marks a fenced block for its test with an HTML comment on the line before it (invisible once
 * rendered): `<!-- guide-test: skip -->` for a step the test does in its own way (the test says
 * which and checks the block is that step), `<!-- guide-test: file receiver.mjs -->` for a file
 * the reader saves, `<!-- guide-test: example -->` for output shown as an illustration only.
 * Every other block of the runnable language is run, and a `text` block right after a block that
 * ran is its expected output.
 */
export interface FencedBlock {
  lang: string;
  code: string;
  /** The `guide-test:` marker before the block (`skip`, `file receiver.mjs`), or null. */
  marker: string | null;
  /** The heading the block sits under. */
  heading: string;
}

export const ROOT = path.resolve(__dirname, '..', '..');

export function readDoc(relative: string): string {
  return readFileSync(path.join(ROOT, relative), 'utf8');
}

/** Every fenced block of a Markdown text, in order. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split('\n');
  let heading = '';
  let previous = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^```(\w*)\s*$/.exec(line);
    if (!fence) {
      if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
      if (line.trim() !== '') previous = line;
      continue;
    }
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    const marker = /^<!-- guide-test: (.+?) -->$/.exec(previous.trim());
    blocks.push({ lang: fence[1], code: `${body.join('\n')}\n`, marker: marker?.[1] ?? null, heading });
    previous = '';
  }
  return blocks;
}

/**
 * Replaces each `NAME=…` line (a shell assignment at the start of a line) with `NAME=value`;
 * throws when the guide has no such line, so the test and the guide cannot drift apart silently.
 */
export function assign(script: string, values: Record<string, string>): string {
  let result = script;
  for (const [name, value] of Object.entries(values)) {
    const line = new RegExp(`^${name}=.*$`, 'm');
    if (!line.test(result)) throw new Error(`the script sets no ${name}=`);
    result = result.replace(line, `${name}=${value}`);
  }
  return result;
}

export const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/**
 * The lines a guide shows as the answer of its commands: each `text` block that follows a block
 * the test runs. Ids differ from run to run, so a UUID in the guide matches any UUID.
 */
export function expectedLines(blocks: FencedBlock[], runs = 'sh'): RegExp[] {
  const lines: RegExp[] = [];
  blocks.forEach((block, i) => {
    const before = blocks[i - 1];
    if (block.lang !== 'text' || block.marker || !before || before.lang !== runs || before.marker) return;
    for (const line of block.code.split('\n').filter((l) => l.trim() !== '')) {
      const escaped = line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(new RegExp(UUID, 'g'), UUID);
      lines.push(new RegExp(`^${escaped}$`, 'm'));
    }
  });
  return lines;
}

export interface BashResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a script with bash as a reader's shell would, stopping at the first failing command
 * (`-e -o pipefail`). It runs in a process group of its own, killed when bash exits, so a
 * background process the script left behind (a receiver after a failed step) cannot keep the
 * test waiting.
 */
export function runBash(
  script: string,
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<BashResult> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-e', '-o', 'pipefail', '-c', script], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    });
    // The pipes close once every process of the group is gone.
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
