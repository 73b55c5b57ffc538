import {
  type CprDocument,
  type CreateRequestParams,
  DocumentBuilder,
  type ValidityWindow,
} from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/**
 * Broken payees whose documents break one document rule each, so the per-requirement document
 * checks (suites/payee/2-document-rules.ts) are each shown to trip on their own.
 */
export class EditingBuilder extends DocumentBuilder {
  constructor(private readonly edit: (doc: CprDocument) => CprDocument) {
    super();
  }
  override build(params: CreateRequestParams, requestId: string, window: ValidityWindow): CprDocument {
    return this.edit(super.build(params, requestId, window));
  }
}

export function brokenDocuments(
  id: string,
  fault: string,
  expected: string[],
  edit: (doc: CprDocument) => CprDocument,
  exitCode?: 0 | 1,
): BrokenImplementation {
  return {
    id,
    target: 'payee',
    fault,
    expected,
    ...(exitCode === undefined ? {} : { exitCode }),
    start: ({ workDir }) => startBrokenPayee(workDir, { documentBuilder: new EditingBuilder(edit) }),
  };
}

type Doc = Record<string, unknown> & { payee?: Record<string, unknown>; value?: Record<string, unknown> };

/** Flips the last check digit of an IBAN (mod-97 then fails). */
function breakIban(iban: string): string {
  const last = Number(iban.at(-1));
  return `${iban.slice(0, -1)}${(last + 1) % 10}`;
}

export const documentDefects: BrokenImplementation[] = [
  brokenDocuments(
    'payee-no-display-name',
    'CPRs carry no payee.display_name (spec 2.2, read as in AMB-1: graded as a warning)',
    ['CPR-2.2-OPTIONAL-FIELD-PRESENT'],
    (doc) => {
      const d = doc as Doc;
      const { display_name: _dropped, ...payee } = d.payee ?? {};
      return { ...d, payee } as CprDocument;
    },
    0,
  ),
  brokenDocuments(
    'payee-unprefixed-extension',
    'CPRs carry an extension key without a "foundation:" or reverse-domain prefix',
    ['CPR-9-REVERSE-DOMAIN-PREFIX'],
    (doc) =>
      ({
        ...(doc as Doc),
        extensions: { ...((doc as Doc).extensions as object), loyalty: 12 },
      }) as CprDocument,
  ),
  brokenDocuments(
    'payee-iban-checksum',
    'IBAN documents carry an IBAN whose check digits are wrong (top level and rail_address alike)',
    // the inline property also grades the validity of the inline CPRs it asks for
    ['CPR-2.6-IBAN-VALID', 'CPR-4.2-INLINE-URI', 'PRF-2-HARNESS-REQUESTS'],
    (doc) => {
      const d = doc as Doc;
      if (typeof d.iban !== 'string') return doc;
      const iban = breakIban(d.iban);
      const railAddress = { ...(d.payee?.rail_address as object), iban };
      return { ...d, iban, payee: { ...d.payee, rail_address: railAddress } } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-fiat-code-not-iso4217',
    'fiat assets carry a code that is not an ISO 4217 currency ("EURO" for "EUR")',
    ['CPR-2.3-ASSET-CODE-ISO4217', 'CPR-4.2-INLINE-URI', 'PRF-2-HARNESS-REQUESTS'],
    (doc) => {
      const d = doc as Doc;
      const asset = d.value?.asset as Record<string, unknown> | undefined;
      if (asset?.type !== 'fiat') return doc;
      return {
        ...d,
        value: { ...d.value, asset: { ...asset, code: `${String(asset.code)}O` } },
      } as CprDocument;
    },
  ),
];
