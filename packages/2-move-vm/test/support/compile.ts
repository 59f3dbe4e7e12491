/**
 * Offline compilation of Move sources written in a test, against the real framework
 * (served as stubs), and loading of the result as a package.
 */
import { canonicalAddress, packageFromBytes, type MovePackage } from '@smi/bytecode';
import { compileMovePackage, type BytecodeDependency } from '@smi/move-compiler';
import { framework } from './golden.js';

/** The framework as compiler dependencies (0x1 and 0x2). */
function frameworkDependencies(): BytecodeDependency[] {
  const [std, sui] = framework();
  return [
    { name: 'MoveStdlib', address: std.originalId, modules: std.modules.map((m) => m.module) },
    { name: 'Sui', address: sui.originalId, modules: sui.modules.map((m) => m.module) },
  ];
}

/** A compiled package: its modules (address 0x0), loaded under storage id `id`. */
export interface CompiledPackage {
  pkg: MovePackage;
  /** Module bytes by name. */
  bytes: Map<string, Uint8Array>;
}

/**
 * Compile `sources` (file name → Move source; modules live at `demo` = 0x0) and load the
 * result as a package stored at `id` (default 0x0: the modules' own address).
 */
export async function compileDemo(sources: Record<string, string>, id = '0x0'): Promise<CompiledPackage> {
  const files: Record<string, string> = { 'Move.toml': '[package]\nname = "demo"\nedition = "2024"\n\n[addresses]\ndemo = "0x0"\n' };
  for (const [name, text] of Object.entries(sources)) files[`sources/${name}`] = text;
  // The builder reads its WASM from disk; keep any network access out of the tests.
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: unknown) => {
    throw new Error(`network disabled in tests (${String(input)})`);
  }) as typeof fetch;
  try {
    const out = await compileMovePackage({ files, dependencies: frameworkDependencies(), silenceWarnings: true });
    const pkg = packageFromBytes(
      out.modules.map((m) => m.bytes),
      { id: canonicalAddress(id) },
    );
    return { pkg, bytes: new Map(out.modules.map((m) => [m.name, m.bytes])) };
  } finally {
    globalThis.fetch = realFetch;
  }
}

/** 1-based line of the first line of `source` that contains `needle`. */
export function lineOf(source: string, needle: string): number {
  const i = source.split('\n').findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`"${needle}" not in the source`);
  return i + 1;
}
