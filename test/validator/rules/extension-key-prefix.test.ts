import { describe, expect, it } from 'vitest';
import { extensionKeyPrefix } from '../../../src/validator/rules/extension-key-prefix.js';
import { expectFindings } from './run-rule.js';

// CPR-1.0 9 rule 5: extension keys use foundation: or a reverse-domain prefix (a SHOULD: a payee
// warning); wallets ignore unknown keys whatever their form (9 rule 3): nothing in that reading.
const REQ = 'CPR-9-REVERSE-DOMAIN-PREFIX';

describe('extension-key-prefix', () => {
  const GOOD = [
    'foundation:tip',
    'FOUNDATION:tip',
    'com.example:order',
    'org.acme.terminal',
    'com.example.pos:id',
    'io.x-y.z:k',
    'a.b:c',
    'A1.b2.',
    'com.ex-ample:x',
  ];
  const BAD = [
    'order',
    'foundation',
    'foundation.tip',
    'com:order',
    'example:order',
    '.com.example:x',
    'com..example:x',
    'com.-example:x',
    'com.example-:x',
    '-com.example:x',
    'com.example',
    'com_x.example:x',
    'com.exa_mple:x',
    ' com.example:x',
    'x:com.example:y',
    '',
  ];

  it('payee: accepts namespaced keys', () => {
    expectFindings(extensionKeyPrefix, { extensions: Object.fromEntries(GOOD.map((k) => [k, 1])) }, []);
  });

  it('payee: warns on each key without foundation: or a reverse-domain prefix, at its path', () => {
    for (const key of BAD) {
      const [f] = expectFindings(extensionKeyPrefix, { extensions: { 'com.example:ok': 1, [key]: 1 } }, [
        [REQ, `/extensions/${key}`, 'warning'],
      ]);
      expect(f?.message).toContain(`"${key}"`);
    }
    expectFindings(extensionKeyPrefix, { extensions: { a: 1, 'b/c': 2 } }, [
      [REQ, '/extensions/a', 'warning'],
      [REQ, '/extensions/b~1c', 'warning'],
    ]);
  });

  it('wallet: reports nothing; no extensions object: nothing', () => {
    expectFindings(extensionKeyPrefix, { extensions: { order: 1 } }, [], { mode: 'wallet' });
    for (const extensions of [undefined, null, 'order', ['order']])
      expectFindings(extensionKeyPrefix, { extensions }, []);
  });
});
