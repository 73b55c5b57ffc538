// Clean-stack self-checks: every endpoint of every target, on its ordinary
// and error paths. Used by selfcheck.mjs.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { existsSync } from 'node:fs';
import { b64urlDecodeStrict, b64urlEncode } from './lib/codec.mjs';
import { canonicalBytes } from './lib/json.mjs';
import {
  eip712DomainSeparator,
  isValidEvmAddress,
  keccak256,
  sha3_256,
  toChecksumAddress,
} from './lib/keccak.mjs';
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

const HAS_ZBAR = existsSync('/usr/bin/zbarimg');

// ---------------------------------------------------------------------------
// Documents for the wallet

export function ibanDoc(over = {}) {
  return {
    cpr_version: 'CPR-1.0',
    request_id: '4a6f3c1e-8b1d-4c55-9e7a-0d2b8f6a1c33',
    created_at: iso(-60_000),
    expires_at: iso(3600_000),
    payee: { display_name: 'Shop', rail_address: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' } },
    value: { amount: '1250', asset: { type: 'fiat', code: 'EUR' } },
    memo: 'Order 42',
    rail_hint: 'SEPA_CT',
    iban: 'DE89370400440532013000',
    bic: 'COBADEFFXXX',
    beneficiary_name: 'Shop GmbH',
    ...over,
  };
}

export function chainDoc(over = {}) {
  return {
    cpr_version: 'CPR-1.0',
    request_id: '7d1e2f3a-4b5c-4d6e-8f70-112233445566',
    created_at: iso(-60_000),
    expires_at: iso(3600_000),
    payee: { rail_address: { receiver_address: `0x${'ab'.repeat(20)}`, chain_id: 'eip155:137' } },
    value: { amount: '5000000', asset: { type: 'stablecoin', code: 'USDC', chain_id: '137' } },
    rail_hint: 'ON_CHAIN',
    chain_id: 'eip155:137',
    receiver_address: `0x${'ab'.repeat(20)}`,
    ...over,
  };
}

export function pixDoc(over = {}) {
  return {
    cpr_version: 'CPR-1.0',
    request_id: 'b8c0e7a4-2f0d-4f51-a7c3-5e6d7f809a1b',
    created_at: iso(-60_000),
    expires_at: iso(3600_000),
    payee: { display_name: 'Loja', rail_address: { key_type: 'EVP', key_value: 'k-123' } },
    value: { amount: '990', asset: { type: 'fiat', code: 'BRL' } },
    rail_hint: 'PIX',
    key_type: 'EVP',
    key_value: 'k-123',
    ...over,
  };
}

export const CONTEXT = {
  payer: { id: 'payer-1', name: 'Ana' },
  rail: { network: 'test', fee: null },
  authorization: { type: 'test-proof', value: 'x' },
};

/** Derive through the HTTP harness; returns { status, code?, payment? }. */
export async function deriveHttp(cfg, ca, request) {
  const r = await call(`${cfg.wallet.harness_url}/derive`, {
    method: 'POST',
    ca,
    ...(typeof request === 'string' ? { raw: request } : { body: request }),
  });
  return { status: r.status, code: r.json?.error?.code, payment: r.json?.payment, body: r.json };
}

// ---------------------------------------------------------------------------

export async function checkPayee(cfg, ca, t) {
  const H = cfg.payee.harness_url;
  const post = (path, body) => call(`${H}${path}`, { method: 'POST', body, ca });
  const fetchUri = async (uri) => {
    const m = /^cpr:\/\/([a-z2-7]+)\?endpoint=(.+)$/.exec(uri);
    assert.ok(m, `reference uri shape: ${uri}`);
    const endpoint = decodeURIComponent(m[2]);
    assert.equal(endpoint, cfg.payee.base_url);
    assert.ok(!m[2].includes(':'), 'endpoint is percent-encoded');
    return { token: m[1], res: await call(`${endpoint}/cpr/${m[1]}`, { ca }) };
  };

  await t('lib: Keccak-256, EIP-55 and the EIP-712 domain separator of USDC', async () => {
    const hex = (b) => b.toString('hex');
    assert.equal(hex(keccak256('')), 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    assert.equal(hex(keccak256('abc')), '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
    // The permutation cross-checked with SHA3-256 padding against node:crypto, across block edges.
    for (const n of [0, 135, 136, 137, 300]) {
      const bytes = randomBytes(n);
      assert.equal(hex(sha3_256(bytes)), createHash('sha3-256').update(bytes).digest('hex'), `${n} bytes`);
    }
    assert.notEqual(hex(keccak256('')), createHash('sha3-256').update('').digest('hex'));
    assert.equal(
      toChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'),
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    );
    assert.ok(isValidEvmAddress('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'));
    assert.ok(!isValidEvmAddress('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eb48'), 'bad checksum');
    assert.equal(
      eip712DomainSeparator({
        name: 'USD Coin',
        version: '2',
        chainId: 1,
        verifyingContract: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
      }),
      '0x06c37168a7db5138defc7866392bb87a741f9b3d104deb5094588ce041cae335',
    );
  });

  await t('payee: every rail, reference delivery, single use', async () => {
    for (const rail of [
      'ON_CHAIN',
      'SEPA_CT',
      'SEPA_INST',
      'ACH',
      'PIX',
      'UPI',
      'SWIFT',
      'OPEN',
      undefined,
    ]) {
      const r = await post('/requests', {
        delivery: 'reference',
        amount: '1999',
        ...(rail ? { rail_hint: rail } : {}),
      });
      assert.equal(r.status, 201, JSON.stringify(r.json));
      assert.match(r.json.request_id, /^[0-9a-f-]{36}$/);
      assert.match(r.json.token_expires_at, /Z$/);
      const { token, res } = await fetchUri(r.json.uri);
      assert.equal(token.length, 32);
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'application/json');
      const doc = res.json;
      assert.equal(doc.request_id, r.json.request_id);
      assert.match(doc.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      if (rail) assert.equal(doc.rail_hint, rail);
      const d = await deriveHttp(cfg, ca, { cpr: doc, context: CONTEXT });
      const served = ['SEPA_CT', 'SEPA_INST', 'SWIFT', 'ON_CHAIN', 'OPEN', undefined].includes(rail);
      if (served) assert.equal(d.status, 200, `${rail}: ${JSON.stringify(d.body)}`);
      else assert.equal(d.code, 'UNSUPPORTED_RAIL', `${rail}: ${JSON.stringify(d.body)}`);
      const again = await call(`${cfg.payee.base_url}/cpr/${token}`, { ca });
      assert.equal(again.status, 410);
      assert.equal(again.json.error.code, 'TOKEN_CONSUMED');
      assert.deepEqual(Object.keys(again.json), ['error']);
    }
  });

  await t('payee: inline delivery, open amount, extensions, memo in code points', async () => {
    const memo = '😀'.repeat(140);
    const r = await post('/requests', {
      delivery: 'inline',
      memo,
      extensions: { 'com.example:statusCode': 3, 'acme:note': 'x' },
    });
    assert.equal(r.status, 201);
    assert.equal(r.json.token_expires_at, undefined);
    const payload = r.json.uri.slice('cpr://inline/'.length);
    const bytes = b64urlDecodeStrict(payload);
    assert.ok(bytes, 'unpadded base64url');
    assert.notEqual(bytes[0], 0xef, 'no BOM');
    const doc = JSON.parse(bytes.toString('utf8'));
    assert.equal(doc.memo, memo);
    assert.equal(doc.value.amount, undefined);
    const d = await deriveHttp(cfg, ca, { uri: r.json.uri, context: { ...CONTEXT, payer_amount: '77' } });
    assert.equal(d.status, 200, JSON.stringify(d.body));
    assert.equal(d.payment.value.amount, '77');
    assert.equal(d.payment.intent.reference, memo);
  });

  await t('payee: harness refusals', async () => {
    for (const body of [
      { delivery: 'carrier-pigeon' },
      { delivery: 'inline', memo: 'x'.repeat(141) },
      { delivery: 'inline', rail_hint: 'sepa_ct' },
      { delivery: 'inline', amount: '012' },
      { delivery: 'inline', amount: 12 },
      { delivery: 'inline', extensions: { 'acme:payer.email': 'a@b' } },
      { delivery: 'inline', extensions: { nested: { status: 'PAID' } } },
      { delivery: 'inline', asset: { type: 'stablecoin', code: 'USDC' } },
      { delivery: 'reference', token_ttl_seconds: 0 },
    ]) {
      const r = await post('/requests', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.error.code, 'INVALID_REQUEST');
    }
    const bad = await call(`${H}/requests`, { method: 'POST', raw: '{"delivery":', ca });
    assert.equal(bad.status, 400);
  });

  await t('payee: harness values that would make a non-conformant CPR are refused', async () => {
    const refused = [
      { asset: { type: 'fiat', code: 'EURO' } },
      { asset: { type: 'fiat', code: 'ABC' } },
      { asset: { type: 'fiat', code: 'eur' } },
      { asset: { type: 'fiat', code: 'HRK' } },
      { asset: { type: 'fiat', code: 'EUR', chain_id: '1' } },
      { asset: { type: 'fiat', code: 'EUR', issuer: 'x' } },
      { asset: { type: 'tokenized', code: 'TBILL' } },
      { asset: { type: 'stablecoin', code: 'USDC', chain_id: 'mainnet' } },
      { asset: { type: 'stablecoin', code: 'USDC', chain_id: '0' } },
      { asset: { type: 'stablecoin', code: 'US DC', chain_id: '1' } },
      { asset: { type: 'crypto', code: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eb48' } },
      { amount: '0' },
      { amount: '+5' },
      { amount: `${2n ** 256n}` },
      { memo: '😀'.repeat(141) },
      { remittance_info: 'x'.repeat(141) },
      { rail_hint: 'PIX', remittance_info: 'Invoice 7' },
      { extensions: { ſtatus: 'PAID' } },
      { extensions: { 'Checkout Data/Payer-Ref': 'c-1' } },
      { extensions: { list: [{ 'com.example.settlement_date': 'x' }] } },
    ];
    for (const body of refused) {
      const r = await post('/requests', { delivery: 'inline', ...body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.error.code, 'INVALID_REQUEST');
    }
    for (const raw of [
      '{"delivery":"inline","memo":"\\ud800"}',
      '{"delivery":"inline","extensions":{"n":12345678901234567890}}',
    ]) {
      const r = await call(`${H}/requests`, { method: 'POST', raw, ca });
      assert.equal(r.status, 400, raw);
    }
    const inline = async (body) => {
      const r = await post('/requests', { delivery: 'inline', ...body });
      assert.equal(r.status, 201, `${JSON.stringify(body)} -> ${JSON.stringify(r.json)}`);
      return JSON.parse(b64urlDecodeStrict(r.json.uri.slice(13)).toString());
    };
    const chf = await inline({
      rail_hint: 'SEPA_CT',
      asset: { type: 'fiat', code: 'CHF' },
      remittance_info: 'Inv 7',
    });
    assert.deepEqual(chf.value.asset, { type: 'fiat', code: 'CHF' });
    assert.equal(chf.remittance_info, 'Inv 7');
    const ach = await inline({ rail_hint: 'ACH', remittance_info: 'Inv 8' });
    assert.equal(ach.remittance_info, 'Inv 8');
    const token = await inline({ asset: { type: 'tokenized', code: 'TBILL-26', chain_id: '0x89' } });
    assert.equal(token.value.asset.chain_id, '0x89');
  });

  await t('payee: on-chain documents: EIP-55 receiver, domain separator only for a known token', async () => {
    const USDC_SEPARATOR = '0x06c37168a7db5138defc7866392bb87a741f9b3d104deb5094588ce041cae335';
    const onChain = async (asset) => {
      const r = await post('/requests', {
        delivery: 'inline',
        rail_hint: 'ON_CHAIN',
        ...(asset ? { asset } : {}),
      });
      assert.equal(r.status, 201, JSON.stringify(r.json));
      return JSON.parse(b64urlDecodeStrict(r.json.uri.slice(13)).toString());
    };
    const usdc = await onChain();
    assert.deepEqual(usdc.value.asset, { type: 'stablecoin', code: 'USDC', chain_id: '1' });
    assert.equal(usdc.domain_separator, USDC_SEPARATOR);
    assert.equal(toChecksumAddress(usdc.receiver_address), usdc.receiver_address, 'EIP-55 form');
    assert.equal(usdc.payee.rail_address.receiver_address, usdc.receiver_address);
    assert.equal(usdc.contract_address, undefined);
    for (const chain of ['eip155:1', '0x1']) {
      const doc = await onChain({ type: 'stablecoin', code: 'USDC', chain_id: chain });
      assert.equal(doc.domain_separator, USDC_SEPARATOR, chain);
    }
    for (const asset of [
      { type: 'stablecoin', code: 'USDC', chain_id: '137' },
      { type: 'stablecoin', code: 'USDT', chain_id: '1' },
      { type: 'crypto', code: 'ETH' },
    ]) {
      const doc = await onChain(asset);
      assert.equal(doc.domain_separator, undefined, JSON.stringify(asset));
      assert.ok(isValidEvmAddress(doc.receiver_address));
    }
    const d = await deriveHttp(cfg, ca, { cpr: usdc, context: { ...CONTEXT, payer_amount: '1000000' } });
    assert.equal(d.status, 200, JSON.stringify(d.body));
  });

  await t('payee: QR payload, byte mode, EC M', async () => {
    const r = await post('/requests', { delivery: 'reference', qr: true, rail_hint: 'PIX', amount: '5' });
    const png = Buffer.from(r.json.qr_png_base64, 'base64');
    const info = readQrPng(png);
    assert.equal(info.ec, 'M');
    if (HAS_ZBAR) {
      const out = execFileSync('/usr/bin/zbarimg', ['-q', '--raw', '-Sbinary', '-'], {
        input: png,
        stdio: ['pipe', 'pipe', 'ignore'],
      });
      assert.equal(out.toString().replace(/\n$/, ''), r.json.uri);
    }
  });

  await t('payee: undefined requests, plain HTTP', async () => {
    const r = await post('/requests', { delivery: 'reference' });
    const token = /^cpr:\/\/([a-z2-7]+)/.exec(r.json.uri)[1];
    const head = await call(`${cfg.payee.base_url}/cpr/${token}`, { method: 'HEAD', ca });
    assert.equal(head.status, 405);
    const postCpr = await call(`${cfg.payee.base_url}/cpr/${token}`, { method: 'POST', body: {}, ca });
    assert.equal(postCpr.status, 405);
    assert.equal(postCpr.json.error.code, 'METHOD_NOT_ALLOWED');
    const suffix = await call(`${cfg.payee.base_url}/cpr/${token}/x`, { ca });
    assert.equal(suffix.status, 404);
    const plain = await call(`${cfg.payee.plain_http_url}/cpr/${token}`);
    assert.ok(plain.status >= 400 && plain.status < 500);
    assert.ok(plain.json.error.code);
    const unknown = await call(`${cfg.payee.base_url}/cpr/${'a'.repeat(32)}`, { ca });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.error.code, 'TOKEN_UNKNOWN');
    assert.equal(unknown.headers['content-type'], 'application/json');
    const ok = await call(`${cfg.payee.base_url}/cpr/${token}`, { ca });
    assert.equal(ok.status, 200, 'nothing above consumed the token');
    const getHarness = await call(`${H}/requests`, { ca });
    assert.equal(getHarness.status, 405);
  });

  await t('payee: fulfilments and clock', async () => {
    const r = await post('/requests', { delivery: 'inline', validity_seconds: 30, token_ttl_seconds: 5000 });
    const id = r.json.request_id;
    assert.equal((await post('/fulfillments', { request_id: id })).status, 200);
    const dup = await post('/fulfillments', { request_id: id });
    assert.equal(dup.status, 409);
    assert.equal(dup.json.error.code, 'DUPLICATE_ID');
    assert.equal(
      (await post('/fulfillments', { request_id: '0b9a1c55-7e0c-4d4b-9d43-6c0f1f7d2a10' })).json.error.code,
      'REQUEST_UNKNOWN',
    );
    assert.equal((await post('/fulfillments', { request_id: 'nope' })).status, 404);
    assert.equal((await post('/fulfillments', {})).status, 400);
    assert.equal((await post('/fulfillments', { request_id: 5 })).status, 400);
    const ref = await post('/requests', {
      delivery: 'reference',
      validity_seconds: 30,
      token_ttl_seconds: 5000,
    });
    const created = Date.now();
    assert.ok(Date.parse(ref.json.token_expires_at) - created <= 901_000, 'token lifetime capped at 900 s');
    assert.equal((await post('/clock', { advance_seconds: -5 })).status, 400);
    const c = await post('/clock', { advance_seconds: 31 });
    assert.equal(c.status, 200);
    assert.ok(Date.parse(c.json.now) - Date.now() > 29_000);
    const late = await post('/fulfillments', { request_id: ref.json.request_id });
    assert.equal(late.json.error.code, 'REQUEST_EXPIRED');
    assert.equal((await post('/clock', { advance_seconds: 900 })).status, 200);
    const { res } = await fetchUri(ref.json.uri);
    assert.equal(res.status, 410);
    assert.equal(res.json.error.code, 'TOKEN_EXPIRED');
    const { res: res2 } = await fetchUri(ref.json.uri);
    assert.equal(res2.json.error.code, 'TOKEN_EXPIRED');
  });

  await t('payee: on-chain documents with a harness asset keep chain ids equal', async () => {
    const r = await post('/requests', {
      delivery: 'inline',
      rail_hint: 'ON_CHAIN',
      amount: '1',
      asset: { type: 'stablecoin', code: 'USDC', chain_id: 'eip155:137' },
    });
    const doc = JSON.parse(b64urlDecodeStrict(r.json.uri.slice(13)).toString());
    assert.equal(doc.chain_id, 'eip155:137');
    assert.equal(doc.payee.rail_address.chain_id, 'eip155:137');
  });
}

// ---------------------------------------------------------------------------

export async function checkWallet(cfg, ca, t, payeeCfg) {
  const derive = (request) => deriveHttp(cfg, ca, request);

  await t('wallet: Payment from a direct CPR', async () => {
    const doc = ibanDoc({ extensions: { amount: '1', iban: 'GB00', 'com.example:statusCode': 1 } });
    const d = await derive({ cpr: doc, context: CONTEXT });
    assert.equal(d.status, 200, JSON.stringify(d.body));
    const p = d.payment;
    assert.match(p.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(p.payer, CONTEXT.payer);
    assert.deepEqual(p.authorization, CONTEXT.authorization);
    assert.deepEqual(p.context, { rail: CONTEXT.rail, request_id: doc.request_id });
    assert.equal(p.state, 'CREATED');
    assert.deepEqual(p.value, doc.value);
    assert.equal(p.intent.reference, 'Order 42');
    assert.equal(p.intent.conditions.iban, doc.iban);
    assert.equal(p.payee.iban, doc.iban);
    assert.equal(p.payee.beneficiary_name, doc.beneficiary_name);
    assert.equal(p.payee.display_name, 'Shop');
    const p2 = (await derive({ cpr: doc, context: CONTEXT })).payment;
    assert.notEqual(p2.id, p.id);
  });

  await t('wallet: document refusals', async () => {
    const cases = [
      [ibanDoc({ cpr_version: 'CPR-2.0' }), 'INVALID_VERSION'],
      [ibanDoc({ expires_at: iso(-1000) }), 'EXPIRED'],
      [
        ibanDoc({ expires_at: new Date(Date.now() + 3600_000).toISOString().replace('Z', '+14:00') }),
        'EXPIRED',
      ],
      [ibanDoc({ value: { asset: { type: 'fiat', code: 'EUR' } } }), 'AMOUNT_REQUIRED'],
      [
        ibanDoc({ value: { amount: 2 ** 53 + 2, asset: { type: 'fiat', code: 'EUR' } } }),
        'INVALID_STRUCTURE',
      ],
      [ibanDoc({ value: { amount: 1.5, asset: { type: 'fiat', code: 'EUR' } } }), 'INVALID_STRUCTURE'],
      [pixDoc(), 'UNSUPPORTED_RAIL'],
      [pixDoc({ rail_hint: 'pix' }), 'UNSUPPORTED_RAIL'],
      [ibanDoc({ account_number: '1234', rail_hint: 'SEPA_CT' }), 'INVALID_STRUCTURE'],
      [ibanDoc({ rail_hint: 'ACH' }), 'INVALID_STRUCTURE'],
      [chainDoc({ rail_hint: 'OPEN' }), 'INVALID_STRUCTURE'],
      [ibanDoc({ extensions: { 'acme:payer.email': 'a@b' } }), 'INVALID_STRUCTURE'],
      [
        ibanDoc({ payee: { rail_address: { iban: 'DE89370400440532013000' }, payer_ref: 'p' } }),
        'INVALID_STRUCTURE',
      ],
      [ibanDoc({ iban: 'DE89370400440532013001', payee: { rail_address: {} } }), 'INVALID_STRUCTURE'],
      [ibanDoc({ memo: 'x'.repeat(141) }), 'INVALID_STRUCTURE'],
      [chainDoc({ chain_id: '1' }), 'INVALID_STRUCTURE'],
    ];
    for (const [doc, code] of cases) {
      const d = await derive({ cpr: doc, context: CONTEXT });
      assert.equal(d.code, code, JSON.stringify(doc));
      assert.equal(d.status, 422);
      assert.ok(d.body.error.message.length > 0);
    }
  });

  await t('wallet: accepted variants', async () => {
    const variants = [
      ibanDoc({ rail_hint: 'sepa_ct' }),
      ibanDoc({ rail_hint: 'FPS' }),
      ibanDoc({ rail_hint: undefined }),
      ibanDoc({ rail_hint: 'SWIFT' }),
      ibanDoc({ payee: { display_name: '   ', rail_address: {} } }),
      ibanDoc({ memo: '😀'.repeat(140) }),
      ibanDoc({ request_id: 'not-a-uuid' }),
      ibanDoc({ value: { amount: 12345, asset: { type: 'fiat', code: 'EUR' } } }),
      ibanDoc({ value: { amount: `${2n ** 256n - 1n}`, asset: { type: 'fiat', code: 'EUR' } } }),
      ibanDoc({
        created_at: new Date(Date.now() - 60_000).toISOString().replace('Z', '-05:00'),
        expires_at: new Date(Date.now() + 3600_000).toISOString().replace('Z', '-05:00'),
      }),
      ibanDoc({ extensions: { 'com.example:statusCode': 1, 'status.code': 2 } }),
    ];
    for (const doc of variants) {
      const d = await derive({ cpr: JSON.parse(JSON.stringify(doc)), context: CONTEXT });
      assert.equal(d.status, 200, `${JSON.stringify(doc)} -> ${JSON.stringify(d.body)}`);
    }
    const big = await derive({
      cpr: ibanDoc({ value: { amount: `${2n ** 256n - 1n}`, asset: { type: 'fiat', code: 'EUR' } } }),
      context: CONTEXT,
    });
    assert.equal(big.payment.value.amount, `${2n ** 256n - 1n}`);
    const num = await derive({
      cpr: ibanDoc({ value: { amount: 12345, asset: { type: 'fiat', code: 'EUR' } } }),
      context: CONTEXT,
    });
    assert.equal(num.payment.value.amount, '12345');
    const fixed = await derive({ cpr: ibanDoc(), context: { ...CONTEXT, payer_amount: '1' } });
    assert.equal(fixed.payment.value.amount, '1250');
  });

  await t('wallet: on-chain conditions', async () => {
    const d = await derive({ cpr: chainDoc(), context: CONTEXT });
    assert.equal(d.status, 200, JSON.stringify(d.body));
    assert.equal(d.payment.intent.conditions.acquirer_id, '00000000-0000-0000-0000-000000000000');
    assert.equal(d.payment.intent.conditions.chain_id, 'eip155:137');
    assert.equal(d.payment.payee.receiver_address, chainDoc().receiver_address);
    assert.equal(d.payment.intent.reference, chainDoc().request_id);
  });

  await t('wallet: harness request errors (HTTP and stdio)', async () => {
    const bad = [
      'not json',
      '[]',
      { cpr: ibanDoc() },
      { cpr: ibanDoc(), uri: 'cpr://inline/e30', context: CONTEXT },
      { context: CONTEXT },
      { cpr: [ibanDoc()], context: CONTEXT },
      { cpr: null, context: CONTEXT },
      { uri: 5, context: CONTEXT },
      { cpr: ibanDoc(), context: { payer: {}, rail: {} } },
      { cpr: ibanDoc(), context: 'x' },
    ];
    for (const b of bad) {
      const d = await derive(b);
      assert.equal(d.status, 400, JSON.stringify(b));
      assert.equal(d.code, 'INVALID_REQUEST');
    }
    const answers = await stdio(cfg.wallet.command, [...bad, { cpr: ibanDoc(), context: CONTEXT }]);
    assert.equal(answers.length, bad.length + 1);
    for (const a of answers.slice(0, -1)) assert.equal(a.error.code, 'INVALID_REQUEST');
    assert.equal(answers.at(-1).payment.state, 'CREATED');
    const dup = await derive(
      `{"cpr": {"cpr_version":"CPR-1.0","cpr_version":"CPR-1.0"}, "context": ${JSON.stringify(CONTEXT)}}`,
    );
    assert.equal(dup.code, 'INVALID_STRUCTURE');
  });

  await t('wallet: inline URIs', async () => {
    const json = Buffer.from(JSON.stringify(ibanDoc({ memo: 'Café ☕' })), 'utf8');
    const uri = `cpr://inline/${b64urlEncode(json)}`;
    const d = await derive({ uri, context: CONTEXT });
    assert.equal(d.status, 200, JSON.stringify(d.body));
    assert.equal(d.payment.intent.reference, 'Café ☕');
    const [s] = await stdio(cfg.wallet.command, [{ uri, context: CONTEXT }]);
    assert.equal(s.payment.intent.reference, 'Café ☕');
    const bom = `cpr://inline/${b64urlEncode(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json]))}`;
    assert.equal((await derive({ uri: bom, context: CONTEXT })).status, 200);
    assert.equal((await derive({ uri: 'cpr://inline/%%%', context: CONTEXT })).code, 'INVALID_STRUCTURE');
    assert.equal(
      (await derive({ uri: 'https://example.com/x', context: CONTEXT })).code,
      'INVALID_STRUCTURE',
    );
  });

  if (payeeCfg) {
    await t('wallet: reference URI from the foreign payee', async () => {
      const r = await call(`${payeeCfg.harness_url}/requests`, {
        method: 'POST',
        body: { delivery: 'reference', amount: '10' },
        ca,
      });
      const d = await derive({ uri: r.json.uri, context: CONTEXT });
      assert.equal(d.status, 200, JSON.stringify(d.body));
      const again = await derive({ uri: r.json.uri, context: CONTEXT });
      assert.equal(again.code, 'TOKEN_REJECTED');
    });
  }

  await t('wallet: retrieval rules against suite-CA mock payees', async () => {
    const good = await suiteCert(cfg, 'good', { san: 'IP:127.0.0.1,DNS:localhost' });
    const wrongHost = await suiteCert(cfg, 'wrong-host', { san: 'DNS:wrong.example' });
    const expired = await suiteCert(cfg, 'expired', {
      san: 'IP:127.0.0.1',
      startdate: '20200101000000Z',
      enddate: '20200102000000Z',
    });
    const doc = ibanDoc({ request_id: 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f' });
    const serveDoc = () => ({ status: 200, body: doc });
    const mocks = [];
    try {
      const a = await mockServer({ tls: good, handler: serveDoc });
      mocks.push(a);
      const tok = 'abcdefghijklmnopqrstuvwxyz234567';
      const viaPrefix = await derive({
        uri: `cpr://${tok}?endpoint=${encodeURIComponent(`${a.origin}/pay/v1`)}`,
        context: CONTEXT,
      });
      assert.equal(viaPrefix.status, 200, JSON.stringify(viaPrefix.body));
      assert.equal(a.seen.at(-1).path, `/pay/v1/cpr/${tok}`);
      const viaSlash = await derive({
        uri: `cpr://${tok}?endpoint=${encodeURIComponent(`${a.origin}/pay/`)}`,
        context: CONTEXT,
      });
      assert.equal(viaSlash.status, 200, JSON.stringify(viaSlash.body));
      assert.equal(a.seen.at(-1).path, `/pay//cpr/${tok}`, 'exactly {endpoint}/cpr/{token}');
      const viaSuffix = await derive({
        uri: `cpr://${tok}?endpoint=${encodeURIComponent(`${a.origin}/p/cpr/${tok}`)}`,
        context: CONTEXT,
      });
      assert.equal(viaSuffix.status, 200);
      assert.equal(a.seen.at(-1).path, `/p/cpr/${tok}`);
      const raw = await derive({ uri: `cpr://${tok}?endpoint=${a.origin}/a+b`, context: CONTEXT });
      assert.equal(raw.status, 200);
      assert.equal(a.seen.at(-1).path, `/a+b/cpr/${tok}`);

      const plain = await mockServer({ handler: serveDoc });
      mocks.push(plain);
      const redirHttp = await mockServer({
        tls: good,
        handler: () => ({ status: 302, headers: { Location: `${plain.origin}/cpr/${tok}` } }),
      });
      mocks.push(redirHttp);
      const r1 = await derive({
        uri: `cpr://${tok}?endpoint=${encodeURIComponent(redirHttp.origin)}`,
        context: CONTEXT,
      });
      assert.equal(r1.code, 'TOKEN_REJECTED');
      assert.equal(plain.seen.length, 0);
      const r2 = await derive({
        uri: `cpr://${tok}?endpoint=${encodeURIComponent(plain.origin)}`,
        context: CONTEXT,
      });
      assert.equal(r2.code, 'TOKEN_REJECTED');
      assert.equal(plain.seen.length, 0);

      const redirOk = await mockServer({
        tls: good,
        handler: () => ({ status: 307, headers: { Location: `${a.origin}/moved/cpr/${tok}` } }),
      });
      mocks.push(redirOk);
      const r3 = await derive({
        uri: `cpr://${tok}?endpoint=${encodeURIComponent(redirOk.origin)}`,
        context: CONTEXT,
      });
      assert.equal(r3.status, 200);

      const wrong = await mockServer({ tls: wrongHost, handler: serveDoc });
      const old = await mockServer({ tls: expired, handler: serveDoc });
      const ownCaOnly = await mockServer({ tls: { key: good.key, cert: good.cert }, handler: serveDoc });
      mocks.push(wrong, old, ownCaOnly);
      for (const m of [wrong, old]) {
        const r = await derive({
          uri: `cpr://${tok}?endpoint=${encodeURIComponent(m.origin)}`,
          context: CONTEXT,
        });
        assert.equal(r.code, 'TOKEN_REJECTED');
        assert.equal(m.seen.length, 0, 'no request reaches an unauthenticated server');
      }
      const redirBad = await mockServer({
        tls: good,
        handler: () => ({ status: 302, headers: { Location: `${wrong.origin}/cpr/${tok}` } }),
      });
      mocks.push(redirBad);
      assert.equal(
        (
          await derive({
            uri: `cpr://${tok}?endpoint=${encodeURIComponent(redirBad.origin)}`,
            context: CONTEXT,
          })
        ).code,
        'TOKEN_REJECTED',
      );
      const stale = await mockServer({
        tls: good,
        handler: () => ({ status: 200, body: ibanDoc({ expires_at: iso(-5000) }) }),
      });
      mocks.push(stale);
      assert.equal(
        (await derive({ uri: `cpr://${tok}?endpoint=${encodeURIComponent(stale.origin)}`, context: CONTEXT }))
          .code,
        'EXPIRED',
      );
      const gone = await mockServer({
        tls: good,
        handler: () => ({ status: 410, body: { error: { code: 'TOKEN_CONSUMED', message: 'x' } } }),
      });
      mocks.push(gone);
      assert.equal(
        (await derive({ uri: `cpr://${tok}?endpoint=${encodeURIComponent(gone.origin)}`, context: CONTEXT }))
          .code,
        'TOKEN_REJECTED',
      );
      const [s] = await stdio(cfg.wallet.command, [
        { uri: `cpr://${tok}?endpoint=${encodeURIComponent(`${a.origin}/s`)}`, context: CONTEXT },
      ]);
      assert.equal(s.payment?.state, 'CREATED', JSON.stringify(s));
    } finally {
      await Promise.all(mocks.map((m) => m.close()));
    }
  });
}

// ---------------------------------------------------------------------------

export async function checkOperator(cfg, ca, t) {
  const O = cfg.operator;
  const api = (path, body) => call(`${O.base_url}${path}`, { method: 'POST', body, ca });
  const harness = (path, body) => call(`${O.harness_url}${path}`, { method: 'POST', body, ca });
  const status = (packId, cred) =>
    call(`${O.base_url}/v1/cashpack/${packId}/status`, {
      ca,
      headers: cred ? { Authorization: `Bearer ${cred}` } : {},
    });
  const policy = (await call(`${O.base_url}/.well-known/cashpack-policy.json`, { ca })).json;
  const jwk = (await call(`${O.base_url}/.well-known/cashpack-pubkey.json`, { ca })).json;
  const opKey = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
  const verifyOp = (obj) => {
    const { signature, ...rest } = obj;
    return verify(null, canonicalBytes(rest), opKey, Buffer.from(signature, 'base64url'));
  };
  const funded = O.principals.funded;
  const low = O.principals.low_balance;

  await t('operator: well-known documents', async () => {
    assert.equal(typeof policy.max_amount, 'string');
    assert.equal(policy.signature_alg, 'EdDSA');
    assert.deepEqual(Object.keys(jwk).sort(), ['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    assert.equal(jwk.alg, 'EdDSA');
  });

  await t('operator: issue, renew to the depth limit, redeem, status', async () => {
    const b0 = bearerKeys();
    const issued = await api('/v1/cashpack/issue', lockRequest(funded, { bearer: b0 }));
    assert.equal(issued.status, 201, JSON.stringify(issued.json));
    let pack = issued.json;
    assert.ok(verifyOp(pack));
    assert.equal(pack.kid, jwk.kid);
    const d0 = sha256Hex(
      canonicalBytes({
        pack_id: pack.pack_id,
        amount: pack.amount,
        asset: pack.asset,
        expires_at: pack.expires_at,
        initial_bearer_pk: b0.pk,
      }),
    );
    assert.equal(pack.chain_digest, d0);
    let bearer = b0;
    for (let i = 0; i < policy.max_chain_depth; i += 1) {
      const next = bearerKeys();
      const entry = renewalEntry(pack, bearer, next);
      const r = await api('/v1/cashpack/renew', { cashpack: pack, renewal_entry: entry });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      assert.ok(verifyOp(r.json));
      assert.equal(
        r.json.chain_digest,
        sha256Hex(Buffer.concat([Buffer.from(pack.chain_digest), canonicalBytes(entry)])),
      );
      for (const k of ['pack_id', 'amount', 'asset', 'issued_at', 'expires_at'])
        assert.deepEqual(r.json[k], pack[k]);
      pack = r.json;
      bearer = next;
    }
    const over = await api('/v1/cashpack/renew', {
      cashpack: pack,
      renewal_entry: renewalEntry(pack, bearer, bearerKeys()),
    });
    assert.equal(over.json.error.code, 'CHAIN_DEPTH_EXCEEDED');
    assert.equal((await status(pack.pack_id, funded.status_credential)).json.status, 'ACTIVE');
    const rr = redemptionRequest(pack, bearer, O.redeemer_identity_tokens.sufficient);
    const red = await api('/v1/cashpack/redeem', { cashpack: pack, redemption_request: rr });
    assert.equal(red.status, 200, JSON.stringify(red.json));
    assert.ok(verifyOp(red.json));
    assert.equal(red.json.status, 'REDEEMED');
    const replay = await api('/v1/cashpack/redeem', { cashpack: pack, redemption_request: rr });
    assert.ok(['DUPLICATE_ID', 'INSTRUMENT_NOT_ACTIVE'].includes(replay.json.error.code));
    assert.equal((await status(pack.pack_id, O.operator_status_credential)).json.status, 'REDEEMED');
    assert.equal((await status(pack.pack_id, low.status_credential)).status, 403);
    assert.equal((await status(pack.pack_id)).status, 403);
    assert.equal((await status(pack.pack_id, 'nope')).status, 403);
    const unknownPack = '0d4c1f2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f';
    assert.equal((await status(unknownPack)).status, 403);
    assert.equal((await status(unknownPack, funded.status_credential)).json.error.code, 'PACK_UNKNOWN');
  });

  await t('operator: refusals', async () => {
    const b = bearerKeys();
    const lr = lockRequest(funded, { bearer: b });
    const { signature: _s, ...unsigned } = lr;
    const expect = async (path, body, st, code) => {
      const r = await api(path, body);
      assert.equal(r.status, st, `${code}: ${JSON.stringify(r.json)}`);
      assert.equal(r.json.error.code, code);
    };
    await expect('/v1/cashpack/issue', unsigned, 401, 'INVALID_SIGNATURE');
    await expect('/v1/cashpack/issue', { ...lr, amount: '1001' }, 401, 'INVALID_SIGNATURE');
    await expect(
      '/v1/cashpack/issue',
      lockRequest({ ...funded, principal_id: 'ghost' }, { bearer: b }),
      401,
      'INVALID_SIGNATURE',
    );
    await expect(
      '/v1/cashpack/issue',
      lockRequest(funded, { bearer: b, amount: '1.5' }),
      400,
      'INVALID_REQUEST',
    );
    await expect(
      '/v1/cashpack/issue',
      lockRequest(funded, { bearer: b, expiresIn: 5000 }),
      422,
      'EXPIRY_INVALID',
    );
    await expect(
      '/v1/cashpack/issue',
      lockRequest(funded, { bearer: b, expiresIn: (policy.max_expiry_seconds + 60) * 1000 }),
      422,
      'EXPIRY_INVALID',
    );
    await expect(
      '/v1/cashpack/issue',
      lockRequest(funded, { bearer: b, amount: `${BigInt(policy.max_amount) + 1n}` }),
      422,
      'AMOUNT_EXCEEDS_LIMIT',
    );
    const atMax = await api(
      '/v1/cashpack/issue',
      lockRequest(funded, { bearer: b, amount: policy.max_amount }),
    );
    assert.equal(atMax.status, 201);
    const created = new Date();
    const edge = lockRequest(funded, {
      bearer: b,
      created_at: created.toISOString(),
      expires_at: new Date(created.getTime() + policy.min_expiry_seconds * 1000).toISOString(),
    });
    assert.equal((await api('/v1/cashpack/issue', edge)).status, 201);
    const maxEdge = lockRequest(funded, {
      bearer: b,
      created_at: created.toISOString(),
      expires_at: new Date(created.getTime() + policy.max_expiry_seconds * 1000).toISOString(),
    });
    assert.equal((await api('/v1/cashpack/issue', maxEdge)).status, 201);
    const ok = await api('/v1/cashpack/issue', lr);
    assert.equal(ok.status, 201);
    await expect('/v1/cashpack/issue', lr, 409, 'DUPLICATE_ID');
    const pack = ok.json;
    const other = bearerKeys();
    const entry = renewalEntry(pack, b, other);
    const { signature: _e, ...entryUnsigned } = entry;
    await expect(
      '/v1/cashpack/renew',
      { cashpack: pack, renewal_entry: entryUnsigned },
      401,
      'INVALID_SIGNATURE',
    );
    await expect(
      '/v1/cashpack/renew',
      { cashpack: { ...pack, amount: '1' }, renewal_entry: entry },
      401,
      'INVALID_SIGNATURE',
    );
    await expect(
      '/v1/cashpack/renew',
      { cashpack: pack, renewal_entry: renewalEntry(pack, other, b) },
      403,
      'BEARER_MISMATCH',
    );
    await expect(
      '/v1/cashpack/renew',
      { cashpack: pack, renewal_entry: renewalEntry(pack, b, other, { prev_chain_digest: '0'.repeat(64) }) },
      409,
      'CHAIN_DIGEST_MISMATCH',
    );
    const rr = redemptionRequest(pack, b, O.redeemer_identity_tokens.sufficient);
    const { signature: _r, ...rrUnsigned } = rr;
    await expect(
      '/v1/cashpack/redeem',
      { cashpack: pack, redemption_request: rrUnsigned },
      401,
      'INVALID_SIGNATURE',
    );
    await expect(
      '/v1/cashpack/redeem',
      { cashpack: pack, redemption_request: redemptionRequest(pack, b, null) },
      403,
      'REDEEMER_NOT_IDENTIFIED',
    );
    await expect(
      '/v1/cashpack/redeem',
      {
        cashpack: pack,
        redemption_request: redemptionRequest(pack, b, O.redeemer_identity_tokens.insufficient),
      },
      403,
      'REDEEMER_NOT_IDENTIFIED',
    );
    await expect(
      '/v1/cashpack/redeem',
      { cashpack: pack, redemption_request: redemptionRequest(pack, b, 'unknown') },
      403,
      'REDEEMER_NOT_IDENTIFIED',
    );
    await expect(
      '/v1/cashpack/redeem',
      {
        cashpack: pack,
        redemption_request: redemptionRequest(pack, other, O.redeemer_identity_tokens.sufficient),
      },
      403,
      'BEARER_MISMATCH',
    );
    const undef = await call(`${O.base_url}/v1/cashpack/issue`, { ca });
    assert.equal(undef.status, 405);
    assert.ok(undef.json.error.code);
    const offset = await api(
      '/v1/cashpack/issue',
      lockRequest(funded, { bearer: b, expires_at: '2099-01-01T10:00:00+14:00', created_at: iso(0) }),
    );
    assert.equal(offset.status, 422, 'year 2099 is beyond max expiry');
    const near = new Date(Date.now() + 48 * 3600_000);
    const wall = near.toISOString().slice(0, 19);
    const off = await api(
      '/v1/cashpack/issue',
      lockRequest(funded, { bearer: b, expires_at: `${wall}+14:00` }),
    );
    assert.equal(off.status, 201, JSON.stringify(off.json));
    assert.equal(
      off.json.expires_at,
      new Date(Date.parse(`${wall}Z`) - 14 * 3600_000).toISOString().replace('.000Z', 'Z'),
    );
  });

  await t('operator: money flows, harness and concurrency', async () => {
    const b = bearerKeys();
    assert.equal(
      (await harness('/balance', { principal_id: low.principal_id, available_balance: '5000' })).status,
      200,
    );
    assert.equal((await harness('/balance', { principal_id: 'ghost', available_balance: '5' })).status, 400);
    for (const bad of ['12.5', '0', '007', 12]) {
      const r = await harness('/balance', { principal_id: low.principal_id, available_balance: bad });
      assert.equal(r.status, 400, String(bad));
    }
    const issue = (amount, over = {}) =>
      api('/v1/cashpack/issue', lockRequest(low, { bearer: b, amount, ...over }));
    const p1 = await issue('5000');
    assert.equal(p1.status, 201);
    assert.equal((await issue('1')).json.error.code, 'INSUFFICIENT_BALANCE');
    assert.equal((await harness('/expire', { pack_id: p1.json.pack_id })).json.status, 'EXPIRED');
    assert.equal(
      (await harness('/expire', { pack_id: p1.json.pack_id })).json.error.code,
      'INSTRUMENT_NOT_ACTIVE',
    );
    const p2 = await issue('5000');
    assert.equal(p2.status, 201, 'expiry returned the funds');
    assert.equal((await harness('/cancel', { pack_id: p2.json.pack_id })).json.status, 'CANCELLED');
    assert.equal((await issue('1')).json.error.code, 'INSUFFICIENT_BALANCE', 'cancellation holds the funds');
    await harness('/balance', { principal_id: low.principal_id, available_balance: '5000' });
    const p3 = await issue('5000');
    const rr = () => redemptionRequest(p3.json, b, O.redeemer_identity_tokens.sufficient);
    const both = await Promise.all([
      api('/v1/cashpack/redeem', { cashpack: p3.json, redemption_request: rr() }),
      api('/v1/cashpack/redeem', { cashpack: p3.json, redemption_request: rr() }),
    ]);
    assert.deepEqual(both.map((r) => r.status).sort(), [200, 409]);
    assert.equal(
      (await issue('1')).json.error.code,
      'INSUFFICIENT_BALANCE',
      'redemption pays the redeemer only',
    );
    const same = lockRequest(funded, { bearer: b });
    const twice = await Promise.all([api('/v1/cashpack/issue', same), api('/v1/cashpack/issue', same)]);
    assert.deepEqual(twice.map((r) => r.status).sort(), [201, 409]);
    // Real expiry through the clock.
    await harness('/balance', { principal_id: low.principal_id, available_balance: '5000' });
    const short = await issue('5000', { expiresIn: 11_000 });
    assert.equal(short.status, 201);
    assert.equal((await harness('/clock', { advance_seconds: 12 })).status, 200);
    assert.equal((await status(short.json.pack_id, low.status_credential)).json.status, 'EXPIRED');
    const late = await api('/v1/cashpack/redeem', {
      cashpack: short.json,
      redemption_request: redemptionRequest(short.json, b, O.redeemer_identity_tokens.sufficient),
    });
    assert.equal(late.json.error.code, 'INSTRUMENT_NOT_ACTIVE');
    assert.equal((await harness('/clock', { advance_seconds: -1 })).status, 400);
  });
}
