/**
 * The stdio form (profile section 3) of the broken wallets: `node stdio.js --fault <id> --ca
 * <pem> --supported-rails <list>` serves the named fault's core, one JSON line in, one out, like
 * `cprc wallet-stdio` serves the reference core.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseRailList } from '../../../src/derivation/rails.js';
import { serveWalletStdio } from '../../../src/reference/wallet.js';
import { walletFaults } from './index.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { fault: { type: 'string' }, ca: { type: 'string' }, 'supported-rails': { type: 'string' } },
  });
  const fault = walletFaults.find((f) => f.id === values.fault);
  if (!fault) {
    throw new Error(
      `--fault ${values.fault ?? '(missing)'} is not a broken wallet; use one of ${walletFaults.map((f) => f.id).join(', ')}`,
    );
  }
  if (!values.ca) throw new Error('--ca is missing; give the PEM file of the CA the wallet trusts');
  const core = fault.core({
    trustedCaPems: [readFileSync(values.ca, 'utf8')],
    supportedRails: parseRailList(values['supported-rails'] ?? ''),
  });
  await serveWalletStdio(core, process.stdin, process.stdout);
}

main().catch((err: unknown) => {
  process.stderr.write(`broken wallet: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
});
