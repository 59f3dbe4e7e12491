/**
 * Just enough Move.toml reading to see which dependencies a manifest declares, and to add
 * the ones it does not. This is a line scanner for the shapes Move manifests use
 * (`Name = { local = "..." }` in `[dependencies]`, or a `[dependencies.Name]` table),
 * not a TOML parser.
 */
import { tomlDependency, tomlKey, type StubDependencySource } from '@smi/bytecode';

/** Where a declared dependency comes from. */
export type DependencySource =
  | { kind: 'local'; local: string }
  | { kind: 'git'; git: string; rev?: string; subdir?: string }
  /** Found by an external resolver (`{ r.mvr = "@org/name" }`: the Move Registry). */
  | { kind: 'external'; resolver: string; spec: string }
  | { kind: 'other' };

/** A dependency declared in a manifest's `[dependencies]`. */
export interface DeclaredDependency {
  /** The key (dependency name / alias). */
  name: string;
  source: DependencySource;
  /** `modes = [...]` of the entry: a dependency only for those modes (`["test"]`: tests only). */
  modes?: string[];
  /**
   * `rename-from = "..."`: the `[package] name` of the dependency, which the dependent knows by
   * `name` instead (its modules are `name::module` in the dependent's sources).
   */
  renameFrom?: string;
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

function modesOf(text: string): string[] | undefined {
  const m = /(?:^|[{,\s])modes\s*=\s*\[([^\]]*)\]/.exec(text);
  if (!m) return undefined;
  return [...m[1].matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((x) => x[1] ?? x[2]);
}

function sourceOf(text: string): DependencySource {
  const local = stringField(text, 'local');
  if (local !== undefined) return { kind: 'local', local };
  const git = stringField(text, 'git');
  if (git !== undefined) {
    return { kind: 'git', git, rev: stringField(text, 'rev'), subdir: stringField(text, 'subdir') };
  }
  const external = /(?:^|[{,\s])r\.([A-Za-z0-9_-]+)\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*')/.exec(text);
  if (external) {
    const raw = external[2];
    return { kind: 'external', resolver: external[1], spec: raw.startsWith('"') ? (JSON.parse(raw) as string) : raw.slice(1, -1) };
  }
  return { kind: 'other' };
}

/**
 * The dependencies a Move.toml declares in `[dependencies]` (`[dev-dependencies]` are not
 * read). Entries restricted to modes (`modes = ["test"]`) carry them: a normal build leaves
 * them out (see {@link buildDependencies}).
 */
export function declaredDependencies(manifest: string): DeclaredDependency[] {
  const out: DeclaredDependency[] = [];
  let table = '';
  let tableBody: { name: string; text: string } | undefined;
  const entry = (name: string, text: string): DeclaredDependency => {
    const modes = modesOf(text);
    const renameFrom = stringField(text, 'rename-from');
    return { name, source: sourceOf(text), ...(modes ? { modes } : {}), ...(renameFrom !== undefined ? { renameFrom } : {}) };
  };
  const flush = () => {
    if (tableBody) out.push(entry(tableBody.name, tableBody.text));
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
    if (kv) out.push(entry(unquoteKey(kv[1]), kv[2]));
  }
  flush();
  return out;
}

/** A dependency entry to add to a manifest. */
export interface AddedDependency {
  name: string;
  source: StubDependencySource;
  /** The dependency's `[package] name` when `name` differs from it (written as `rename-from`). */
  renameFrom?: string;
}

/** `{ local = "..." }` of a dependency entry, with `rename-from` when it has one. */
function dependencyValue(d: AddedDependency): string {
  const value = tomlDependency(d.source);
  return d.renameFrom === undefined ? value : `${value.slice(0, -2)}, rename-from = ${JSON.stringify(d.renameFrom)} }`;
}

/**
 * Add dependency entries to a manifest: right after its `[dependencies]` header, or in a
 * new `[dependencies]` table at the end.
 */
export function addDependencies(manifest: string, deps: readonly AddedDependency[]): string {
  if (deps.length === 0) return manifest;
  const entries = deps.map((d) => `${tomlKey(d.name)} = ${dependencyValue(d)}`);
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

/** The dependencies of a normal (non-test) build: every declared one not restricted to modes. */
export function buildDependencies(manifest: string): DeclaredDependency[] {
  return declaredDependencies(manifest).filter((d) => d.modes === undefined || d.modes.length === 0);
}

/** What a manifest says about the package itself. */
export interface ManifestPackage {
  /** `[package] name`. */
  name: string | undefined;
  /** `[package] published-at`. */
  publishedAt: string | undefined;
  /** `[addresses]`: name → value (`"0x0"`, `"_"` or an address); `undefined` without the table (a new-style manifest). */
  addresses: Record<string, string> | undefined;
}

/** The `[package]` name and `published-at` and the `[addresses]` table of a manifest. */
export function manifestPackage(manifest: string): ManifestPackage {
  let table = '';
  let name: string | undefined;
  let publishedAt: string | undefined;
  let addresses: Record<string, string> | undefined;
  for (const line of manifest.split(/\r?\n/)) {
    const header = HEADER.exec(line);
    if (header && !line.trim().startsWith('[[')) {
      table = header[1];
      if (table === 'addresses') addresses ??= {};
      continue;
    }
    const kv = KEY_VALUE.exec(line.replace(/#.*$/, ''));
    if (!kv) continue;
    const value = /^\s*("(?:[^"\\]|\\.)*"|'[^']*')/.exec(kv[2])?.[1];
    const text = value === undefined ? undefined : value.startsWith('"') ? (JSON.parse(value) as string) : value.slice(1, -1);
    const key = unquoteKey(kv[1]);
    if (table === 'package' && key === 'name') name = text;
    else if (table === 'package' && key === 'published-at') publishedAt = text;
    else if (table === 'addresses' && text !== undefined) (addresses ??= {})[key] = text;
  }
  return { name, publishedAt, addresses };
}

/** The string and integer fields of one table (`[published.mainnet]`) of a TOML file, as strings. */
function tableFields(text: string, table: string): Record<string, string> | undefined {
  let current = '';
  let out: Record<string, string> | undefined;
  const wanted = table.replace(/\s+/g, '');
  for (const line of text.split(/\r?\n/)) {
    const header = HEADER.exec(line);
    if (header && !line.trim().startsWith('[[')) {
      current = header[1].replace(/\s+/g, '').replace(/"/g, '');
      if (current === wanted) out ??= {};
      continue;
    }
    if (current !== wanted) continue;
    const kv = KEY_VALUE.exec(line.replace(/#.*$/, ''));
    if (!kv) continue;
    const raw = kv[2].trim();
    const str = /^("(?:[^"\\]|\\.)*"|'[^']*')/.exec(raw)?.[1];
    const value = str !== undefined ? (str.startsWith('"') ? (JSON.parse(str) as string) : str.slice(1, -1)) : /^[0-9_]+$/.exec(raw)?.[0];
    if (value !== undefined) (out ??= {})[unquoteKey(kv[1])] = value;
  }
  return out;
}

/** Where a package is published on mainnet, from its `Published.toml` (or the `[env.mainnet]` of a legacy `Move.lock`). */
export interface PublishedPackage {
  /** The id of its first version: the address its modules carry. */
  originalId: string;
  /** The id of the version to link against (default: `originalId`). */
  publishedAt?: string;
  version?: number;
  /** The file it was read from. */
  file: 'Published.toml' | 'Move.lock';
}

/** The mainnet publication a `Published.toml` (`[published.mainnet]`) or a legacy `Move.lock` (`[env.mainnet]`) records. */
export function publishedPackage(publishedToml: string | undefined, moveLock: string | undefined): PublishedPackage | undefined {
  const fromToml = publishedToml === undefined ? undefined : tableFields(publishedToml, 'published.mainnet');
  if (fromToml?.['original-id'] !== undefined) {
    const version = fromToml.version === undefined ? undefined : Number(fromToml.version.replace(/_/g, ''));
    return {
      originalId: fromToml['original-id'],
      ...(fromToml['published-at'] !== undefined ? { publishedAt: fromToml['published-at'] } : {}),
      ...(version !== undefined && Number.isFinite(version) ? { version } : {}),
      file: 'Published.toml',
    };
  }
  const fromLock = moveLock === undefined ? undefined : tableFields(moveLock, 'env.mainnet');
  if (fromLock?.['original-published-id'] !== undefined) {
    const version = fromLock['published-version'] === undefined ? undefined : Number(fromLock['published-version']);
    return {
      originalId: fromLock['original-published-id'],
      ...(fromLock['latest-published-id'] !== undefined ? { publishedAt: fromLock['latest-published-id'] } : {}),
      ...(version !== undefined && Number.isFinite(version) ? { version } : {}),
      file: 'Move.lock',
    };
  }
  return undefined;
}

/** Tables a rewritten manifest drops: dependency tables, and what only tests or other environments use. */
function droppedTable(table: string): boolean {
  return /^(dependencies|dev-dependencies|dev-addresses)(\s*\..*)?$/.test(table) || /^dep-replacements(\s*\..*)?$/.test(table) || table === 'addresses' || table === 'environments';
}

/**
 * A manifest with its dependency tables replaced: `[dependencies]` holds exactly `deps`,
 * `[addresses]` exactly `addresses` (none when `undefined`), and the tables only tests or
 * other environments read (`[dev-dependencies]`, `[dev-addresses]`, `[dep-replacements.*]`,
 * `[environments]`) are gone. `[package]` and any other table are kept; `published-at` is set
 * when given.
 */
export function rewriteManifest(manifest: string, deps: readonly AddedDependency[], addresses: Readonly<Record<string, string>> | undefined, publishedAt?: string): string {
  const out: string[] = [];
  let table = '';
  let dropping = false;
  for (const line of manifest.split(/\r?\n/)) {
    const header = HEADER.exec(line);
    if (header && !line.trim().startsWith('[[')) {
      table = header[1];
      dropping = droppedTable(table);
      if (!dropping) out.push(line);
      continue;
    }
    if (dropping) continue;
    if (table === 'package' && publishedAt !== undefined && /^\s*published-at\s*=/.test(line)) continue;
    out.push(line);
    if (table === 'package' && publishedAt !== undefined && HEADER.exec(line) === null && /^\s*name\s*=/.test(line)) {
      out.push(`published-at = ${JSON.stringify(publishedAt)}`);
    }
  }
  while (out.length > 0 && out[out.length - 1].trim() === '') out.pop();
  out.push('', '[dependencies]', ...deps.map((d) => `${tomlKey(d.name)} = ${dependencyValue(d)}`));
  if (addresses) out.push('', '[addresses]', ...Object.entries(addresses).map(([k, v]) => `${tomlKey(k)} = ${JSON.stringify(v)}`));
  return out.join('\n') + '\n';
}
