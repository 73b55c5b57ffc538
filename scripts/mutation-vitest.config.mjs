// Vitest configuration of the validator's tests while StrykerJS judges mutants with them: the
// project's configuration plus scripts/mutation-vitest-setup.mjs (bounded, seeded properties).
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../vitest.config.ts';

// biome-ignore lint/style/noDefaultExport: vitest reads the default export of its configuration file
export default mergeConfig(
  base,
  defineConfig({ test: { setupFiles: [new URL('./mutation-vitest-setup.mjs', import.meta.url).pathname] } }),
);
