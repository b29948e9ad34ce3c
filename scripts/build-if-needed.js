#!/usr/bin/env node
// Compiles the TypeScript sources when dist/ is missing or older than any source file, so that
// `npm start` works straight after `npm ci` and after every edit, and costs nothing otherwise.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const stamp = path.join(root, 'dist', '.built');
const sources = [
  'apps',
  'libs',
  'projections',
  'bench',
  'tsconfig.base.json',
  'tsconfig.build.json',
  'package-lock.json',
];

function newest(entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const name of fs.readdirSync(full)) max = Math.max(max, newest(path.join(entry, name)));
  return max;
}

if (!fs.existsSync(path.join(root, 'node_modules', 'typescript'))) process.exit(0); // production install without dev deps
const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
if (built >= Math.max(...sources.map(newest))) process.exit(0);
process.stdout.write('building (tsc)...\n');
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
fs.writeFileSync(stamp, new Date().toISOString());
