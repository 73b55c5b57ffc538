/**
 * Concurrent derivations kept apart (spec 2.10, 4.4, 4.5; profile 3): a burst of derive requests
 * sent at once, each with its own DerivationContext (payer, context.rail, authorization, the
 * payer's amount of an open request) and its own CPR (request_id, memo, display_name), delivered
 * by every path (the CPR object, an inline URI, a reference URI whose retrieval awaits I/O on the
 * suite's mock payee), on the HTTP channel (the stdio channel carries one line at a time). Each
 * Payment must be made of its own request and context alone: a wallet that parks a derivation's inputs in a slot shared across an await hands one request's payer,
 * rail or authorization to another. The connection is warmed by one derivation first, so the
 * burst reaches the wallet together.
 */

import { AssertionError } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { encodeInlineUri } from '../../src/codec/uri.js';
import { check, type DeriveResult, forEachWalletChannel, note, onCheckEnd, skip } from '../_lib/index.js';
import { startMockPayee } from '../_lib/mock-payee.js';
import {
  baseCpr,
  deriveContext,
  describeResult,
  fail,
  type JsonObject,
  jsonEqual,
  member,
  short,
} from './_support/index.js';

/** Requests of one burst. */
const BURST = 18;

type Path = 'cpr' | 'inline' | 'reference';

/** One request of the burst and what its Payment must carry. */
interface Racer {
  what: string;
  cpr: JsonObject;
  context: ReturnType<typeof deriveContext>;
  open: boolean;
  path: Path;
}

/** The differences between `payment` and what `racer` asked for (empty when it is its own). */
function mixups(payment: JsonObject, racer: Racer): string[] {
  const out: string[] = [];
  const c = racer.context;
  const context = member(payment, 'context');
  if (!jsonEqual(payment.payer, c.payer)) out.push(`payer ${short(payment.payer)}`);
  if (!jsonEqual(payment.authorization, c.authorization))
    out.push(`authorization ${short(payment.authorization)}`);
  if (!jsonEqual(member(context, 'rail'), c.rail)) out.push(`context.rail ${short(member(context, 'rail'))}`);
  if (member(context, 'request_id') !== racer.cpr.request_id)
    out.push(`context.request_id ${short(member(context, 'request_id'))}`);
  const reference = member(member(payment, 'intent'), 'reference');
  if (reference !== racer.cpr.memo) out.push(`intent.reference ${short(reference)}`);
  const amount = member(member(payment, 'value'), 'amount');
  const want = racer.open ? c.payer_amount : (racer.cpr.value as JsonObject).amount;
  if (amount !== want) out.push(`value.amount ${short(amount)} (expected ${short(want)})`);
  const name = member(member(payment, 'payee'), 'display_name');
  const wantName = (racer.cpr.payee as JsonObject).display_name;
  if (name !== undefined && name !== wantName) out.push(`payee.display_name ${short(name)}`);
  return out;
}

describe('Profile 3: concurrent derivations kept apart', () => {
  forEachWalletChannel((wallet) => {
    check(
      'concurrent-derivations-each-of-its-own-request',
      [
        'CPR-2.10-PAYER',
        'CPR-2.10-AUTHORIZATION',
        'PRF-3-PAYMENT-CONTEXT-RAIL',
        'CPR-2.10-REQUEST-ID-BOUND',
        'CPR-2.10-INTENT-REFERENCE',
        'CPR-4.5-OPEN-AMOUNT',
        'CPR-2.10-ID',
      ],
      `a burst of ${BURST} derivations sent at once (CPR object, inline URI and reference URI, fixed and open amounts), each with its own context and request: every Payment carries its own payer, authorization, context.rail, request_id, memo and amount, and no two share an id`,
      async () => {
        if (wallet.channel === 'stdio')
          skip(
            'the stdio channel carries one request line at a time, each answered before the next is written (profile 3): derivations never overlap there',
          );
        const base = await baseCpr(wallet);
        const mock = await startMockPayee();
        if (mock) onCheckEnd(() => mock.close());
        else note('reference URIs left out of the burst: no suite CA is configured');
        const paths: Path[] = mock ? ['reference', 'cpr', 'inline'] : ['cpr', 'inline'];
        // warm the connection (and the wallet's client to the mock payee)
        const warm = structuredClone(base);
        warm.request_id = randomUUID();
        const warmed = await wallet.derive(
          mock
            ? { uri: mock.offer(warm).uri, context: deriveContext() }
            : { cpr: warm, context: deriveContext() },
        );
        if (!warmed.ok) fail(`the warm-up request was not paid: ${describeResult(warmed)}`);
        const racers: Racer[] = Array.from({ length: BURST }, (_, i) => {
          const path = paths[i % paths.length] as Path;
          const open = i % 2 === 1;
          const marker = randomUUID();
          const cpr = structuredClone(base);
          cpr.request_id = randomUUID();
          cpr.memo = `Burst ${i} ${marker.slice(0, 8)}`;
          cpr.payee = { ...(cpr.payee as JsonObject), display_name: `Payee ${i} ${marker.slice(0, 8)}` };
          const value = { ...(cpr.value as JsonObject) };
          if (open) delete value.amount;
          else value.amount = `${1000 + i}`;
          cpr.value = value;
          const context = deriveContext(open ? { payer_amount: `${5000 + i}` } : {}, marker);
          return { what: `#${i} (${path}, ${open ? 'open' : 'fixed'} amount)`, cpr, context, open, path };
        });
        const inputs = racers.map((r) => {
          const path = r.path;
          if (path === 'cpr') return { cpr: r.cpr, context: r.context };
          if (path === 'inline') return { uri: encodeInlineUri(r.cpr), context: r.context };
          return { uri: mock?.offer(r.cpr).uri as string, context: r.context };
        });
        const results: DeriveResult[] = await Promise.all(inputs.map((input) => wallet.derive(input)));
        const failures: string[] = [];
        const ids = new Map<unknown, string>();
        results.forEach((result, i) => {
          const racer = racers[i] as Racer;
          if (!result.ok) {
            failures.push(`${racer.what}: not paid (${describeResult(result)}), the same request paid alone`);
            return;
          }
          try {
            const wrong = mixups(result.payment, racer);
            if (wrong.length > 0)
              failures.push(`${racer.what}: carries another derivation's ${wrong.join(', ')}`);
          } catch (err) {
            if (!(err instanceof AssertionError)) throw err;
            failures.push(`${racer.what}: ${err.message.split('\n')[0]}`);
          }
          const other = ids.get(result.payment.id);
          if (other !== undefined)
            failures.push(`${racer.what}: id ${short(result.payment.id)} is also ${other}'s`);
          else ids.set(result.payment.id, racer.what);
        });
        if (failures.length > 0) {
          const listed = failures.slice(0, 10);
          const more = failures.length > 10 ? `\n- ... and ${failures.length - 10} more` : '';
          fail(
            `${failures.length} of ${BURST} concurrent derivations went wrong:\n- ${listed.join('\n- ')}${more}`,
          );
        }
      },
    );
  });
});
