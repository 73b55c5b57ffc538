// Writes the test vectors (vectors/*.json, vectors/index.json) and docs/vectors.md from the specs
// of test/vectors/build/ and the answers of the suite's own modules (npm run vectors). The
// generator is TypeScript run through vite's module runner (vitest's), so it reads src/ directly,
// no build needed.
//   --check   regenerate in memory; exit 1 when a committed file differs (what the proof test
//             does too; QR PNG bytes and the suite version aside), naming the files
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const unknown = process.argv.slice(2).filter((a) => a !== '--check');
if (unknown.length > 0) {
  console.error(`gen-vectors: unknown argument ${unknown[0]}; usage: gen-vectors.mjs [--check]`);
  process.exit(2);
}

let generated;
try {
  const { module } = await runnerImport(join(root, 'test/vectors/build/generate.ts'), {
    configFile: false,
    logLevel: 'error',
    root,
  });
  generated = await module.generate(root);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}

const outputs = {};
for (const [group, file] of Object.entries(generated.files)) {
  outputs[join('vectors', `${group}.json`)] = `${JSON.stringify(file, null, 2)}\n`;
}
outputs[join('vectors', 'index.json')] = `${JSON.stringify(generated.index, null, 2)}\n`;
outputs[join('docs', 'vectors.md')] = generated.docs;

/**
 * Whether two vector files differ only in the PNG bytes of QR images (zlib's output may change
 * with Node's zlib; test/vectors checks each image module by module) and the suite version.
 */
function sameButPngBytes(a, b) {
  const strip = (text) => {
    const file = JSON.parse(text);
    delete file.suite_version;
    for (const c of file.cases ?? []) delete c.png_base64;
    return JSON.stringify(file);
  };
  return strip(a) === strip(b);
}

const stale = [];
for (const [rel, text] of Object.entries(outputs)) {
  const path = join(root, rel);
  let current = null;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    // absent
  }
  if (current === text) continue;
  if (check) {
    if (current !== null && rel.endsWith('.json') && sameButPngBytes(current, text)) continue;
    stale.push(rel);
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}
if (check) {
  if (stale.length > 0) {
    console.error(`gen-vectors: stale: ${stale.join(', ')}; run "npm run vectors" and commit them`);
    process.exit(1);
  }
  console.log('gen-vectors: up to date');
} else {
  const counts = Object.entries(generated.files).map(([g, f]) => `${g} ${f.number_of_cases}`);
  console.log(`gen-vectors: ${counts.join(', ')} cases written to vectors/ and docs/vectors.md`);
}
