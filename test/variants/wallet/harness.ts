/**
 * How a permitted wallet variant is made and served: like a broken wallet (the reference core
 * with one step replaced, `../../broken/wallet/harness.ts`), but with a choice the contract allows
 * instead of a fault, so the whole wallet suite must pass against it.
 */
import type { Rail } from '../../../src/model/cpr.js';
import type { PermittedVariant } from '../../broken/types.js';
import { type CoreFactory, startBrokenWallet, type WalletFault } from '../../broken/wallet/harness.js';

/** A wallet variant: its self-test description and the core that makes the choice. */
export interface WalletVariantSpec {
  /** kebab-case, prefixed `wallet-variant-`. */
  id: string;
  /** One sentence: the allowed behaviour. */
  choice: string;
  /** The clause of the spec or profile that allows it, quoted briefly. */
  clause: string;
  /** The core. */
  core: CoreFactory;
  /** Rails the variant serves (default: the reference's). */
  supportedRails?: readonly Rail[];
  /** Whether the config declares `wallet.supported_rails` (default true). */
  declareSupportedRails?: boolean;
  /** The answer to a request profile 1 does not define (see {@link WalletFault.undefinedAnswer}). */
  undefinedAnswer?: WalletFault['undefinedAnswer'];
}

/** The served form (a {@link WalletFault} with nothing expected to trip) and the self-test entry. */
export function walletVariant(spec: WalletVariantSpec): PermittedVariant & { walletFault: WalletFault } {
  const walletFault: WalletFault = {
    id: spec.id,
    fault: spec.choice,
    expected: [],
    core: spec.core,
    ...(spec.supportedRails ? { supportedRails: spec.supportedRails } : {}),
    ...(spec.declareSupportedRails === false ? { declareSupportedRails: false } : {}),
    ...(spec.undefinedAnswer ? { undefinedAnswer: spec.undefinedAnswer } : {}),
    // an allowed behaviour must pass on every channel
    channels: ['http', 'stdio'],
  };
  return {
    id: spec.id,
    target: 'wallet',
    choice: spec.choice,
    clause: spec.clause,
    start: ({ workDir }) => startBrokenWallet(walletFault, workDir),
    walletFault,
  };
}
