/**
 * Broken wallets that rewrite a sub-interface field's written form on its way into the Payment
 * (profile 3: Payment.payee and the intent.conditions members named after sub-interface fields
 * carry the request's values as written): a chain identifier normalised to decimal, an EVM
 * address folded to lower case. Each is right for the form it expects and wrong for every other.
 */
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, editPayments } from './harness.js';

type Fields = Record<string, unknown>;

/** Applies `rewrite` to the members `names` of `payment.payee` and `payment.intent.conditions`. */
function rewritten(
  payment: { payee: unknown; intent: { conditions: Fields } },
  names: readonly string[],
  rewrite: (value: string) => string,
): void {
  for (const holder of [payment.payee as Fields, payment.intent.conditions]) {
    if (typeof holder !== 'object' || holder === null) continue;
    for (const name of names) {
      const value = holder[name];
      if (typeof value === 'string') holder[name] = rewrite(value);
    }
  }
}

/** `eip155:137` and `0x89` as `137` (a value of neither form unchanged). */
function decimalChain(id: string): string {
  const caip = /^eip155:([0-9]+)$/.exec(id);
  if (caip) return BigInt(caip[1] as string).toString();
  if (/^0x[0-9a-fA-F]+$/.test(id)) return BigInt(id).toString();
  return id;
}

export const chainIdNormalized = brokenWallet({
  id: 'wallet-chain-id-made-decimal',
  fault:
    'chain_id is rewritten to plain decimal in payment.payee and intent.conditions (eip155:137 and 0x89 become 137)',
  expected: ['PRF-3-INTENT-CONDITIONS', 'CPR-2.10-INTENT-CONDITIONS', 'PRF-3-PAYMENT-PAYEE'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment) => {
      rewritten(payment, ['chain_id'], decimalChain);
      return payment;
    }),
});

export const addressLowerCased = brokenWallet({
  id: 'wallet-address-lower-cased',
  fault:
    'receiver_address and contract_address are folded to lower case in payment.payee and intent.conditions (the checksum of a mixed-case address lost)',
  expected: ['PRF-3-INTENT-CONDITIONS', 'CPR-2.10-INTENT-CONDITIONS', 'PRF-3-PAYMENT-PAYEE'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment) => {
      rewritten(payment, ['receiver_address', 'contract_address'], (a) => a.toLowerCase());
      return payment;
    }),
});

export const verbatimFaults = [chainIdNormalized, addressLowerCased];
