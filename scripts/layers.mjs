// The workspace's layers, bottom first: a package may depend on (and import) packages of lower
// layers only, never one of its own layer or above. scripts/lint.mjs enforces it on every
// `@smi/*` import (sources, tests, examples) and on every `@smi/*` entry of each package.json;
// the READMEs' layer table (README.md, "Packages") shows the same order, and every package's
// folder is named for its layer: packages/<layer>-<name> (apps/ holds the top layer).
export const LAYERS = [
  ['@smi/bytecode'],
  ['@smi/move-compiler', '@smi/move-ir'],
  ['@smi/move-vm'],
  ['@smi/ptb'],
  ['@smi/simulation'],
  ['@smi/network', '@smi/inhabit'],
  ['@smi/harness'],
  ['@smi/report', '@smi/conformance', '@smi/mcp'],
  ['@smi/cli'],
];

/** Layer index of a package name (undefined: not a workspace package). */
export function layerOf(name) {
  const i = LAYERS.findIndex((l) => l.includes(name));
  return i < 0 ? undefined : i;
}

// Directory rules inside a package: files under `from` never import files under any of `not`
// (type-only imports included).
export const DIRECTORY_RULES = [
  { pkg: '@smi/move-vm', from: 'src/loader/', not: ['src/interpreter/'], why: 'the loader produces translated code; the interpreter runs it' },
  { pkg: '@smi/move-vm', from: 'src/gas/', not: ['src/interpreter/'], why: 'gas costs are priced from translated code, not from the interpreter' },
];
