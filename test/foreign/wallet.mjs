// The wallet's HTTPS harness: POST {harness}/derive.

import { readFileSync } from 'node:fs';
import { startServer } from './lib/http.mjs';
import { createWallet, SUPPORTED_RAILS } from './wallet-core.mjs';

/** Read the wallet's own configuration file (written by the stack). */
export function loadWalletConfig(path) {
  const cfg = JSON.parse(readFileSync(path, 'utf8'));
  return {
    fault: cfg.fault ?? null,
    supportedRails: cfg.supported_rails ?? SUPPORTED_RAILS,
    trustPems: cfg.trust_ca_files.map((f) => readFileSync(f, 'utf8')),
  };
}

export async function startWallet({ tls, configPath }) {
  const wallet = createWallet(loadWalletConfig(configPath));
  const server = await startServer({
    tls,
    name: 'wallet-harness',
    routes: [
      {
        method: 'POST',
        path: /^\/harness\/derive$/,
        handler: async (ctx) => wallet.answer((await ctx.rawBody()).toString('utf8'), 'http'),
      },
    ],
  });
  return { harnessUrl: `${server.origin}/harness`, close: server.close };
}
