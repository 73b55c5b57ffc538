/**
 * A wallet whose derivation parks its context in one slot shared by every request, across an
 * await (a module-level "current context" set on entry and read after I/O): one at a time it is
 * the reference; under concurrent derivations each Payment carries the payer, rail,
 * authorization and payer's amount of whichever request came last.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet } from './harness.js';

export const sharedContextRace = brokenWallet({
  id: 'wallet-shared-context-race',
  fault:
    'the derivation context is kept in a slot shared by all requests across an await: concurrent derivations carry each other’s payer, rail, authorization and payer_amount',
  expected: [
    'CPR-2.10-PAYER',
    'CPR-2.10-AUTHORIZATION',
    'PRF-3-PAYMENT-CONTEXT-RAIL',
    'CPR-2.10-REQUEST-ID-BOUND',
    'CPR-2.10-INTENT-REFERENCE',
    'CPR-4.5-OPEN-AMOUNT',
  ],
  overlapSensitive: true,
  core: (options) => {
    const core = createWalletCore(options);
    let parked: unknown;
    return {
      async derive(body) {
        if (typeof body !== 'object' || body === null || !('context' in body)) return core.derive(body);
        parked = (body as { context: unknown }).context;
        await sleep(5); // the retrieval or a lookup the real wallet awaits here
        return core.derive({ ...(body as object), context: parked });
      },
      close: () => core.close(),
    };
  },
});

/**
 * A wallet whose payment id is read from a shared "next id" before an await and renewed after
 * it: one at a time every Payment gets a new id; derivations that overlap read the same one.
 */
export const sharedNextIdRace = brokenWallet({
  id: 'wallet-shared-next-id-race',
  fault:
    'the payment id is taken from a shared next-id slot before an await and renewed after it: concurrent derivations share one id',
  expected: ['CPR-2.10-ID'],
  core: (options) => {
    const core = createWalletCore(options);
    let next = randomUUID();
    return {
      async derive(body) {
        const id = next;
        await sleep(5); // the lookup the real wallet awaits between reading and renewing the slot
        next = randomUUID();
        const result = await core.derive(body);
        return result.ok ? { ok: true, payment: { ...result.payment, id } } : result;
      },
      close: () => core.close(),
    };
  },
});
