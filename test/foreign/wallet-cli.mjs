#!/usr/bin/env node
// The wallet's stdio form: one JSON request a line on stdin, one JSON answer a
// line on stdout, in order; it ends at the end of its input.
// Usage: node wallet-cli.mjs --config <wallet-config.json>

import { createInterface } from 'node:readline';
import { loadWalletConfig } from './wallet.mjs';
import { createWallet } from './wallet-core.mjs';

const at = process.argv.indexOf('--config');
if (at === -1 || !process.argv[at + 1]) {
  process.stderr.write('usage: wallet-cli.mjs --config <wallet-config.json>\n');
  process.exit(2);
}
const wallet = createWallet(loadWalletConfig(process.argv[at + 1]));

const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
for await (const line of lines) {
  if (line.trim() === '') continue;
  const { body } = await wallet.answer(line, 'stdio');
  process.stdout.write(`${JSON.stringify(body)}\n`);
}
