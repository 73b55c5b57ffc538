// Setup file of the vitest observers' tests while StrykerJS judges mutants with them
// (scripts/mutation-vitest.config.mjs): every fast-check property keeps a fixed seed and runs at
// most CPR_MUTATION_PROPERTY_RUNS times (default 10), as the suite runs of the mutation test do
// (issue 16: "properties keep a fixed seed and may use fewer runs").
import { vi } from 'vitest';

const RUNS = Number(process.env.CPR_MUTATION_PROPERTY_RUNS ?? 10);
const SEED = Number(process.env.CPR_MUTATION_SEED ?? 20260601);

vi.mock('fast-check', async (importOriginal) => {
  const original = await importOriginal();
  const fc = original.default ?? original;
  const bounded = (params) => ({
    ...params,
    numRuns: Math.min(params?.numRuns ?? 100, RUNS),
    seed: params?.seed ?? SEED,
  });
  const patched = {
    ...fc,
    assert: (property, params) => fc.assert(property, bounded(params)),
    check: (property, params) => fc.check(property, bounded(params)),
  };
  return { ...original, ...patched, default: patched };
});
