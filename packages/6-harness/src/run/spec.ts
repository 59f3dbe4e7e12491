/**
 * A run's spec: everything that decides its results (the packages and their content
 * hashes, seed, agent, model and generation parameters, limits, prompt version, code
 * version), hashed. A resumed or merged run must have the same spec hash; transport
 * settings (concurrency, retries, timeouts of HTTP requests) are not part of it, nor is
 * the shard, so the shards of one run share one spec.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { canonicalJson } from '@smi/bytecode';
import type { GenerateParams } from '../model/types.js';

/** The spec of a run. */
export interface RunSpec {
  /** Format of this object. */
  spec_version: 1;
  /** `phase1` or `phase2`. */
  benchmark: string;
  /** Packages, in run order. */
  ids: string[];
  /** SHA-256 of each package's modules (sorted by name), by id. */
  package_hashes: Record<string, string>;
  /** The seed (decimal text: Python integers have no size limit). */
  seed: string;
  agent: string;
  /** The model, for agents that call one. */
  model: { id: string; base_url: string; params: GenerateParams } | null;
  /** Limits that change answers (structs in the prompt, attempts, per-package timeout...). */
  limits: Record<string, number | string | boolean | null>;
  /** Version of the prompts (bumped when their text changes). */
  prompt_version: string;
  /** The code that produced the results: the repository's commit and the version of each SMI package. */
  code: { git_commit: string | null; harness_version: string; packages?: Record<string, string> };
  epochs: number;
}

/** The hash of a spec. */
export function specHash(spec: RunSpec): string {
  return createHash('sha256')
    .update(canonicalJson(spec, { for: 'hash' }))
    .digest('hex');
}

/** The top-level keys where two specs differ (for refusal messages). */
export function specDifferences(a: RunSpec, b: RunSpec): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => canonicalJson((a as unknown as Record<string, unknown>)[k], { for: 'hash' }) !== canonicalJson((b as unknown as Record<string, unknown>)[k], { for: 'hash' })).sort();
}

/** SHA-256 of a package's modules (name and bytes, by name): its content identity. */
export function packageContentHash(modules: readonly { name: string; bytes: Uint8Array }[]): string {
  const h = createHash('sha256');
  for (const m of [...modules].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    h.update(m.name);
    h.update('\0');
    h.update(m.bytes);
  }
  return h.digest('hex');
}

/** {@link packageContentHash} of a package directory's `bytecode_modules/*.mv` (no decoding). */
export function packageDirHash(dir: string): string {
  const modDir = path.join(dir, 'bytecode_modules');
  if (!existsSync(modDir)) return packageContentHash([]);
  const modules = readdirSync(modDir)
    .filter((f) => f.endsWith('.mv'))
    .map((f) => ({ name: f.slice(0, -3), bytes: readFileSync(path.join(modDir, f)) }));
  return packageContentHash(modules);
}

/** The git commit of the repository holding `dir`, or `null`. */
export function gitCommit(dir: string): string | null {
  // An image without git or .git (the Dockerfile) records the commit it was built from.
  const fromEnv = process.env.SMI_GIT_COMMIT;
  if (fromEnv !== undefined && /^[0-9a-f]{7,40}$/i.test(fromEnv)) return fromEnv.toLowerCase();
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim() || null;
  } catch {
    return null;
  }
}

/** The SMI packages a run's results depend on, bottom of the chain last (each found from the ones above it). */
const CHAIN = ['@smi/inhabit', '@smi/simulation', '@smi/ptb', '@smi/move-vm', '@smi/bytecode'];

/** `name@version` of the package.json in `dir`, when it is one. */
function manifestAt(dir: string): { name: string; version: string } | null {
  try {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    return typeof pkg.name === 'string' && typeof pkg.version === 'string' ? { name: pkg.name, version: pkg.version } : null;
  } catch {
    return null;
  }
}

/**
 * The version of each SMI package the harness runs on (`unknown` when one cannot be found). A package
 * is looked up in the `node_modules` of the harness and of every package already found, as Node's
 * resolution would from there (pnpm keeps indirect dependencies out of the harness's own folder).
 */
export function packageVersions(): Record<string, string> {
  let harnessDir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 3 && manifestAt(harnessDir)?.name !== '@smi/harness'; i++) harnessDir = path.dirname(harnessDir);
  const roots = [harnessDir];
  const out: Record<string, string> = { '@smi/harness': harnessVersion() };
  for (const name of CHAIN) {
    out[name] = 'unknown';
    for (const root of roots) {
      const dir = path.join(root, 'node_modules', ...name.split('/'));
      const found = manifestAt(dir);
      if (found?.name !== name) continue;
      out[name] = found.version;
      roots.push(realpathOr(dir));
      break;
    }
  }
  return out;
}

function realpathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** This package's version (from its package.json). */
export function harnessVersion(): string {
  for (const rel of ['../../package.json', '../package.json']) {
    try {
      const v = JSON.parse(readFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), rel), 'utf8')) as { name?: string; version?: string };
      if (v.name === '@smi/harness' && typeof v.version === 'string') return v.version;
    } catch {
      // try the next place
    }
  }
  return 'unknown';
}
