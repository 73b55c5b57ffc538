// One probe per fault: a short black-box observation on the path the fault
// claims. selfcheck.mjs runs each probe on a clean stack and on a stack with
// the fault switched on; the observations must differ.

import { b64urlDecodeStrict, b64urlEncode } from './lib/codec.mjs';
import { isValidIban } from './lib/iban.mjs';
import { canonicalBytes } from './lib/json.mjs';
import { encodeQr, qrToPng } from './lib/qr.mjs';
import { CONTEXT, chainDoc, deriveHttp, ibanDoc } from './selfcheck-clean.mjs';
import {
  bearerKeys,
  call,
  iso,
  lockRequest,
  mockServer,
  readQrPng,
  redemptionRequest,
  renewalEntry,
  sha256Hex,
  stdio,
  suiteCert,
} from './selfcheck-kit.mjs';

const TOKEN = 'abcdefghijklmnopqrstuvwxyz234567';

// ---------------------------------------------------------------------------
// Payee helpers

const harness = (cfg, ca, path, body) =>
  call(`${cfg.payee.harness_url}${path}`, { method: 'POST', body, ca });
const newRequest = async (cfg, ca, body) => (await harness(cfg, ca, '/requests', body)).json;
const tokenOf = (uri) => /^cpr:\/\/([^?]+)\?/.exec(uri)[1];
const get = (cfg, ca, token, opts = {}) => call(`${cfg.payee.base_url}/cpr/${token}`, { ca, ...opts });
const inlineDoc = (uri) => {
  const payload = uri.slice('cpr://inline/'.length).replace(/=+$/, '');
  let text = b64urlDecodeStrict(payload).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return JSON.parse(text);
};

// ---------------------------------------------------------------------------
// Wallet helpers

const derive = async (cfg, ca, request) => {
  const d = await deriveHttp(cfg, ca, request);
  return { status: d.status, code: d.code ?? null, payment: d.payment };
};
const deriveDoc = async (cfg, ca, doc, context = CONTEXT) => derive(cfg, ca, { cpr: doc, context });
const outcome = (d) => (d.status === 200 ? 'PAYMENT' : d.code);

/** Run `fn(mocks)` with mock payees made on demand; everything is closed after. */
async function withMocks(cfg, fn) {
  const open = [];
  const certs = {};
  const cert = async (name, opts) => {
    certs[name] ??= await suiteCert(cfg, name, opts);
    return certs[name];
  };
  const kit = {
    serve: async (handler, certName = 'good') => {
      const tls =
        certName === null
          ? null
          : await cert(
              certName,
              {
                good: { san: 'IP:127.0.0.1,DNS:localhost' },
                wrong: { san: 'DNS:wrong.example' },
                expired: { san: 'IP:127.0.0.1', startdate: '20200101000000Z', enddate: '20200102000000Z' },
              }[certName],
            );
      const m = await mockServer({ tls, handler });
      open.push(m);
      return m;
    },
    uri: (endpoint, token = TOKEN) => `cpr://${token}?endpoint=${encodeURIComponent(endpoint)}`,
  };
  try {
    return await fn(kit);
  } finally {
    await Promise.all(open.map((m) => m.close()));
  }
}
const serveDoc = (doc) => () => ({ status: 200, body: doc });

// ---------------------------------------------------------------------------
// Operator helpers

function op(cfg, ca) {
  const O = cfg.operator;
  const api = async (path, body) => {
    const r = await call(`${O.base_url}${path}`, { method: 'POST', body, ca });
    return { status: r.status, code: r.json?.error?.code ?? null, json: r.json };
  };
  return {
    O,
    api,
    h: (path, body) => call(`${O.harness_url}${path}`, { method: 'POST', body, ca }),
    issue: (principal, opts) => api('/v1/cashpack/issue', lockRequest(principal, opts)),
    renew: (pack, from, to, over) =>
      api('/v1/cashpack/renew', { cashpack: pack, renewal_entry: renewalEntry(pack, from, to, over) }),
    redeem: (pack, bearer, token = O.redeemer_identity_tokens.sufficient, over) =>
      api('/v1/cashpack/redeem', {
        cashpack: pack,
        redemption_request: redemptionRequest(pack, bearer, token, over),
      }),
    status: async (packId, cred) =>
      (
        await call(`${O.base_url}/v1/cashpack/${packId}/status`, {
          ca,
          headers: cred ? { Authorization: `Bearer ${cred}` } : {},
        })
      ).json,
    wellKnown: async (name) => (await call(`${O.base_url}/.well-known/${name}`, { ca })).json,
  };
}

/** Offsets: an instant written in wall time at another offset. */
function atOffset(ms, offsetMinutes) {
  const wall = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes >= 0 ? '+' : '-';
  const abs = Math.abs(offsetMinutes);
  return `${wall}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const offsetExpiredDoc = () =>
  ibanDoc({
    created_at: atOffset(Date.now() - 7200_000, 300),
    expires_at: atOffset(Date.now() - 3600_000, 300),
  });

// ---------------------------------------------------------------------------

export const PROBES = {
  // Payee -------------------------------------------------------------------
  'payee-token-race': async (cfg, ca) => {
    const r = await newRequest(cfg, ca, { delivery: 'reference' });
    const both = await Promise.all([get(cfg, ca, tokenOf(r.uri)), get(cfg, ca, tokenOf(r.uri))]);
    return both.map((x) => x.status).sort();
  },
  'payee-token-ttl-uncapped': async (cfg, ca) => {
    const r = await newRequest(cfg, ca, { delivery: 'reference', token_ttl_seconds: 3600 });
    return Date.parse(r.token_expires_at) - Date.now() <= 901_000;
  },
  'payee-token-expiry-wall-clock': async (cfg, ca) => {
    const r = await newRequest(cfg, ca, { delivery: 'reference', token_ttl_seconds: 60 });
    await harness(cfg, ca, '/clock', { advance_seconds: 120 });
    return (await get(cfg, ca, tokenOf(r.uri))).status;
  },
  'payee-offset-timestamps': async (cfg, ca) => {
    const r = await newRequest(cfg, ca, { delivery: 'inline' });
    const doc = inlineDoc(r.uri);
    return [doc.created_at.endsWith('Z'), doc.expires_at.endsWith('Z')];
  },
  'payee-endpoint-unencoded': async (cfg, ca) =>
    (await newRequest(cfg, ca, { delivery: 'reference' })).uri.includes('endpoint=https%3A%2F%2F'),
  'payee-inline-padded': async (cfg, ca) => {
    const uris = [];
    for (const memo of ['a', 'ab', 'abc'])
      uris.push((await newRequest(cfg, ca, { delivery: 'inline', memo })).uri);
    return uris.some((u) => u.includes('='));
  },
  'payee-inline-bom': async (cfg, ca) => {
    const r = await newRequest(cfg, ca, { delivery: 'inline' });
    return b64urlDecodeStrict(r.uri.slice(13).replace(/=+$/, ''))[0];
  },
  'payee-qr-ec-low': async (cfg, ca) => {
    const r = await newRequest(cfg, ca, { delivery: 'reference', qr: true });
    return readQrPng(Buffer.from(r.qr_png_base64, 'base64')).ec;
  },
  'payee-qr-stale': async (cfg, ca) => {
    await newRequest(cfg, ca, { delivery: 'reference', qr: true });
    const r = await newRequest(cfg, ca, { delivery: 'reference', qr: true });
    return r.qr_png_base64 === qrToPng(encodeQr(r.uri, { ec: 'M' })).toString('base64');
  },
  'payee-plain-http-serves': async (cfg, ca) => {
    const r = await newRequest(cfg, ca, { delivery: 'reference' });
    const plain = await call(`${cfg.payee.plain_http_url}/cpr/${tokenOf(r.uri)}`);
    return [plain.status, plain.json?.cpr_version ?? null];
  },
  'payee-consumed-error-leaks': async (cfg, ca) => {
    const r = await newRequest(cfg, ca, { delivery: 'reference' });
    await get(cfg, ca, tokenOf(r.uri));
    const again = await get(cfg, ca, tokenOf(r.uri));
    return Object.keys(again.json.error).sort();
  },
  'payee-token-uppercase': async (cfg, ca) =>
    /^[a-z2-7]+$|^[0-9a-f]+$/.test(tokenOf((await newRequest(cfg, ca, { delivery: 'reference' })).uri)),
  'payee-token-64-bits': async (cfg, ca) =>
    tokenOf((await newRequest(cfg, ca, { delivery: 'reference' })).uri).length,
  'payee-head-consumes': async (cfg, ca) => {
    const r = await newRequest(cfg, ca, { delivery: 'reference' });
    const head = await get(cfg, ca, tokenOf(r.uri), { method: 'HEAD' });
    return [head.status, (await get(cfg, ca, tokenOf(r.uri))).status];
  },
  'payee-cpr-path-prefix-match': async (cfg, ca) => {
    const r = await newRequest(cfg, ca, { delivery: 'reference' });
    return (await call(`${cfg.payee.base_url}/cpr/${tokenOf(r.uri)}/x`, { ca })).status;
  },
  'payee-error-content-type': async (cfg, ca) => (await get(cfg, ca, TOKEN)).headers['content-type'],
  'payee-served-to-client': async (cfg, ca) => {
    const r = await newRequest(cfg, ca, { delivery: 'reference' });
    return (await get(cfg, ca, tokenOf(r.uri))).json.extensions ?? null;
  },
  'payee-fulfillment-race': async (cfg, ca) => {
    const r = await newRequest(cfg, ca, { delivery: 'inline' });
    const both = await Promise.all([
      harness(cfg, ca, '/fulfillments', { request_id: r.request_id }),
      harness(cfg, ca, '/fulfillments', { request_id: r.request_id }),
    ]);
    return both.map((x) => x.status).sort();
  },
  'payee-fulfillment-wall-clock': async (cfg, ca) => {
    const r = await newRequest(cfg, ca, { delivery: 'inline', validity_seconds: 30 });
    await harness(cfg, ca, '/clock', { advance_seconds: 60 });
    return (await harness(cfg, ca, '/fulfillments', { request_id: r.request_id })).status;
  },
  'payee-validity-minute-floor': async (cfg, ca) => {
    const doc = inlineDoc((await newRequest(cfg, ca, { delivery: 'inline', validity_seconds: 30 })).uri);
    return Date.parse(doc.expires_at) - Date.parse(doc.created_at);
  },
  'payee-custom-chain-rail-address': async (cfg, ca) => {
    const r = await newRequest(cfg, ca, {
      delivery: 'inline',
      rail_hint: 'ON_CHAIN',
      asset: { type: 'stablecoin', code: 'USDC', chain_id: '137' },
    });
    const doc = inlineDoc(r.uri);
    return [doc.chain_id, doc.payee.rail_address.chain_id];
  },
  'payee-open-two-subinterfaces': async (cfg, ca) =>
    'account_number' in inlineDoc((await newRequest(cfg, ca, { delivery: 'inline', rail_hint: 'OPEN' })).uri),
  'payee-extension-payer-namespaced': async (cfg, ca) =>
    (
      await harness(cfg, ca, '/requests', {
        delivery: 'inline',
        extensions: { 'acme:payer.email': 'a@b.example' },
      })
    ).status,
  'payee-request-id-reused': async (cfg, ca) => {
    const a = await newRequest(cfg, ca, { delivery: 'reference', amount: '10' });
    const b = await newRequest(cfg, ca, { delivery: 'reference', amount: '10' });
    return a.request_id === b.request_id;
  },
  'payee-clock-moves-back': async (cfg, ca) =>
    (await harness(cfg, ca, '/clock', { advance_seconds: -30 })).status,
  'payee-swift-iban-check': async (cfg, ca) =>
    isValidIban(inlineDoc((await newRequest(cfg, ca, { delivery: 'inline', rail_hint: 'SWIFT' })).uri).iban),

  // Wallet ------------------------------------------------------------------
  'wallet-offset-ignored': async (cfg, ca) => outcome(await deriveDoc(cfg, ca, offsetExpiredDoc())),
  'wallet-offset-sign-flipped': async (cfg, ca) => outcome(await deriveDoc(cfg, ca, offsetExpiredDoc())),
  'wallet-expiry-grace': async (cfg, ca) =>
    outcome(await deriveDoc(cfg, ca, ibanDoc({ expires_at: iso(-30_000) }))),
  'wallet-memo-utf16-length': async (cfg, ca) =>
    outcome(await deriveDoc(cfg, ca, ibanDoc({ memo: '🙂'.repeat(140) }))),
  'wallet-inline-latin1': async (cfg, ca) => {
    const uri = `cpr://inline/${b64urlEncode(Buffer.from(JSON.stringify(ibanDoc({ memo: 'Café' }))))}`;
    return (await derive(cfg, ca, { uri, context: CONTEXT })).payment?.intent.reference ?? null;
  },
  'wallet-uri-lowercased': async (cfg, ca) => {
    const uri = `cpr://inline/${b64urlEncode(Buffer.from(JSON.stringify(ibanDoc())))}`;
    return outcome(await derive(cfg, ca, { uri, context: CONTEXT }));
  },
  'wallet-acquirer-zero-hex': async (cfg, ca) =>
    (await deriveDoc(cfg, ca, chainDoc())).payment.intent.conditions.acquirer_id,
  'wallet-chain-id-normalized': async (cfg, ca) =>
    (await deriveDoc(cfg, ca, chainDoc())).payment.intent.conditions.chain_id,
  'wallet-query-plus-as-space': async (cfg, ca) =>
    withMocks(cfg, async (m) => {
      const a = await m.serve(serveDoc(ibanDoc()));
      return outcome(
        await derive(cfg, ca, { uri: `cpr://${TOKEN}?endpoint=${a.origin}/a+b`, context: CONTEXT }),
      );
    }),
  'wallet-nulls-stripped': async (cfg, ca) => (await deriveDoc(cfg, ca, ibanDoc())).payment.context.rail,
  'wallet-cpr-array-accepted': async (cfg, ca) =>
    (await derive(cfg, ca, { cpr: [], context: CONTEXT })).status,
  'wallet-endpoint-path-dropped': async (cfg, ca) =>
    withMocks(cfg, async (m) => {
      const a = await m.serve(serveDoc(ibanDoc()));
      await derive(cfg, ca, { uri: m.uri(`${a.origin}/pay/v1`), context: CONTEXT });
      return a.seen.map((s) => s.path);
    }),
  'wallet-endpoint-suffix-duplicated': async (cfg, ca) =>
    withMocks(cfg, async (m) => {
      const a = await m.serve((req) =>
        req.url === `/p/cpr/${TOKEN}` ? { status: 200, body: ibanDoc() } : { status: 404 },
      );
      return outcome(await derive(cfg, ca, { uri: m.uri(`${a.origin}/p/cpr/${TOKEN}`), context: CONTEXT }));
    }),
  'wallet-redirect-to-http': async (cfg, ca) =>
    withMocks(cfg, async (m) => {
      const plain = await m.serve(serveDoc(ibanDoc()), null);
      const a = await m.serve(() => ({ status: 302, headers: { Location: `${plain.origin}/cpr/${TOKEN}` } }));
      const d = await derive(cfg, ca, { uri: m.uri(a.origin), context: CONTEXT });
      return [outcome(d), plain.seen.length];
    }),
  'wallet-redirect-unverified': async (cfg, ca) =>
    withMocks(cfg, async (m) => {
      const wrong = await m.serve(serveDoc(ibanDoc()), 'wrong');
      const a = await m.serve(() => ({ status: 302, headers: { Location: `${wrong.origin}/cpr/${TOKEN}` } }));
      return outcome(await derive(cfg, ca, { uri: m.uri(a.origin), context: CONTEXT }));
    }),
  'wallet-no-hostname-check': async (cfg, ca) =>
    withMocks(cfg, async (m) => {
      const wrong = await m.serve(serveDoc(ibanDoc()), 'wrong');
      return outcome(await derive(cfg, ca, { uri: m.uri(wrong.origin), context: CONTEXT }));
    }),
  'wallet-expired-cert-accepted': async (cfg, ca) =>
    withMocks(cfg, async (m) => {
      const old = await m.serve(serveDoc(ibanDoc()), 'expired');
      return outcome(await derive(cfg, ca, { uri: m.uri(old.origin), context: CONTEXT }));
    }),
  'wallet-http-endpoint-allowed': async (cfg, ca) =>
    withMocks(cfg, async (m) => {
      const plain = await m.serve(serveDoc(ibanDoc()), null);
      const d = await derive(cfg, ca, { uri: m.uri(plain.origin), context: CONTEXT });
      return [outcome(d), plain.seen.length];
    }),
  'wallet-number-amount-unsafe': async (cfg, ca) =>
    outcome(
      await deriveDoc(
        cfg,
        ca,
        ibanDoc({ value: { amount: 2 ** 53 + 2, asset: { type: 'fiat', code: 'EUR' } } }),
      ),
    ),
  'wallet-amount-via-number': async (cfg, ca) =>
    (
      await deriveDoc(
        cfg,
        ca,
        ibanDoc({ value: { amount: '12345678901234567891', asset: { type: 'fiat', code: 'EUR' } } }),
      )
    ).payment.value.amount,
  'wallet-validation-cache': async (cfg, ca) => {
    await deriveDoc(cfg, ca, ibanDoc());
    return outcome(await deriveDoc(cfg, ca, ibanDoc({ expires_at: iso(-60_000) })));
  },
  'wallet-payment-id-memoized': async (cfg, ca) => {
    const a = await deriveDoc(cfg, ca, ibanDoc());
    const b = await deriveDoc(cfg, ca, ibanDoc());
    return a.payment.id === b.payment.id;
  },
  'wallet-shared-context-race': async (cfg, ca) => {
    const ctx = (id) => ({ ...CONTEXT, payer: { id } });
    const [a, b] = await Promise.all([
      deriveDoc(cfg, ca, ibanDoc(), ctx('A')),
      deriveDoc(cfg, ca, ibanDoc(), ctx('B')),
    ]);
    return [a.payment.payer.id, b.payment.payer.id];
  },
  'wallet-payer-amount-overrides': async (cfg, ca) =>
    (await derive(cfg, ca, { cpr: ibanDoc(), context: { ...CONTEXT, payer_amount: '1' } })).payment.value
      .amount,
  'wallet-two-subinterfaces-with-hint': async (cfg, ca) =>
    outcome(await deriveDoc(cfg, ca, ibanDoc({ account_number: '000123456789' }))),
  'wallet-retrieved-expiry-unchecked': async (cfg, ca) =>
    withMocks(cfg, async (m) => {
      const a = await m.serve(serveDoc(ibanDoc({ expires_at: iso(-60_000) })));
      return outcome(await derive(cfg, ca, { uri: m.uri(a.origin), context: CONTEXT }));
    }),
  'wallet-inline-version-unchecked': async (cfg, ca) => {
    const uri = `cpr://inline/${b64urlEncode(Buffer.from(JSON.stringify(ibanDoc({ cpr_version: 'CPR-2.0' }))))}`;
    return outcome(await derive(cfg, ca, { uri, context: CONTEXT }));
  },
  'wallet-stdio-envelope-code': async (cfg) =>
    (await stdio(cfg.wallet.command, [{ context: CONTEXT }]))[0].error.code,
  'wallet-extensions-fallback': async (cfg, ca) =>
    outcome(
      await deriveDoc(
        cfg,
        ca,
        ibanDoc({ value: { asset: { type: 'fiat', code: 'EUR' } }, extensions: { amount: '500' } }),
      ),
    ),
  'wallet-rail-hint-case-folded': async (cfg, ca) =>
    outcome(await deriveDoc(cfg, ca, ibanDoc({ rail_hint: 'pix' }))),
  'wallet-unknown-hint-unsupported': async (cfg, ca) =>
    outcome(await deriveDoc(cfg, ca, ibanDoc({ rail_hint: 'FPS' }))),
  'wallet-onchain-without-hint': async (cfg, ca) =>
    outcome(await deriveDoc(cfg, ca, chainDoc({ rail_hint: undefined }))),
  'wallet-payee-copied-unscreened': async (cfg, ca) => {
    const d = await deriveDoc(cfg, ca, ibanDoc({ payee: { rail_address: {}, payer_ref: 'customer-77' } }));
    return d.payment?.payee ?? d.code;
  },
  'wallet-display-name-whitespace-refused': async (cfg, ca) =>
    outcome(await deriveDoc(cfg, ca, ibanDoc({ payee: { display_name: '  ', rail_address: {} } }))),

  // Operator ----------------------------------------------------------------
  'op-redeem-race': async (cfg, ca) => {
    const o = op(cfg, ca);
    const b = bearerKeys();
    const pack = (await o.issue(o.O.principals.funded, { bearer: b })).json;
    const both = await Promise.all([o.redeem(pack, b), o.redeem(pack, b)]);
    return both.map((x) => x.status).sort();
  },
  'op-issue-duplicate-race': async (cfg, ca) => {
    const o = op(cfg, ca);
    const lr = lockRequest(o.O.principals.funded, { bearer: bearerKeys() });
    const both = await Promise.all([o.api('/v1/cashpack/issue', lr), o.api('/v1/cashpack/issue', lr)]);
    return both.map((x) => x.status).sort();
  },
  'op-renew-race': async (cfg, ca) => {
    const o = op(cfg, ca);
    const b = bearerKeys();
    const pack = (await o.issue(o.O.principals.funded, { bearer: b })).json;
    const both = await Promise.all([o.renew(pack, b, bearerKeys()), o.renew(pack, b, bearerKeys())]);
    return both.map((x) => x.status).sort();
  },
  'op-max-amount-float': async (cfg, ca) => {
    const o = op(cfg, ca);
    const max = BigInt((await o.wellKnown('cashpack-policy.json')).max_amount);
    return (await o.issue(o.O.principals.funded, { bearer: bearerKeys(), amount: `${max + 1n}` })).status;
  },
  'op-max-amount-exclusive': async (cfg, ca) => {
    const o = op(cfg, ca);
    const max = (await o.wellKnown('cashpack-policy.json')).max_amount;
    return (await o.issue(o.O.principals.funded, { bearer: bearerKeys(), amount: max })).status;
  },
  'op-balance-equal-refused': async (cfg, ca) => {
    const o = op(cfg, ca);
    const low = o.O.principals.low_balance;
    return (await o.issue(low, { bearer: bearerKeys(), amount: low.available_balance })).status;
  },
  'op-chain-depth-off-by-one': async (cfg, ca) => {
    const o = op(cfg, ca);
    let b = bearerKeys();
    let pack = (await o.issue(o.O.principals.funded, { bearer: b })).json;
    const depth = (await o.wellKnown('cashpack-policy.json')).max_chain_depth;
    const statuses = [];
    for (let i = 0; i < depth; i += 1) {
      const next = bearerKeys();
      const r = await o.renew(pack, b, next);
      statuses.push(r.status);
      if (r.status !== 200) break;
      pack = r.json;
      b = next;
    }
    return statuses;
  },
  'op-expiry-max-exclusive': async (cfg, ca) => {
    const o = op(cfg, ca);
    const max = (await o.wellKnown('cashpack-policy.json')).max_expiry_seconds;
    const now = Date.now();
    return (
      await o.issue(o.O.principals.funded, {
        bearer: bearerKeys(),
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + max * 1000).toISOString(),
      })
    ).status;
  },
  'op-redeem-refunds-principal': async (cfg, ca) => {
    const o = op(cfg, ca);
    const low = o.O.principals.low_balance;
    const b = bearerKeys();
    const pack = (await o.issue(low, { bearer: b, amount: low.available_balance })).json;
    await o.redeem(pack, b);
    return (await o.issue(low, { bearer: bearerKeys(), amount: '1' })).code;
  },
  'op-expiry-min-safety-margin': async (cfg, ca) => {
    const o = op(cfg, ca);
    const min = (await o.wellKnown('cashpack-policy.json')).min_expiry_seconds;
    const now = Date.now();
    const lr = lockRequest(o.O.principals.funded, {
      bearer: bearerKeys(),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + (min + 5) * 1000).toISOString(),
    });
    return (await o.api('/v1/cashpack/issue', lr)).status;
  },
  'op-offset-ignored': async (cfg, ca) => {
    const o = op(cfg, ca);
    const at = Date.now() + 48 * 3600_000;
    const r = await o.issue(o.O.principals.funded, {
      bearer: bearerKeys(),
      expires_at: atOffset(at, 14 * 60),
    });
    return Date.parse(r.json.expires_at) - Math.floor(at / 1000) * 1000;
  },
  'op-offset-echoed': async (cfg, ca) => {
    const o = op(cfg, ca);
    const r = await o.issue(o.O.principals.funded, {
      bearer: bearerKeys(),
      expires_at: atOffset(Date.now() + 7200_000, -300),
    });
    return r.json.expires_at.endsWith('Z');
  },
  'op-clock-ignored': async (cfg, ca) => {
    const o = op(cfg, ca);
    const pack = (await o.issue(o.O.principals.funded, { bearer: bearerKeys(), expiresIn: 60_000 })).json;
    await o.h('/clock', { advance_seconds: 120 });
    return (await o.status(pack.pack_id, o.O.principals.funded.status_credential)).status;
  },
  'op-expiry-grace': async (cfg, ca) => {
    const o = op(cfg, ca);
    const pack = (await o.issue(o.O.principals.funded, { bearer: bearerKeys(), expiresIn: 20_000 })).json;
    await o.h('/clock', { advance_seconds: 25 });
    return (await o.status(pack.pack_id, o.O.principals.funded.status_credential)).status;
  },
  'op-renew-restamps-issued-at': async (cfg, ca) => {
    const o = op(cfg, ca);
    const b = bearerKeys();
    const pack = (await o.issue(o.O.principals.funded, { bearer: b })).json;
    await o.h('/clock', { advance_seconds: 5 });
    return (await o.renew(pack, b, bearerKeys())).json.issued_at === pack.issued_at;
  },
  'op-status-outsider-404': async (cfg, ca) =>
    (await call(`${cfg.operator.base_url}/v1/cashpack/0d4c1f2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f/status`, { ca }))
      .status,
  'op-status-any-principal': async (cfg, ca) => {
    const o = op(cfg, ca);
    const pack = (await o.issue(o.O.principals.funded, { bearer: bearerKeys() })).json;
    return (await o.status(pack.pack_id, o.O.principals.low_balance.status_credential)).error?.code ?? 'READ';
  },
  'op-identity-level-unchecked': async (cfg, ca) => {
    const o = op(cfg, ca);
    const b = bearerKeys();
    const pack = (await o.issue(o.O.principals.funded, { bearer: b })).json;
    return (await o.redeem(pack, b, o.O.redeemer_identity_tokens.insufficient)).status;
  },
  'op-stale-cashpack-trusted': async (cfg, ca) => {
    const o = op(cfg, ca);
    const a = bearerKeys();
    const pack = (await o.issue(o.O.principals.funded, { bearer: a })).json;
    await o.renew(pack, a, bearerKeys());
    return (await o.redeem(pack, a)).status;
  },
  'op-failed-issue-keeps-lock': async (cfg, ca) => {
    const o = op(cfg, ca);
    const low = o.O.principals.low_balance;
    await o.issue(low, { bearer: bearerKeys(), amount: low.available_balance, expiresIn: 2000 });
    return (await o.issue(low, { bearer: bearerKeys(), amount: low.available_balance })).status;
  },
  'op-harness-expire-no-refund': async (cfg, ca) => {
    const o = op(cfg, ca);
    const low = o.O.principals.low_balance;
    const pack = (await o.issue(low, { bearer: bearerKeys(), amount: low.available_balance })).json;
    await o.h('/expire', { pack_id: pack.pack_id });
    return (await o.issue(low, { bearer: bearerKeys(), amount: low.available_balance })).status;
  },
  'op-lazy-expiry-no-refund': async (cfg, ca) => {
    const o = op(cfg, ca);
    const low = o.O.principals.low_balance;
    const pack = (
      await o.issue(low, { bearer: bearerKeys(), amount: low.available_balance, expiresIn: 15_000 })
    ).json;
    await o.h('/clock', { advance_seconds: 20 });
    const st = (await o.status(pack.pack_id, low.status_credential)).status;
    return [st, (await o.issue(low, { bearer: bearerKeys(), amount: low.available_balance })).status];
  },
  'op-chain-digest-raw-bytes': async (cfg, ca) => {
    const o = op(cfg, ca);
    const b = bearerKeys();
    const pack = (await o.issue(o.O.principals.funded, { bearer: b })).json;
    const entry = renewalEntry(pack, b, bearerKeys());
    const r = await o.api('/v1/cashpack/renew', { cashpack: pack, renewal_entry: entry });
    return (
      r.json.chain_digest ===
      sha256Hex(Buffer.concat([Buffer.from(pack.chain_digest), canonicalBytes(entry)]))
    );
  },
  'op-jwk-x-std-base64': async (cfg, ca) =>
    /^[A-Za-z0-9_-]{43}$/.test((await op(cfg, ca).wellKnown('cashpack-pubkey.json')).x),
  'op-policy-max-amount-number': async (cfg, ca) =>
    typeof (await op(cfg, ca).wellKnown('cashpack-policy.json')).max_amount,
  'op-jwk-private-d': async (cfg, ca) => 'd' in (await op(cfg, ca).wellKnown('cashpack-pubkey.json')),
  'op-lazy-expiry-status-only': async (cfg, ca) => {
    const o = op(cfg, ca);
    const b = bearerKeys();
    const pack = (await o.issue(o.O.principals.funded, { bearer: b, expiresIn: 15_000 })).json;
    await o.h('/clock', { advance_seconds: 20 });
    return (await o.redeem(pack, b)).code;
  },
  'op-cancel-refunds': async (cfg, ca) => {
    const o = op(cfg, ca);
    const low = o.O.principals.low_balance;
    const pack = (await o.issue(low, { bearer: bearerKeys(), amount: low.available_balance })).json;
    await o.h('/cancel', { pack_id: pack.pack_id });
    return (await o.issue(low, { bearer: bearerKeys(), amount: '1' })).code;
  },
  'op-renew-missing-signature-400': async (cfg, ca) => {
    const o = op(cfg, ca);
    const b = bearerKeys();
    const pack = (await o.issue(o.O.principals.funded, { bearer: b })).json;
    const { signature: _s, ...entry } = renewalEntry(pack, b, bearerKeys());
    return (await o.api('/v1/cashpack/renew', { cashpack: pack, renewal_entry: entry })).status;
  },
  'op-unknown-principal-400': async (cfg, ca) => {
    const o = op(cfg, ca);
    return (
      await o.issue({ ...o.O.principals.funded, principal_id: 'principal-nobody' }, { bearer: bearerKeys() })
    ).status;
  },
  'op-balance-parseint': async (cfg, ca) => {
    const o = op(cfg, ca);
    return (
      await o.h('/balance', {
        principal_id: o.O.principals.low_balance.principal_id,
        available_balance: '12.5',
      })
    ).status;
  },
  'op-redeemer-missing-400': async (cfg, ca) => {
    const o = op(cfg, ca);
    const b = bearerKeys();
    const pack = (await o.issue(o.O.principals.funded, { bearer: b })).json;
    return (await o.redeem(pack, b, null)).status;
  },
  'op-renewal-id-per-pack': async (cfg, ca) => {
    const o = op(cfg, ca);
    const a = bearerKeys();
    const b = bearerKeys();
    const p1 = (await o.issue(o.O.principals.funded, { bearer: a })).json;
    const p2 = (await o.issue(o.O.principals.funded, { bearer: b })).json;
    const renewalId = '5f0c2b9e-1d3a-4e7b-9c8d-2a4b6c8d0e1f';
    await o.renew(p1, a, bearerKeys(), { renewal_id: renewalId });
    return (await o.renew(p2, b, bearerKeys(), { renewal_id: renewalId })).status;
  },
  'op-undefined-request-empty-body': async (cfg, ca) => {
    const r = await call(`${cfg.operator.base_url}/v1/cashpack/issue`, { ca });
    return [r.status, r.json?.error?.code ?? null];
  },
};
