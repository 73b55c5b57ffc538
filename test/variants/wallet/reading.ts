/**
 * Permitted variants of how a wallet reads a document (profile 2 and 3): the choices the contract
 * leaves open that the reading checks must not fail.
 */
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { cprOf, refusal } from '../../broken/wallet/harness.js';
import { walletVariant } from './harness.js';

/** The key types and routing schemes spec 2.7 and 2.8 give as examples, as written there. */
const KEY_TYPES = ['CPF', 'PHONE', 'EMAIL', 'EVP', 'UPI_ID'];
const ROUTING_TYPES = ['ABA', 'SORT_CODE', 'BSB', 'IFSC'];

/** Refuses a key type or routing scheme it does not know (exact spelling) as a rail it cannot serve. */
export const unknownKeyTypeRefused = walletVariant({
  id: 'wallet-variant-unknown-key-type-refused',
  choice:
    'refuses a key_type or routing_code_type other than the examples of spec 2.7 and 2.8 as written (cpf, Email, aba) with 422 UNSUPPORTED_RAIL',
  clause:
    'profile 3: "A wallet may refuse a rail it cannot serve (spec 4.4 step 2) with 422 UNSUPPORTED_RAIL"; spec 2.8: key_type "For example CPF, PHONE, EMAIL, EVP, UPI_ID"',
  core: (options) => {
    const core = createWalletCore(options);
    return {
      async derive(body) {
        // the document is validated first (the reference's refusals keep their codes); a valid
        // request whose key type or routing scheme the wallet does not know is then refused
        const result = await core.derive(body);
        if (!result.ok) return result;
        const cpr = cprOf(body);
        const keyType = cpr?.key_type;
        const routing = cpr?.routing_code_type;
        if (typeof keyType === 'string' && !KEY_TYPES.includes(keyType))
          return refusal(
            'UNSUPPORTED_RAIL',
            `this wallet cannot pay to a key of type ${keyType}; it knows ${KEY_TYPES.join(', ')}`,
          );
        if (typeof routing === 'string' && !ROUTING_TYPES.includes(routing))
          return refusal(
            'UNSUPPORTED_RAIL',
            `this wallet cannot route by ${routing}; it knows ${ROUTING_TYPES.join(', ')}`,
          );
        return result;
      },
      close: () => core.close(),
    };
  },
});

/**
 * Serves SEPA Instant and PIX only, and says so: a SEPA_CT or SWIFT hint (known, not served) is
 * refused although the wallet serves another rail of the IBAN sub-interface, while an
 * unrecognised hint on an IBAN request is read as OPEN and paid by SEPA_INST.
 */
export const sepaInstOnly = walletVariant({
  id: 'wallet-variant-sepa-inst-pix-only',
  choice:
    'serves only SEPA_INST and PIX (declared): a request hinting SEPA_CT or SWIFT is refused with UNSUPPORTED_RAIL, one with OPEN, no hint or an unrecognised hint is paid by SEPA_INST',
  clause:
    'spec 4.4 step 2: "The application may reject the request when it cannot serve the indicated rail"; profile 3: an unrecognised rail_hint is read as OPEN',
  supportedRails: ['SEPA_INST', 'PIX'],
  core: (options) => createWalletCore(options),
});
