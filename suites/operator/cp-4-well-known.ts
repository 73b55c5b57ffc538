/**
 * Cash-Pack API section 4 (well-known resources), section 2 (public key in JWK format) and
 * section 9 rule 3 (the published key is the current one); profile section 4 (policy and JWK
 * shapes).
 */
import { base64urlDecode } from '../../src/crypto/base64url.js';
import { assertThat, check, expectOk, expectStatus, operator } from '../_lib/index.js';
import { assertOperatorSigned, isObject, issue, schemaProblems, setup } from './_support/index.js';

describe('Cash-Pack API section 4: well-known resources', () => {
  check(
    'operator-serves-policy-document-well-known-cashpack',
    ['CP-4-WELL-KNOWN-POLICY'],
    'the Operator serves its policy document at /.well-known/cashpack-policy.json',
    async () => {
      const policy = expectOk(await operator().policy(), 'GET /.well-known/cashpack-policy.json');
      assertThat(isObject(policy), 'the policy document is a JSON object');
    },
  );

  check(
    'policy-has-operator-id-max-amount-min',
    ['PRF-4-POLICY-SHAPE'],
    'the policy has operator_id, max_amount, min/max_expiry_seconds, max_chain_depth, required_identity_level, assets and signature_alg "EdDSA"',
    async () => {
      const r = await operator().policy();
      expectStatus(r, 200, 'GET the policy');
      const problems = schemaProblems('cashpack/policy', r.body);
      assertThat(problems.length === 0, `the policy has the profile section 4 shape: ${problems.join('; ')}`);
    },
  );

  check(
    'policy-limits-usable-1-max-amount-2',
    ['PRF-4-POLICY-SHAPE'],
    'the policy limits are usable: 1 <= max_amount < 2^256, min_expiry_seconds <= max_expiry_seconds, max_chain_depth >= 1, required_identity_level >= 1',
    async () => {
      const policy = expectOk(await operator().policy(), 'GET the policy');
      assertThat(isObject(policy), 'the policy document is a JSON object');
      const { max_amount, min_expiry_seconds: min, max_expiry_seconds: max } = policy;
      assertThat(
        typeof max_amount === 'string' && /^[1-9][0-9]*$/.test(max_amount) && BigInt(max_amount) < 2n ** 256n,
        `"max_amount" is an amount string from 1 to 2^256 - 1 (got ${JSON.stringify(max_amount)})`,
      );
      assertThat(
        Number.isSafeInteger(min) &&
          Number.isSafeInteger(max) &&
          (min as number) >= 0 &&
          (min as number) <= (max as number),
        `0 <= "min_expiry_seconds" <= "max_expiry_seconds" (got ${JSON.stringify(min)} and ${JSON.stringify(max)})`,
      );
      assertThat(
        Number.isSafeInteger(policy.max_chain_depth) && (policy.max_chain_depth as number) >= 1,
        `"max_chain_depth" is an integer of at least 1, so a cash-pack can be renewed (got ${JSON.stringify(policy.max_chain_depth)})`,
      );
      assertThat(
        Number.isSafeInteger(policy.required_identity_level) &&
          (policy.required_identity_level as number) >= 1,
        `"required_identity_level" is an integer of at least 1 (got ${JSON.stringify(policy.required_identity_level)})`,
      );
    },
  );

  check(
    'operator-serves-public-signing-key-well-known',
    ['CP-4-WELL-KNOWN-PUBKEY', 'CP-2-PUBKEY-JWK'],
    'the Operator serves its public signing key at /.well-known/cashpack-pubkey.json in JWK format (RFC 7517)',
    async () => {
      const jwk = expectOk(await operator().publicKey(), 'GET /.well-known/cashpack-pubkey.json');
      assertThat(isObject(jwk), 'the key document is a JSON object (a JWK)');
      assertThat(typeof jwk.kty === 'string', 'the JWK has a "kty" member (RFC 7517 section 4.1)');
      assertThat(!('d' in jwk), 'the published JWK holds no private key member "d"');
    },
  );

  check(
    'operator-key-jwk-kty-okp-crv-edwards',
    ['PRF-4-OPERATOR-JWK', 'PRF-4-ED25519-KEYS'],
    'the Operator key is a JWK {kty: OKP, crv (the Edwards curve of EdDSA), x, kid, alg: EdDSA, use: sig} with a 32-byte x',
    async () => {
      const r = await operator().publicKey();
      expectStatus(r, 200, 'GET the public key');
      const problems = schemaProblems('cashpack/operator-jwk', r.body);
      assertThat(
        problems.length === 0,
        `the key has the profile section 4 JWK shape: ${problems.join('; ')}`,
      );
      const jwk = r.body as Record<string, unknown>;
      let length = -1;
      try {
        length = base64urlDecode(String(jwk.x)).length;
      } catch {
        // reported below
      }
      assertThat(length === 32, `"x" is base64url of the raw 32-byte public key (got ${length} bytes)`);
      assertThat(typeof jwk.kid === 'string' && jwk.kid.length > 0, 'the JWK has a non-empty "kid"');
    },
  );

  check(
    'published-key-current-freshly-issued-cash-pack',
    ['CP-9-CURRENT-KEY', 'PRF-4-OPERATOR-KID'],
    'the published key is the current one: a freshly issued cash-pack carries its kid and verifies with it',
    async () => {
      const s = await setup();
      const { pack } = await issue(s);
      assertOperatorSigned(s, pack, 'the issued cash-pack');
    },
  );
});
