import { defineConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@smi\/bytecode$/, replacement: src('./packages/0-bytecode/src/index.ts') },
      { find: /^@smi\/move-compiler$/, replacement: src('./packages/1-move-compiler/src/index.ts') },
      { find: /^@smi\/move-vm$/, replacement: src('./packages/2-move-vm/src/index.ts') },
      { find: /^@smi\/conformance$/, replacement: src('./packages/7-conformance/src/index.ts') },
      { find: /^@smi\/move-ir$/, replacement: src('./packages/1-move-ir/src/index.ts') },
      { find: /^@smi\/ptb$/, replacement: src('./packages/3-ptb/src/index.ts') },
      { find: /^@smi\/simulation$/, replacement: src('./packages/4-simulation/src/index.ts') },
      { find: /^@smi\/inhabit$/, replacement: src('./packages/5-inhabit/src/index.ts') },
      { find: /^@smi\/harness$/, replacement: src('./packages/6-harness/src/index.ts') },
      { find: /^@smi\/network$/, replacement: src('./packages/5-network/src/index.ts') },
      { find: /^@smi\/report$/, replacement: src('./packages/7-report/src/index.ts') },
      { find: /^@smi\/mcp$/, replacement: src('./packages/7-mcp/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest leaves one core free by default: on a 2-core machine (CI) that is one test file
    // at a time. Many files mostly wait on child processes (the CLI, the WASM compiler), so
    // use every core.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
