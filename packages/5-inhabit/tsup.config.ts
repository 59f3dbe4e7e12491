import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', worker: 'src/worker.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts', worker: 'src/worker.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node22',
});
