import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { readDoc, ROOT } from '../support/guide';

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^```/.test(line)) inFence = !inFence;
    const heading = !inFence && /^#{1,6} (.+)$/.exec(line);
    if (heading) found.add(slug(heading[1]));
  }
  return found;
}

const DOCS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join('docs', file)),
];

/** Every relative link of the README and docs/ leads to a file that exists, and to a heading in it. */
describe('documentation links', () => {
  it.each(DOCS)('%s', (file) => {
    // Code (fenced blocks, inline spans) holds no links.
    const text = readDoc(file)
      .replace(/^```[\s\S]*?^```/gm, '')
      .replace(/`[^`\n]*`/g, '');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue; // http(s), mailto
      const [relative, anchor] = target.split('#');
      const linked = relative ? path.join(path.dirname(file), relative) : file;
      if (!existsSync(path.join(ROOT, linked))) {
        broken.push(target);
        continue;
      }
      if (anchor && linked.endsWith('.md') && !anchors(readDoc(linked)).has(anchor)) broken.push(target);
    }
    expect(broken).toEqual([]);
  });
});
