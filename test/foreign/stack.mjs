// Starts the foreign stack (payee, wallet, Operator) and writes the run
// configuration of profile section 5.
//
//   import { startForeignStack } from './stack.mjs';
//   const { configPath, config, stop } = await startForeignStack({ dir, fault, targets });
//
// By hand: node test/foreign/stack.mjs --dir D [--fault ID] [--targets payee,wallet]

import { writeFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { faultTarget } from './faults.mjs';
import { makeRunCertificates } from './lib/tls.mjs';
import { startOperator } from './operator.mjs';
import { startPayee } from './payee.mjs';
import { startWallet } from './wallet.mjs';
import { SUPPORTED_RAILS } from './wallet-core.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const TARGETS = ['payee', 'wallet', 'operator'];

export async function startForeignStack({ dir, fault = null, targets = TARGETS }) {
  const root = isAbsolute(dir) ? dir : resolve(dir);
  for (const t of targets) if (!TARGETS.includes(t)) throw new Error(`unknown target: ${t}`);
  const faultOf = (target) => (fault !== null && faultTarget(fault) === target ? fault : null);
  if (fault !== null) faultTarget(fault); // throws for an unknown id

  const certs = await makeRunCertificates(root);
  const tls = { key: certs.server.key, cert: certs.server.cert };
  const started = [];
  const config = {
    tls: {
      ca_file: certs.ownCa.certFile,
      suite_ca_cert_file: certs.suiteCa.certFile,
      suite_ca_key_file: certs.suiteCa.keyFile,
    },
    timeouts: { request_ms: 10000 },
  };

  try {
    const jobs = [];
    if (targets.includes('payee')) {
      jobs.push(
        startPayee({ tls, fault: faultOf('payee') }).then((payee) => {
          started.push(payee);
          config.payee = {
            base_url: payee.baseUrl,
            harness_url: payee.harnessUrl,
            plain_http_url: payee.plainHttpUrl,
          };
        }),
      );
    }
    if (targets.includes('wallet')) {
      const walletConfigPath = join(root, 'wallet-config.json');
      await writeFile(
        walletConfigPath,
        `${JSON.stringify(
          {
            fault: faultOf('wallet'),
            supported_rails: SUPPORTED_RAILS,
            trust_ca_files: [certs.suiteCa.certFile, certs.ownCa.certFile],
          },
          null,
          2,
        )}\n`,
      );
      jobs.push(
        startWallet({ tls, configPath: walletConfigPath }).then((wallet) => {
          started.push(wallet);
          config.wallet = {
            harness_url: wallet.harnessUrl,
            command: [process.execPath, join(HERE, 'wallet-cli.mjs'), '--config', walletConfigPath],
            supported_rails: [...SUPPORTED_RAILS],
          };
        }),
      );
    }
    if (targets.includes('operator')) {
      jobs.push(
        startOperator({ tls, fault: faultOf('operator') }).then((op) => {
          started.push(op);
          config.operator = {
            base_url: op.baseUrl,
            harness_url: op.harnessUrl,
            principals: op.principals,
            redeemer_identity_tokens: op.redeemerIdentityTokens,
            operator_status_credential: op.operatorStatusCredential,
          };
        }),
      );
    }
    await Promise.all(jobs);
  } catch (err) {
    await Promise.allSettled(started.map((s) => s.close()));
    throw err;
  }

  // Sections in a stable order.
  const ordered = { tls: config.tls, timeouts: config.timeouts };
  for (const t of TARGETS) if (config[t]) ordered[t] = config[t];
  const configPath = join(root, 'config.json');
  await writeFile(configPath, `${JSON.stringify(ordered, null, 2)}\n`, { mode: 0o600 });

  let stopping = null;
  const stop = () => {
    stopping ??= Promise.allSettled(started.map((s) => s.close())).then(() => undefined);
    return stopping;
  };
  return { configPath, config: ordered, stop };
}

// ---------------------------------------------------------------------------
// Command line

function parseArgs(argv) {
  const out = { dir: null, fault: null, targets: TARGETS };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    const value = () => {
      const v = argv[i + 1];
      if (v === undefined) throw new Error(`${a} needs a value`);
      i += 1;
      return v;
    };
    if (a === '--dir') out.dir = value();
    else if (a === '--fault') out.fault = value();
    else if (a === '--targets') out.targets = value().split(',').filter(Boolean);
    else throw new Error(`unknown argument: ${a}`);
  }
  if (!out.dir) throw new Error('usage: stack.mjs --dir D [--fault ID] [--targets payee,wallet,operator]');
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  let stack;
  try {
    stack = await startForeignStack(args);
  } catch (err) {
    process.stderr.write(`foreign stack: ${err.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`${stack.configPath}\n`);
  const shutdown = () => {
    stack.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
