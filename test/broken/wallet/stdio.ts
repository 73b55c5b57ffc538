/**
 * The stdio form (profile section 3) of the broken wallets and the permitted variants: `node
 * stdio.js --fault <id> --ca <pem> --supported-rails <list>` serves the named core, one JSON line in, one out, like
 * `cprc wallet-stdio` serves the reference core.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { serveWalletStdio, stdioAnswer } from '../../../src/reference/wallet/index.js';
import { parseRailList } from '../../../src/reference/wallet/rails.js';
import { walletVariants } from '../../variants/wallet/index.js';
import { walletFaults } from './index.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { fault: { type: 'string' }, ca: { type: 'string' }, 'supported-rails': { type: 'string' } },
  });
  const known = [...walletFaults, ...walletVariants];
  const fault = known.find((f) => f.id === values.fault);
  if (!fault) {
    throw new Error(
      `--fault ${values.fault ?? '(missing)'} is not a broken wallet or a wallet variant; use one of ${known.map((f) => f.id).join(', ')}`,
    );
  }
  if (!values.ca) throw new Error('--ca is missing; give the PEM file of the CA the wallet trusts');
  const core = fault.core({
    trustedCaPems: [readFileSync(values.ca, 'utf8')],
    supportedRails: parseRailList(values['supported-rails'] ?? ''),
  });
  const { stdioLine, notJson } = fault;
  if (!stdioLine && !notJson) {
    await serveWalletStdio(core, process.stdin, process.stdout);
    return;
  }
  // a fault of the wire: the answer line of some results is replaced (or the process dies)
  const lines = createInterface({
    input: process.stdin,
    crlfDelay: Number.POSITIVE_INFINITY,
    terminal: false,
  });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let body: unknown;
    try {
      body = JSON.parse(line);
    } catch {
      process.stdout.write(
        `${notJson?.stdioLine ?? JSON.stringify({ error: { code: 'INVALID_REQUEST', message: 'the line is not json' } })}\n`,
      );
      continue;
    }
    const result = await core.derive(body);
    const custom = stdioLine?.(result);
    if (custom === 'exit') process.exit(1);
    process.stdout.write(`${custom ?? JSON.stringify(stdioAnswer(result))}\n`);
  }
  await core.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`broken wallet: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
});
