/** Real module bytes from the shared fixtures, for round-trip and differential tests. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseModuleBundle } from '@smi/bytecode';
import { fixturePath } from '../../../test-support/fixtures.js';

export interface NamedBytes {
  label: string;
  bytes: Uint8Array;
}

function walk(dir: string, out: string[]): void {
  for (const e of readdirSync(dir).sort()) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (e.endsWith('.mv')) out.push(p);
  }
}

/** Every `.mv` of the corpus. */
export function corpusModules(): NamedBytes[] {
  const files: string[] = [];
  walk(fixturePath('corpus'), files);
  return files.map((f) => ({ label: path.relative(fixturePath('corpus'), f), bytes: new Uint8Array(readFileSync(f)) }));
}

/** The distinct modules of all framework snapshots (first occurrence wins). */
export function snapshotModules(): NamedBytes[] {
  const root = fixturePath('fixtures', 'framework-snapshots');
  const seen = new Set<string>();
  const out: NamedBytes[] = [];
  const versions = readdirSync(root).sort((a, b) => Number(a) - Number(b));
  for (const v of versions) {
    for (const f of readdirSync(path.join(root, v)).sort()) {
      const bytes = new Uint8Array(readFileSync(path.join(root, v, f)));
      parseModuleBundle(bytes, 32).forEach((m, i) => {
        const key = Buffer.from(m).toString('base64');
        if (seen.has(key)) return;
        seen.add(key);
        out.push({ label: `${v}/${f.slice(0, 6)}…#${i}`, bytes: m });
      });
    }
  }
  return out;
}

/** The latest compiled framework modules (`fixtures/framework/*`). */
export function frameworkModules(): NamedBytes[] {
  const root = fixturePath('fixtures', 'framework');
  return readdirSync(root)
    .sort()
    .flatMap((f) => parseModuleBundle(new Uint8Array(readFileSync(path.join(root, f)))).map((bytes, i) => ({ label: `${f}#${i}`, bytes })));
}

/** Every `.mv` of the VM trace fixtures (some carry the test-only magic). */
export function traceModules(): NamedBytes[] {
  const files: string[] = [];
  walk(fixturePath('fixtures', 'vm-traces'), files);
  return files.map((f) => ({ label: path.relative(fixturePath('fixtures', 'vm-traces'), f), bytes: new Uint8Array(readFileSync(f)) }));
}
