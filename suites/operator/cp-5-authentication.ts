/**
 * Cash-Pack API section 5 (authentication): signatures (rule 1), the bearer key (rule 2), the
 * status endpoint's access control (rule 3) and the redeemer's identity (rule 4); with the
 * profile section 1 statuses and the profile section 4 status binding. Each negative check
 * breaks exactly one condition (profile section 4, AMB-30).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type Ed25519PrivateJwk, signObject } from '../../src/crypto/ed25519.js';
import { assertThat, check, expectError, expectErrorCode, expectOk } from '../_lib/index.js';
import {
  type CashPack,
  corruptSignature,
  expectCodeIn,
  expectProfileCodeIn,
  expectProfileError,
  type Issued,
  isObject,
  issue,
  lockRequest,
  newKey,
  type OperatorSetup,
  otherDigest,
  type RedeemerChoice,
  redemptionRequest,
  renewalEntry,
  setup,
  shiftTime,
  statusOf,
} from './_support/index.js';

type Result = Awaited<ReturnType<OperatorSetup['op']['issue']>>;

/** One tampering: which member was changed after signing, and the answer. */
interface Tampered {
  member: string;
  result: Result;
}

/**
 * Lock Requests, each with one signed member changed after the principal signed it. The asset is
 * altered only when the policy offers a second asset (another would be refused as not offered).
 */
async function tamperedLockRequests(s: OperatorSetup): Promise<Tampered[]> {
  const out: Tampered[] = [];
  const edits: Record<string, (r: Record<string, unknown>) => void> = {
    request_id: (r) => {
      r.request_id = randomUUID();
    },
    principal_id: (r) => {
      r.principal_id = s.config.principals.low_balance.principal_id;
    },
    amount: (r) => {
      r.amount = (BigInt(r.amount as string) - 1n).toString();
    },
    initial_bearer_pk: (r) => {
      r.initial_bearer_pk = newKey().publicKey;
    },
    expires_at: (r) => {
      r.expires_at = shiftTime(r.expires_at as string, -1);
    },
    created_at: (r) => {
      r.created_at = shiftTime(r.created_at as string, -1);
    },
    signature: (r) => {
      r.signature = corruptSignature(r.signature as string);
    },
  };
  if (s.policy.assets.length > 1) {
    edits.asset = (r) => {
      r.asset = s.policy.assets[1];
    };
  }
  for (const [member, edit] of Object.entries(edits)) {
    const { request } = lockRequest(s, { amount: '2' });
    const copy = structuredClone(request) as unknown as Record<string, unknown>;
    edit(copy);
    out.push({ member, result: await s.op.issue(copy) });
  }
  return out;
}

/**
 * Renewals, each with one signed member of the entry changed after the bearer signed it. Not
 * altered: pack_id, prev_chain_digest and bearer_pk, whose change would break a second condition
 * (unknown pack, CHAIN_DIGEST_MISMATCH, BEARER_MISMATCH); profile 4 negative checks break one.
 */
async function tamperedRenewalEntries(s: OperatorSetup): Promise<Tampered[]> {
  const out: Tampered[] = [];
  const edits: Record<string, (e: Record<string, unknown>) => void> = {
    renewal_id: (e) => {
      e.renewal_id = randomUUID();
    },
    new_bearer_pk: (e) => {
      e.new_bearer_pk = newKey().publicKey;
    },
    created_at: (e) => {
      e.created_at = shiftTime(e.created_at as string, -1);
    },
    signature: (e) => {
      e.signature = corruptSignature(e.signature as string);
    },
  };
  const { pack, bearer } = await issue(s);
  for (const [member, edit] of Object.entries(edits)) {
    const entry = structuredClone(renewalEntry(pack, bearer, newKey())) as unknown as Record<string, unknown>;
    edit(entry);
    out.push({ member, result: await s.op.renew(pack, entry) });
  }
  return out;
}

/** Renewals and redemptions whose submitted cash-pack copy has one Operator-signed member changed. */
async function tamperedPackCopies(s: OperatorSetup): Promise<Tampered[]> {
  const out: Tampered[] = [];
  const edits: Record<string, (p: Record<string, unknown>) => void> = {
    amount: (p) => {
      p.amount = (BigInt(p.amount as string) + 1n).toString();
    },
    issued_at: (p) => {
      p.issued_at = shiftTime(p.issued_at as string, -1);
    },
    expires_at: (p) => {
      p.expires_at = shiftTime(p.expires_at as string, 1);
    },
    current_bearer_pk: (p) => {
      p.current_bearer_pk = newKey().publicKey;
    },
    chain_digest: (p) => {
      p.chain_digest = otherDigest(p.chain_digest as string);
    },
    kid: (p) => {
      p.kid = `${String(p.kid)}-altered`;
    },
    signature: (p) => {
      p.signature = corruptSignature(p.signature as string);
    },
  };
  const { pack, bearer } = await issue(s);
  for (const [member, edit] of Object.entries(edits)) {
    const copy = structuredClone(pack) as unknown as Record<string, unknown>;
    edit(copy);
    out.push({
      member: `renew: cashpack.${member}`,
      result: await s.op.renew(copy, renewalEntry(pack, bearer, newKey())),
    });
    out.push({
      member: `redeem: cashpack.${member}`,
      result: await s.op.redeem(copy, redemptionRequest(s, pack, bearer)),
    });
  }
  return out;
}

/**
 * Redemptions, each with one signed member of the request changed after the bearer signed it.
 * Not altered, for the reason given above: pack_id, prev_chain_digest, bearer_pk and the redeemer
 * token (REDEEMER_NOT_IDENTIFIED).
 */
async function tamperedRedemptionRequests(s: OperatorSetup): Promise<Tampered[]> {
  const out: Tampered[] = [];
  const edits: Record<string, (r: Record<string, unknown>) => void> = {
    redemption_id: (r) => {
      r.redemption_id = randomUUID();
    },
    destination: (r) => {
      r.destination = { type: 'account', reference: 'cprc-suite-other-destination' };
    },
    created_at: (r) => {
      r.created_at = shiftTime(r.created_at as string, -1);
    },
    signature: (r) => {
      r.signature = corruptSignature(r.signature as string);
    },
  };
  const { pack, bearer } = await issue(s);
  for (const [member, edit] of Object.entries(edits)) {
    const request = structuredClone(redemptionRequest(s, pack, bearer)) as unknown as Record<string, unknown>;
    edit(request);
    out.push({ member, result: await s.op.redeem(pack, request) });
  }
  return out;
}

/** Asserts every tampered message was refused with INVALID_SIGNATURE. */
function expectAllInvalidSignature(tampered: Tampered[], what: string): void {
  for (const t of tampered)
    expectErrorCode(t.result, 'INVALID_SIGNATURE', `${what} with "${t.member}" altered after signing`);
}

describe('Cash-Pack API section 5 rule 1: messages are signed', () => {
  check(
    'lock-request-altered-after-signing-signed-member',
    ['CP-5-MESSAGES-SIGNED', 'CP-5-INVALID-SIGNATURE', 'CP-7-INVALID-SIGNATURE'],
    'a Lock Request altered after signing (each signed member in turn) yields INVALID_SIGNATURE',
    async () => {
      const s = await setup();
      expectAllInvalidSignature(await tamperedLockRequests(s), 'issue');
    },
  );

  check(
    'renewal-entry-altered-after-signing-signed-member',
    ['CP-5-MESSAGES-SIGNED', 'CP-5-INVALID-SIGNATURE', 'CP-7-INVALID-SIGNATURE'],
    'a Renewal Entry altered after signing (each signed member in turn) yields INVALID_SIGNATURE',
    async () => {
      const s = await setup();
      expectAllInvalidSignature(await tamperedRenewalEntries(s), 'renew');
    },
  );

  check(
    'submitted-cash-pack-altered-after-operator-signed',
    ['CP-5-MESSAGES-SIGNED', 'CP-5-INVALID-SIGNATURE', 'CP-7-INVALID-SIGNATURE'],
    'a submitted cash-pack altered after the Operator signed it yields INVALID_SIGNATURE on renew and redeem',
    async () => {
      const s = await setup();
      expectAllInvalidSignature(await tamperedPackCopies(s), 'the request');
    },
  );

  check(
    'redemption-request-altered-after-signing-signed-member',
    ['CP-5-MESSAGES-SIGNED', 'CP-5-INVALID-SIGNATURE', 'CP-7-INVALID-SIGNATURE'],
    'a Redemption Request altered after signing (each signed member in turn) yields INVALID_SIGNATURE',
    async () => {
      const s = await setup();
      expectAllInvalidSignature(await tamperedRedemptionRequests(s), 'redeem');
    },
  );

  check(
    'invalid-signature-http-401-error-body',
    ['PRF-1-ERROR-STATUS', 'PRF-1-ERROR-BODY'],
    'INVALID_SIGNATURE is HTTP 401 with the error body',
    async () => {
      const s = await setup();
      const all = [
        ...(await tamperedLockRequests(s)),
        ...(await tamperedRenewalEntries(s)),
        ...(await tamperedPackCopies(s)),
        ...(await tamperedRedemptionRequests(s)),
      ];
      for (const t of all) expectProfileError(t.result, 401, `"${t.member}" altered after signing`);
    },
  );
});

/**
 * Lock Requests whose principal_id names no principal the Operator knows: signed by the funded
 * principal's key, and by a fresh key. The signer is unknown, so no signature can verify; and an
 * unknown principal holds no balance, so such a request also meets INSUFFICIENT_BALANCE by nature
 * (profile 4: either code is correct, the order of tests is the Operator's).
 */
const UNKNOWN_SIGNER_CODES = ['INVALID_SIGNATURE', 'INSUFFICIENT_BALANCE'];

async function unknownSigners(s: OperatorSetup): Promise<Tampered[]> {
  const out: Tampered[] = [];
  const signers: [string, Ed25519PrivateJwk][] = [
    ['principal_id unknown, signed by the funded principal', s.config.principals.funded.private_key_jwk],
    ['principal_id unknown, signed by a fresh key', newKey().privateJwk],
  ];
  for (const [member, key] of signers) {
    const { request } = lockRequest(s, { amount: '2' });
    const unknown = { ...request, principal_id: `cprc-unknown-${randomUUID()}` };
    out.push({ member, result: await s.op.issue(signObject(unknown, key)) });
  }
  return out;
}

describe('Cash-Pack API section 5 rule 1: an unknown signer', () => {
  check(
    'lock-request-unknown-principal-invalid-signature',
    ['CP-5-INVALID-SIGNATURE', 'CP-7-INVALID-SIGNATURE'],
    'a Lock Request whose principal_id names no principal the Operator knows yields INVALID_SIGNATURE (no key of the signer verifies it), or INSUFFICIENT_BALANCE (an unknown principal holds nothing), never a pack',
    async () => {
      const s = await setup();
      for (const t of await unknownSigners(s))
        expectCodeIn(t.result, UNKNOWN_SIGNER_CODES, `issue: ${t.member}`);
    },
  );

  check(
    'unknown-signer-http-401-error-body',
    ['PRF-1-ERROR-STATUS', 'PRF-1-ERROR-BODY'],
    'the refusal of an unknown signer has the status of its code (INVALID_SIGNATURE 401, profile 1: "signer unknown"; INSUFFICIENT_BALANCE 422) and the error body',
    async () => {
      const s = await setup();
      for (const t of await unknownSigners(s))
        expectProfileCodeIn(t.result, UNKNOWN_SIGNER_CODES, `issue: ${t.member}`);
    },
  );
});

/** A renewal and a redemption of a fresh pack submitted by a key that never held it. */
async function strangerAttempts(s: OperatorSetup): Promise<{ renew: Result; redeem: Result }> {
  const { pack } = await issue(s);
  const stranger = newKey();
  return {
    renew: await s.op.renew(pack, renewalEntry(pack, stranger, newKey())),
    redeem: await s.op.redeem(pack, redemptionRequest(s, pack, stranger)),
  };
}

describe('Cash-Pack API section 5 rule 2: the key matching current_bearer_pk', () => {
  check(
    'renewal-redemption-submitted-key-does-match-current',
    ['CP-5-BEARER-MISMATCH', 'CP-7-BEARER-MISMATCH'],
    'a renewal or redemption submitted by a key that does not match current_bearer_pk yields BEARER_MISMATCH',
    async () => {
      const s = await setup();
      const r = await strangerAttempts(s);
      expectErrorCode(r.renew, 'BEARER_MISMATCH', 'renewal signed by a stranger key');
      expectErrorCode(r.redeem, 'BEARER_MISMATCH', 'redemption signed by a stranger key');
    },
  );

  check(
    'bearer-mismatch-http-403-error-body',
    ['PRF-1-ERROR-STATUS', 'PRF-1-ERROR-BODY'],
    'BEARER_MISMATCH is HTTP 403 with the error body',
    async () => {
      const s = await setup();
      const r = await strangerAttempts(s);
      expectProfileError(r.renew, 403, 'renewal signed by a stranger key');
      expectProfileError(r.redeem, 403, 'redemption signed by a stranger key');
    },
  );
});

/** Status reads of a fresh pack by each kind of caller. */
async function statusReads(s: OperatorSetup): Promise<{ issued: Issued; other: Result; none: Result }> {
  const issued = await issue(s);
  const id = issued.pack.pack_id;
  return {
    issued,
    other: await s.op.status(id, s.config.principals.low_balance.status_credential),
    none: await s.op.status(id),
  };
}

describe('Cash-Pack API section 5 rule 3: the status endpoint is restricted', () => {
  check(
    'issuing-principal-operator-may-read-status',
    ['CP-5-STATUS-ACCESS', 'CP-4-STATUS-RESTRICTED'],
    'the issuing Principal and the Operator may read the status',
    async () => {
      const s = await setup();
      const { pack } = await issue(s);
      const principal = expectOk(
        await s.op.status(pack.pack_id, s.config.principals.funded.status_credential),
        'status read by the issuing principal',
      );
      const op = expectOk(
        await s.op.status(pack.pack_id, s.config.operator_status_credential),
        'status read by the Operator',
      );
      for (const [who, body] of [
        ['the issuing principal', principal],
        ['the Operator', op],
      ] as const) {
        assertThat(
          isObject(body) && body.status === 'ACTIVE',
          `${who} reads status ACTIVE (got ${JSON.stringify(isObject(body) ? body.status : body)})`,
        );
      }
    },
  );

  check(
    'another-principal-caller-without-credentials-refused-status',
    ['CP-5-STATUS-ACCESS', 'CP-4-STATUS-RESTRICTED'],
    'another principal, and a caller without credentials, are refused the status',
    async () => {
      const s = await setup();
      const r = await statusReads(s);
      expectError(r.other, 'status read by another principal');
      expectError(r.none, 'status read without credentials');
    },
  );

  check(
    'missing-credential-another-principal-s-answers-403',
    ['PRF-4-STATUS-FORBIDDEN-403'],
    "a missing credential or another principal's answers 403 FORBIDDEN",
    async () => {
      const s = await setup();
      const r = await statusReads(s);
      for (const [who, result] of [
        ['another principal', r.other],
        ['no credential', r.none],
      ] as const) {
        expectProfileError(result, 403, `status read by ${who}`);
        expectErrorCode(result, 'FORBIDDEN', `status read by ${who}`);
      }
    },
  );

  check(
    'unknown-pack-answers-404-pack-unknown-authenticated',
    ['PRF-4-STATUS-UNKNOWN-404'],
    'an unknown pack answers 404 PACK_UNKNOWN to an authenticated caller (principal and Operator)',
    async () => {
      const s = await setup();
      for (const [who, credential] of [
        ['the funded principal', s.config.principals.funded.status_credential],
        ['the Operator', s.config.operator_status_credential],
      ] as const) {
        const r = await s.op.status(randomUUID(), credential);
        expectProfileError(r, 404, `status of an unknown pack read by ${who}`);
        expectErrorCode(r, 'PACK_UNKNOWN', `status of an unknown pack read by ${who}`);
      }
    },
  );
});

/** Redemptions of fresh packs with an identity below the required level, none, or unknown. */
async function unidentifiedRedemptions(
  s: OperatorSetup,
  choices: readonly ('insufficient' | 'none' | 'unknown')[] = ['insufficient', 'none', 'unknown'],
): Promise<{ choice: string; result: Result; pack: CashPack; issued: Issued }[]> {
  const out = [];
  for (const choice of choices) {
    const issued = await issue(s);
    const { pack, bearer } = issued;
    const request =
      choice === 'unknown'
        ? redemptionRequest(s, pack, bearer, 'none', {
            redeemer: { identity_token: randomBytes(24).toString('base64url') },
          })
        : redemptionRequest(s, pack, bearer, choice as RedeemerChoice);
    out.push({ choice, result: await s.op.redeem(pack, request), pack, issued });
  }
  return out;
}

describe('Profile section 4: status never tells an outsider that a pack exists', () => {
  check(
    'status-without-valid-credential-403-whether-pack-exists',
    ['PRF-4-STATUS-NO-EXISTENCE-LEAK'],
    'a caller without a valid credential (none, or one nobody was given) gets 403 FORBIDDEN for an unknown pack exactly as for an existing one',
    async () => {
      const s = await setup();
      const { pack } = await issue(s);
      const stranger = randomBytes(24).toString('base64url');
      for (const [who, credential] of [
        ['no credential', undefined],
        ['a credential nobody was given', stranger],
      ] as const) {
        for (const [which, id] of [
          ['an existing pack', pack.pack_id],
          ['an unknown pack', randomUUID()],
        ] as const) {
          const r = await s.op.status(id, credential);
          expectProfileError(r, 403, `status of ${which} read with ${who}`);
          expectErrorCode(r, 'FORBIDDEN', `status of ${which} read with ${who}`);
        }
      }
    },
  );
});

describe('Cash-Pack API section 5 rule 4: the redeemer is identified', () => {
  check(
    'redemption-whose-redeemer-below-required-identity-level',
    ['CP-5-REDEEMER-IDENTIFIED', 'CP-7-REDEEMER-NOT-IDENTIFIED', 'CP-1-REDEEMER-IDENTIFIED'],
    'a redemption whose redeemer is below the required identity level, unknown or absent yields REDEEMER_NOT_IDENTIFIED and leaves the pack ACTIVE',
    async () => {
      const s = await setup();
      for (const r of await unidentifiedRedemptions(s)) {
        expectErrorCode(
          r.result,
          'REDEEMER_NOT_IDENTIFIED',
          `redemption with a ${r.choice} redeemer identity`,
        );
        const status = await statusOf(s, r.pack.pack_id);
        assertThat(
          status === 'ACTIVE',
          `after a refused redemption the pack is still ACTIVE (got ${JSON.stringify(status)})`,
        );
      }
    },
  );

  check(
    'redemption-without-redeemer-unknown-identity-token-answers',
    ['PRF-4-REDEEMER-MISSING-403'],
    'a redemption without redeemer or with an unknown identity token answers 403 REDEEMER_NOT_IDENTIFIED',
    async () => {
      const s = await setup();
      for (const r of await unidentifiedRedemptions(s, ['none', 'unknown'])) {
        expectProfileError(r.result, 403, `redemption with a ${r.choice} redeemer identity`);
      }
    },
  );

  check(
    'redeemer-identified-identity-below-required-level-http',
    ['PRF-1-ERROR-STATUS'],
    'REDEEMER_NOT_IDENTIFIED for an identity below the required level is HTTP 403',
    async () => {
      const s = await setup();
      for (const r of await unidentifiedRedemptions(s, ['insufficient']))
        expectProfileError(r.result, 403, 'redemption with an insufficient identity');
    },
  );
});
