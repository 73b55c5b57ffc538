/**
 * Every rule of the reference validator, in the order they run. One rule per file, with its
 * requirement IDs and messages beside it.
 *
 * @packageDocumentation
 */
import type { Finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { amountFormat } from './amount-format.js';
import { assetCodeIso4217 } from './asset-code-iso4217.js';
import { bicValid } from './bic-valid.js';
import { chainIdAgrees } from './chain-id-agrees.js';
import { chainIdRequired } from './chain-id-required.js';
import { createdBeforeExpires } from './created-before-expires.js';
import { evmAddressChecksum } from './evm-address-checksum.js';
import { expiry } from './expiry.js';
import { extensionKeyPrefix } from './extension-key-prefix.js';
import { ibanValid } from './iban-valid.js';
import { memoLength } from './memo-length.js';
import { noPayerData } from './no-payer-data.js';
import { onchainByteLengths } from './onchain-byte-lengths.js';
import { payeeDisplayName } from './payee-display-name.js';
import { purposeCode } from './purpose-code.js';
import { railAddressAgrees } from './rail-address-agrees.js';
import { railHintEnum } from './rail-hint-enum.js';
import { remittanceLength } from './remittance-length.js';
import { requestIdFormat } from './request-id-format.js';
import { subInterfaceFields } from './sub-interface-fields.js';
import { timestamps } from './timestamps.js';
import { validityCeiling } from './validity-ceiling.js';

/** The CPR rules, run after the schema on every object document. */
export const CPR_RULES: readonly Rule[] = Object.freeze([
  requestIdFormat,
  timestamps,
  createdBeforeExpires,
  expiry,
  validityCeiling,
  memoLength,
  amountFormat,
  chainIdRequired,
  assetCodeIso4217,
  railHintEnum,
  subInterfaceFields,
  evmAddressChecksum,
  onchainByteLengths,
  chainIdAgrees,
  ibanValid,
  bicValid,
  purposeCode,
  remittanceLength,
  railAddressAgrees,
  payeeDisplayName,
  noPayerData,
  extensionKeyPrefix,
]);

/**
 * Runs every rule of {@link CPR_RULES} on `ctx`, in order, appending the findings to `out`: what
 * calling each rule's `collect` in turn gives.
 *
 * @example
 * ```ts
 * const out: Finding[] = [];
 * collectCprRules({ doc, mode: 'payee', nowMs: Date.now(), maxValiditySeconds: 2_592_000 }, out);
 * ```
 */
export function collectCprRules(ctx: RuleContext, out: Finding[]): void {
  for (let r = 0; r < CPR_RULES.length; r++) (CPR_RULES[r] as Rule).collect(ctx, out);
}
