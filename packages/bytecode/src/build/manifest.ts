/**
 * Just enough Move.toml reading to see which dependencies a manifest declares, and to add
 * the ones it does not. This is a line scanner for the shapes Move manifests use
 * (`Name = { local = "..." }` in `[dependencies]`, or a `[dependencies.Name]` table),
 * not a TOML parser.
 */
import { tomlDependency, tomlKey, type StubDependencySource } from '../stubs.js';

/** Where a declared dependency comes from. */
export type DependencySource =
  | { kind: 'local'; local: string }
  | { kind: 'git'; git: string; rev?: string; subdir?: string }
  | { kind: 'other' };

/** A dependency declared in a manifest's `[dependencies]`. */
export interface DeclaredDependency {
  /** The key (dependency name / alias). */
  name: string;
  source: DependencySource;
}

const HEADER = /^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$/;
const KEY_VALUE = /^\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*=\s*(.*)$/;

function unquoteKey(key: string): string {
  if (key.startsWith('"')) return JSON.parse(key) as string;
  if (key.startsWith("'")) return key.slice(1, -1);
  return key;
}

/** The value of `field = "..."` inside an inline table or a table body. */
function stringField(text: string, field: string): string | undefined {
  const re = new RegExp(`(?:^|[{,\\s])${field}\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"|'[^']*')`);
  const match = re.exec(text);
  if (!match) return undefined;
  const raw = match[1];
  return raw.startsWith('"') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
}

function sourceOf(text: string): DependencySource {
  const local = stringField(text, 'local');
  if (local !== undefined) return { kind: 'local', local };
  const git = stringField(text, 'git');
  if (git !== undefined) {
    return { kind: 'git', git, rev: stringField(text, 'rev'), subdir: stringField(text, 'subdir') };
  }
  return { kind: 'other' };
}

/** The dependencies a Move.toml declares in `[dependencies]` (dev and mode-specific ones are ignored). */
export function declaredDependencies(manifest: string): DeclaredDependency[] {
  const out: DeclaredDependency[] = [];
  let table = '';
  let tableBody: { name: string; text: string } | undefined;
  const flush = () => {
    if (tableBody) out.push({ name: tableBody.name, source: sourceOf(tableBody.text) });
    tableBody = undefined;
  };
  for (const line of manifest.split(/\r?\n/)) {
    const header = HEADER.exec(line);
    if (header && !line.trim().startsWith('[[')) {
      flush();
      table = header[1];
      const sub = /^dependencies\s*\.\s*("(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)$/.exec(table);
      if (sub) tableBody = { name: unquoteKey(sub[1]), text: '' };
      continue;
    }
    if (tableBody) {
      tableBody.text += ` ${line}`;
      continue;
    }
    if (table !== 'dependencies') continue;
    const kv = KEY_VALUE.exec(line);
    if (kv) out.push({ name: unquoteKey(kv[1]), source: sourceOf(kv[2]) });
  }
  flush();
  return out;
}

/** A dependency entry to add to a manifest. */
export interface AddedDependency {
  name: string;
  source: StubDependencySource;
}

/**
 * Add dependency entries to a manifest: right after its `[dependencies]` header, or in a
 * new `[dependencies]` table at the end.
 */
export function addDependencies(manifest: string, deps: readonly AddedDependency[]): string {
  if (deps.length === 0) return manifest;
  const entries = deps.map((d) => `${tomlKey(d.name)} = ${tomlDependency(d.source)}`);
  const newline = manifest.includes('\r\n') ? '\r\n' : '\n';
  const lines = manifest.split(/\r?\n/);
  const at = lines.findIndex((l) => {
    const h = HEADER.exec(l);
    return h !== null && h[1] === 'dependencies' && !l.trim().startsWith('[[');
  });
  if (at >= 0) {
    lines.splice(at + 1, 0, ...entries);
    return lines.join(newline);
  }
  const body = manifest.endsWith('\n') || manifest === '' ? manifest : manifest + newline;
  return body + newline + ['[dependencies]', ...entries].join(newline) + newline;
}
