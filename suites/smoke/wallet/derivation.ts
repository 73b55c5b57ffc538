/**
 * Smoke suite (wallet): one MUST of CPR-1.0 section 7, run through every configured wallet
 * channel (HTTP harness, stdio command).
 */
import {
  assertThat,
  check,
  expectDeriveError,
  expectOk,
  forEachWalletChannel,
  mockPayee,
} from '../../_lib/index.js';

const HOUR = 3600_000;

function cpr(offsetMs: number): Record<string, unknown> {
  return {
    cpr_version: 'CPR-1.0',
    request_id: 'c0a80101-0000-4000-8000-000000000001',
    created_at: new Date(Date.now() + offsetMs - HOUR).toISOString(),
    expires_at: new Date(Date.now() + offsetMs).toISOString(),
    payee: { display_name: 'Smoke', rail_address: { iban: 'DE89370400440532013000' } },
    value: { amount: '100', asset: { type: 'fiat', code: 'EUR' } },
    rail_hint: 'SEPA_CT',
    iban: 'DE89370400440532013000',
    beneficiary_name: 'Smoke Test',
  };
}

const context = {
  payer: { id: 'payer-1' },
  rail: { rail: 'SEPA_CT' },
  authorization: { type: 'test' },
};

describe('smoke: CPR-1.0 section 7, errors', () => {
  forEachWalletChannel((wallet) => {
    check(
      'request-whose-expires-past-rejected',
      ['CPR-7-EXPIRED-REJECTED'],
      'a request whose expires_at is in the past is rejected',
      async () => {
        expectDeriveError(await wallet.derive({ cpr: cpr(-HOUR), context }), 'EXPIRED');
      },
    );

    check(
      'wallet-resolves-reference-uri-retrieves-cpr',
      ['CPR-4.3-WALLET-RESOLVES-URI'],
      'the wallet resolves a reference URI and retrieves the CPR',
      async () => {
        const mock = await mockPayee();
        const offer = mock.offer(cpr(HOUR));
        expectOk(await wallet.derive({ uri: offer.uri, context }), 'derivation from a reference URI');
        assertThat(
          mock.retrievals(offer.token) === 1,
          `the wallet retrieved the CPR ${mock.retrievals(offer.token)} times, not once`,
        );
      },
    );
  });
});
