#!/usr/bin/env node
// Runs before `npm test` (npm's `pretest`). The hosted-page browser tests drive Debian's Chromium at
// /usr/bin/chromium through playwright-core, which downloads no browser. When it is missing we
// install it where we can (root with apt-get), and otherwise stop before any test with one line
// naming the command to run: a missing browser must never show up as a page of failed tests.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');

// Where test/browser/ launches it. (ENSURE_CHROMIUM_AT exists for this script's own tests only.)
const CHROMIUM = process.env.ENSURE_CHROMIUM_AT || '/usr/bin/chromium';
const INSTALL = 'apt-get update && apt-get install -y chromium';
const SUDO_INSTALL = 'sudo apt-get update && sudo apt-get install -y chromium';

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function stop(line) {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

if (fs.existsSync(CHROMIUM)) process.exit(0);

const root = typeof process.getuid === 'function' && process.getuid() === 0;
if (!has('apt-get')) {
  stop(
    `npm test needs Chromium at ${CHROMIUM} for the hosted-page browser tests, and this machine has no apt-get: install Chromium there with your package manager (on Debian or Ubuntu: ${SUDO_INSTALL})`,
  );
}
if (!root) {
  stop(
    `npm test needs Chromium at ${CHROMIUM} for the hosted-page browser tests; install it with: ${SUDO_INSTALL}`,
  );
}

process.stdout.write(
  `Chromium is missing: installing Debian's chromium for the browser tests (${INSTALL})...\n`,
);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', 'chromium'],
]) {
  const result = spawnSync('apt-get', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    const reason =
      `${result.stderr || ''}${result.stdout || ''}`.trim().split('\n').slice(-1)[0] ||
      `exit ${result.status}`;
    stop(`could not install chromium (apt-get ${args[0]}: ${reason}); run as root: ${INSTALL}`);
  }
}
if (!fs.existsSync(CHROMIUM))
  stop(`apt-get installed chromium but ${CHROMIUM} is still missing; run: ${INSTALL}`);
process.stdout.write(`installed ${CHROMIUM}\n`);
