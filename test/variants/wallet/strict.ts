import { decodeCprUri } from '../../../src/codec/uri.js';
import type { DerivationResult } from '../../../src/reference/wallet/derive.js';
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { validateCpr } from '../../../src/validator/validate-cpr.js';
import { bodyOf, refusal } from '../../broken/wallet/harness.js';
import { walletVariant } from './harness.js';

/**
 * Findings of the payee reading a wallet must not hold against a document: profile 1 makes a
 * reader accept any RFC 3339 offset, any non-empty string request_id and a safe-integer JSON
 * amount; profile 2 makes it accept a blank display_name; INV-7 makes it ignore an unknown
 * rail_hint. (The wallet reading already refuses what those IDs also cover: a timestamp that is
 * not RFC 3339, an amount string that is not digits.)
 */
const READER_ACCEPTS = new Set([
  'CPR-2.1-TIMESTAMPS-UTC',
  'PRF-1-TIMESTAMP-Z',
  'PRF-2-TIMESTAMPS-Z',
  'PRF-1-IDENTIFIER-UUID',
  'PRF-1-AMOUNT-FORMAT',
  'PRF-2-DISPLAY-NAME-NOT-BLANK',
  'CPR-2.4-RAIL-HINT-ENUM',
]);

type Container = { kind: 'object'; keys: Set<string>; expectKey: boolean } | { kind: 'array' };

/** The first member name repeated within one object of a JSON text (RFC 8259 8.1), or undefined. */
export function duplicateMemberName(text: string): string | undefined {
  const stack: Container[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = stack.at(-1);
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (top?.kind === 'object' && top.expectKey) {
        let key: string;
        try {
          key = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          return undefined;
        }
        if (top.keys.has(key)) return key;
        top.keys.add(key);
        top.expectKey = false;
      }
      i = j;
    } else if (c === '{') stack.push({ kind: 'object', keys: new Set(), expectKey: true });
    else if (c === '[') stack.push({ kind: 'array' });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',' && top?.kind === 'object') top.expectKey = true;
  }
  return undefined;
}

/**
 * A strict reader: refuses (422 INVALID_STRUCTURE) every document that breaks any rule of
 * profile section 2 as the payee reading states it (checksums, disagreeing chain ids, byte
 * lengths, purpose code, created_at before expires_at, payer-data names...), except what a reader
 * must accept, and an inline URI whose JSON repeats a member name.
 */
export const strictWallet = walletVariant({
  id: 'wallet-variant-strict',
  choice:
    'refuses every document that breaks a rule of profile section 2 (checksums, disagreeing chain ids, byte lengths, duplicate member names) with 422 INVALID_STRUCTURE',
  clause:
    'profile 3: "a wallet may refuse any document that breaks a SPEC or PROFILE rule of section 2"; profile 1: a reader "should refuse duplicate member names"',
  core: (options) => {
    const core = createWalletCore(options);
    return {
      async derive(body) {
        // what the reference refuses keeps its code (INVALID_VERSION, EXPIRED...); what it would
        // pay is refused when it breaks any further rule of section 2
        const result = await core.derive(body);
        if (!result.ok) return result;
        return strictRefusal(body) ?? result;
      },
      close: () => core.close(),
    };
  },
});

/** The strict reader's refusal of a harness body's document, or undefined when it has none. */
function strictRefusal(body: unknown): DerivationResult | undefined {
  const b = bodyOf(body);
  let doc: unknown = b?.cpr;
  if (doc === undefined && typeof b?.uri === 'string') {
    const decoded = decodeCprUri(b.uri);
    if (decoded.ok && decoded.value.kind === 'inline') {
      const dup = duplicateMemberName(decoded.value.json);
      if (dup !== undefined)
        return refusal(
          'INVALID_STRUCTURE',
          `the cpr repeats the member name "${dup}"; send each member once`,
        );
      doc = decoded.value.document;
    }
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const broken = validateCpr(doc, { mode: 'payee' }).findings.filter(
    (f) => f.severity === 'error' && !READER_ACCEPTS.has(f.requirement),
  );
  const first = broken[0];
  if (!first) return undefined;
  return refusal(
    'INVALID_STRUCTURE',
    `the cpr breaks ${first.requirement} at ${first.path || '(root)'}: ${first.message}`,
  );
}
