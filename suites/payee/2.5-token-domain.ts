/**
 * Payee suite, CPR-1.0 section 2.5: the optional members of an on-chain CPR that name a token are
 * the target token's. The validator checks their form (`domain_separator` is `0x` + 64 hex digits,
 * profile 2); it cannot know whether the value is the right one. Where the suite knows the token
 * (USDC on Ethereum mainnet, whose EIP-712 domain is published on chain), it compares.
 */
import { decodeCprUri } from '../../src/codec/index.js';
import { assertThat, check, sharedState, skip } from '../_lib/index.js';
import { corpusDocuments, harness, label, servedRails } from './_support/index.js';

// These checks judge the payee's corpus of CPRs, built once per process (`cprc run --jobs` runs them
// in one process: suites/_lib sharedState).
sharedState('payee:corpus', ['domain-separator-is-the-target-token-s']);

/**
 * USDC on Ethereum mainnet (chain 1): the token contract, and the value its `DOMAIN_SEPARATOR()`
 * returns, i.e. keccak-256 of EIP712Domain("USD Coin", "2", 1, 0xA0b8...eB48).
 */
const USDC_MAINNET = {
  contract: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  domainSeparator: '0x06c37168a7db5138defc7866392bb87a741f9b3d104deb5094588ce041cae335',
} as const;

/**
 * A chain identifier as a decimal string (profile 2: `eip155:N` and `0x`-hex name chain N; a JSON
 * number, which CPR-2.5-CHAIN-ID refuses, read as its chain all the same), or undefined.
 */
function chainOf(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const v = value
    .trim()
    .toLowerCase()
    .replace(/^eip155:/, '');
  if (/^0x[0-9a-f]+$/.test(v)) return BigInt(v).toString();
  return /^\d+$/.test(v) ? BigInt(v).toString() : undefined;
}

/** Whether an asset descriptor names USDC (its symbol, or its mainnet contract as the code). */
function namesUsdc(asset: { code?: unknown } | undefined): boolean {
  const code = typeof asset?.code === 'string' ? asset.code.trim().toLowerCase() : '';
  return code === 'usdc' || code === USDC_MAINNET.contract;
}

/** What is wrong with the domain_separator of one on-chain CPR (undefined when nothing is). */
function domainProblem(cpr: unknown): string | undefined {
  const doc = cpr as {
    chain_id?: unknown;
    domain_separator?: unknown;
    value?: { asset?: { code?: unknown; chain_id?: unknown } };
  };
  if (typeof doc.domain_separator !== 'string') return undefined; // optional; its form is the validator's
  const separator = doc.domain_separator.toLowerCase();
  const asset = doc.value?.asset;
  const chain = chainOf(doc.chain_id ?? asset?.chain_id);
  // an asset or chain that cannot be read is another requirement's fault: not judged here
  if (typeof asset?.code !== 'string' || chain === undefined) return undefined;
  const usdcOnMainnet = namesUsdc(asset) && chain === '1';
  if (usdcOnMainnet && separator !== USDC_MAINNET.domainSeparator)
    return `USDC on chain 1 with domain_separator ${doc.domain_separator}, not USDC's ${USDC_MAINNET.domainSeparator}`;
  if (!usdcOnMainnet && separator === USDC_MAINNET.domainSeparator)
    return `an asset that is not USDC on chain 1 (${JSON.stringify(asset)}, chain_id ${JSON.stringify(doc.chain_id)}) with the domain_separator of USDC on chain 1`;
  return undefined;
}

/** On-chain requests asked of the harness besides the corpus: USDC and ETH on chain 1, a tokenized asset. */
const ASKED_ASSETS = [
  { type: 'stablecoin', code: 'USDC', chain_id: '1' },
  { type: 'crypto', code: 'ETH' },
  { type: 'tokenized', code: 'BENJI', chain_id: '1' },
] as const;

describe('CPR-1.0 section 2.5: the token members of an on-chain CPR name the target token', () => {
  check(
    'domain-separator-is-the-target-token-s',
    ['CPR-2.5-DOMAIN-SEPARATOR'],
    'domain_separator, when present, is the EIP-712 domain separator of the target token: USDC on Ethereum mainnet gets its published one, and no CPR in another asset carries it',
    async () => {
      if (!(await servedRails()).includes('ON_CHAIN')) skip('the payee does not serve ON_CHAIN');
      const judged: Array<{ what: string; cpr: unknown }> = (await corpusDocuments())
        .filter((e) => (e.cpr as { rail_hint?: unknown }).rail_hint === 'ON_CHAIN')
        .map((e) => ({ what: label(e), cpr: e.cpr }));
      const h = harness();
      for (const asset of ASKED_ASSETS) {
        // A request the payee refuses or answers wrongly is graded by the harness checks
        // (PRF-2-HARNESS-REQUESTS); here only the documents it emits are judged.
        const r = await h.createRequest({ rail_hint: 'ON_CHAIN', asset: { ...asset }, delivery: 'inline' });
        if (!r.ok) continue;
        const d = decodeCprUri(r.value.uri);
        if (d.ok && d.value.kind === 'inline')
          judged.push({ what: `an ON_CHAIN request for ${JSON.stringify(asset)}`, cpr: d.value.document });
      }
      const problems = judged.flatMap(({ what, cpr }) => {
        const p = domainProblem(cpr);
        return p === undefined ? [] : [`${what}: ${p}`];
      });
      assertThat(
        problems.length === 0,
        `every domain_separator is the target token's (${judged.length} on-chain CPRs); ${problems.length} problem(s): ${problems.slice(0, 3).join(' | ')}`,
      );
    },
  );
});
