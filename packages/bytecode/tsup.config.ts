import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'build/index': 'src/build/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  external: ['@zktx.io/sui-move-builder'],
});
