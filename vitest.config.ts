import { defineConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@smi\/bytecode$/, replacement: src('./packages/bytecode/src/index.ts') },
      { find: /^@smi\/move-compiler$/, replacement: src('./packages/move-compiler/src/index.ts') },
      { find: /^@smi\/move-vm$/, replacement: src('./packages/move-vm/src/index.ts') },
      { find: /^@smi\/conformance$/, replacement: src('./packages/conformance/src/index.ts') },
      { find: /^@smi\/move-ir$/, replacement: src('./packages/move-ir/src/index.ts') },
      { find: /^@smi\/ptb$/, replacement: src('./packages/ptb/src/index.ts') },
      { find: /^@smi\/simulation$/, replacement: src('./packages/simulation/src/index.ts') },
      { find: /^@smi\/inhabit$/, replacement: src('./packages/inhabit/src/index.ts') },
      { find: /^@smi\/harness$/, replacement: src('./packages/harness/src/index.ts') },
      { find: /^@smi\/network$/, replacement: src('./packages/network/src/index.ts') },
      { find: /^@smi\/report$/, replacement: src('./packages/report/src/index.ts') },
      { find: /^@smi\/mcp$/, replacement: src('./packages/mcp/src/index.ts') },
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
