// The language-neutral consumer (examples/vectors-python/check_vectors.py, the Python standard
// library alone) checks the crypto, chain-digest and URI vectors; run when python3 is on PATH,
// reported as skipped with the reason otherwise.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testScratchDir } from '../_support/scratch.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, 'examples', 'vectors-python', 'check_vectors.py');
const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const python = probe.status === 0 && /^Python 3\.(\d+)/.test(`${probe.stdout}${probe.stderr}`);
const reason = python ? '' : ' (skipped: python3 is not on PATH)';

function run(...args: string[]) {
  return spawnSync('python3', [SCRIPT, ...args], { encoding: 'utf8', timeout: 60_000 });
}

type Json = { cases: Array<Record<string, unknown>> };
const count = (g: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'vectors', `${g}.json`), 'utf8')) as Json).cases.length;

describe.skipIf(!python)(`the Python consumer of the vectors${reason}`, () => {
  it('passes every crypto and uris case', () => {
    const r = run();
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(`${count('crypto') + count('uris')} passed, 0 failed`);
    expect(r.status).toBe(0);
  });

  it('fails a vector that says something untrue (JCS bytes, a verdict, a digest, a retrieval URL)', () => {
    const dir = testScratchDir('vectors-python');
    const crypto = JSON.parse(readFileSync(join(ROOT, 'vectors', 'crypto.json'), 'utf8')) as Json;
    const uris = JSON.parse(readFileSync(join(ROOT, 'vectors', 'uris.json'), 'utf8')) as Json;
    const jcs = crypto.cases.find((c) => c.kind === 'jcs' && c.result === 'valid') as Record<string, unknown>;
    jcs.canonical = `${jcs.canonical as string} `;
    const sig = crypto.cases.find((c) => c.kind === 'signature' && c.result === 'invalid') as Record<
      string,
      unknown
    >;
    sig.result = 'valid';
    const chain = crypto.cases.find((c) => c.kind === 'chain' && c.result === 'valid') as {
      digests: string[];
    };
    chain.digests[0] = (chain.digests[0] as string).replace(/^./, (ch) => (ch === '0' ? '1' : '0'));
    const ref = uris.cases.find(
      (c) => (c.decoded as { kind?: string } | undefined)?.kind === 'reference',
    ) as {
      decoded: { retrieval_url: string };
    };
    ref.decoded.retrieval_url += '/';
    writeFileSync(join(dir, 'crypto.json'), JSON.stringify(crypto));
    writeFileSync(join(dir, 'uris.json'), JSON.stringify(uris));
    const r = run(dir);
    expect(r.status).toBe(1);
    expect(r.stdout.match(/^FAIL /gm)?.length).toBe(4);
    expect(r.stdout.trim()).toMatch(/\n\d+ passed, 4 failed$/);
  });

  it('says which folder it cannot read', () => {
    const r = run(join(ROOT, 'no-such-folder'));
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      'no-such-folder: holds neither crypto.json nor uris.json; pass the vectors folder',
    );
  });

  it('checks the groups a folder holds (cprc vectors --group uris --out DIR)', () => {
    const dir = testScratchDir('vectors-python-uris');
    writeFileSync(join(dir, 'uris.json'), readFileSync(join(ROOT, 'vectors', 'uris.json')));
    const r = run(dir);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('crypto.json: not there, skipped');
    expect(r.stdout.trim()).toMatch(new RegExp(`\\n${count('uris')} passed, 0 failed$`));
  });
});
