/**
 * Smoke suite (operator): a well-known resource and a property check, to prove the fast-check
 * wiring (seed, runs, counterexample recorded in the result).
 */
import fc from 'fast-check';
import { assertProperty, assertThat, check, context, expectOk, operator, skip } from '../../_lib/index.js';

describe('smoke: Cash-Pack API section 4, well-known resources and status', () => {
  check(
    'operator-serves-policy-document',
    ['CP-4-WELL-KNOWN-POLICY'],
    'the Operator serves its policy document',
    async () => {
      const policy = expectOk(await operator().policy(), 'GET the policy');
      assertThat(
        policy !== null && typeof policy === 'object' && !Array.isArray(policy),
        'the policy is a JSON object',
      );
    },
  );

  check(
    'unknown-pack-id-404-pack-unknown-operator',
    ['PRF-4-STATUS-UNKNOWN-404'],
    'an unknown pack_id is 404 PACK_UNKNOWN to the Operator',
    async () => {
      const credential =
        context().config.operator?.operator_status_credential ??
        skip('operator.operator_status_credential is not configured');
      await assertProperty(
        fc.asyncProperty(fc.uuid({ version: 4 }), async (packId) => {
          const r = await operator().status(packId, credential);
          return !r.ok && r.status === 404 && r.error?.code === 'PACK_UNKNOWN';
        }),
      );
    },
  );
});
