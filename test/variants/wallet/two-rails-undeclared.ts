import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { walletVariant } from './harness.js';

/** Serves only PIX and ACH (neither SEPA nor on-chain) and does not say so in the config. */
export const twoRailsUndeclared = walletVariant({
  id: 'wallet-variant-two-rails-undeclared',
  choice:
    'serves only two rails (PIX and ACH) and the config does not declare wallet.supported_rails: every other rail is refused with UNSUPPORTED_RAIL',
  clause:
    'profile 3: "A wallet may refuse a rail it cannot serve ... with 422 UNSUPPORTED_RAIL"; "wallet.supported_rails (optional)"',
  supportedRails: ['PIX', 'ACH'],
  declareSupportedRails: false,
  core: (options) => createWalletCore(options),
});
