#!/usr/bin/env node
// A dry run of `changeset version`, in a temporary copy of the workspace (its manifests,
// changelogs and .changeset/; never the working tree): checks that every package moves
// from its version by exactly the highest bump its changesets name (a package no changeset
// names moves at most by a patch, for a dependency), that no package moves to a new major
// without a changeset saying so (a peer dependency's bump would do that), that every moved
// package gets a CHANGELOG.md with its new version and the summary of each of its
// changesets, and that the changesets are consumed. Prints one line per package.
//
//   node scripts/changeset-check.mjs [--keep]
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const keep = process.argv.includes('--keep');
const log = (line) => console.log(`changeset-check: ${line}`);
const problems = [];

// ---- the workspace and the changesets -------------------------------------------------
const workspaceDirs = ['packages', 'apps'].flatMap((group) => (existsSync(path.join(root, group)) ? readdirSync(path.join(root, group)).map((d) => path.join(group, d)) : []));
const manifests = new Map();
for (const rel of workspaceDirs) {
  const file = path.join(root, rel, 'package.json');
  if (existsSync(file)) manifests.set(rel, JSON.parse(readFileSync(file, 'utf8')));
}
const byName = new Map([...manifests].map(([rel, m]) => [m.name, { rel, manifest: m }]));

const config = JSON.parse(readFileSync(path.join(root, '.changeset', 'config.json'), 'utf8'));
if (config.access !== 'public') problems.push(`.changeset/config.json: access is "${config.access}", not "public" (scoped packages would publish as restricted)`);
for (const name of [...(config.ignore ?? []), ...(config.fixed ?? []).flat(), ...(config.linked ?? []).flat()]) {
  if (!name.includes('*') && !byName.has(name)) problems.push(`.changeset/config.json names ${name}, which is not a workspace package`);
}
for (const { manifest } of byName.values()) {
  if (manifest.private === true) problems.push(`${manifest.name} is private: it would not be released`);
}

const RANK = { none: 0, patch: 1, minor: 2, major: 3 };
const changesets = readdirSync(path.join(root, '.changeset'))
  .filter((f) => f.endsWith('.md') && f !== 'README.md')
  .map((f) => {
    const text = readFileSync(path.join(root, '.changeset', f), 'utf8');
    const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(text);
    if (!m) {
      problems.push(`.changeset/${f}: no front matter`);
      return { file: f, releases: [], summary: '' };
    }
    const releases = m[1]
      .split(/\r?\n/)
      .filter((l) => l.trim() !== '')
      .map((l) => {
        const r = /^\s*["']?([^"':]+)["']?\s*:\s*(patch|minor|major|none)\s*$/.exec(l);
        if (!r) problems.push(`.changeset/${f}: cannot read "${l}"`);
        return r ? { name: r[1], type: r[2] } : null;
      })
      .filter((r) => r !== null);
    for (const r of releases) if (!byName.has(r.name)) problems.push(`.changeset/${f}: ${r.name} is not a workspace package`);
    return { file: f, releases, summary: m[2].trim() };
  });
const wanted = new Map();
for (const c of changesets) for (const r of c.releases) if (RANK[r.type] > RANK[wanted.get(r.name) ?? 'none']) wanted.set(r.name, r.type);

function bump(version, type) {
  const [major, minor, patch] = version.split('-')[0].split('.').map(Number);
  if (type === 'major') return `${major + 1}.0.0`;
  if (type === 'minor') return `${major}.${minor + 1}.0`;
  if (type === 'patch') return `${major}.${minor}.${patch + 1}`;
  return version;
}

// ---- `changeset version` in a copy ----------------------------------------------------
const tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'smi-changeset-check-')));
if (!path.relative(realpathSync(root), tmp).startsWith('..')) {
  console.error(`changeset-check: error: the temporary directory ${tmp} is inside the repository`);
  process.exit(1);
}
const copy = (rel) => {
  if (existsSync(path.join(root, rel))) cpSync(path.join(root, rel), path.join(tmp, rel), { recursive: true });
};
for (const f of ['package.json', 'pnpm-workspace.yaml', '.changeset']) copy(f);
for (const rel of manifests.keys()) {
  mkdirSync(path.join(tmp, rel), { recursive: true });
  copy(path.join(rel, 'package.json'));
  copy(path.join(rel, 'CHANGELOG.md'));
}
const bin = path.join(root, 'node_modules', '@changesets', 'cli', 'bin.js');
let output = '';
try {
  output = await new Promise((resolve, reject) =>
    execFile(process.execPath, [bin, 'version'], { cwd: tmp, env: { ...process.env, CI: 'true' }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`changeset version failed:\n${stdout}${stderr}`)) : resolve(stdout + stderr),
    ),
  );
} catch (e) {
  problems.push(e.message);
}

// ---- what it did ------------------------------------------------------------------------
const lines = [];
if (output !== '') {
  const left = readdirSync(path.join(tmp, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md');
  if (left.length > 0) problems.push(`changesets not consumed: ${left.join(', ')}`);
  for (const [name, { rel, manifest }] of [...byName].sort(([a], [b]) => a.localeCompare(b))) {
    const after = JSON.parse(readFileSync(path.join(tmp, rel, 'package.json'), 'utf8')).version;
    const type = wanted.get(name) ?? 'none';
    const expected = bump(manifest.version, type);
    const changelogFile = path.join(tmp, rel, 'CHANGELOG.md');
    const changelog = existsSync(changelogFile) ? readFileSync(changelogFile, 'utf8') : '';
    const own = changesets.filter((c) => c.releases.some((r) => r.name === name && r.type !== 'none'));
    if (type !== 'none' && after !== expected) problems.push(`${name}: ${manifest.version} → ${after}, but its changesets say ${type} (${expected})`);
    if (type === 'none' && after !== manifest.version && after !== bump(manifest.version, 'patch')) {
      problems.push(`${name}: ${manifest.version} → ${after} with no changeset naming it (at most a patch, for a dependency)`);
    }
    if (Number(after.split('.')[0]) > Number(manifest.version.split('.')[0]) && type !== 'major') {
      problems.push(`${name}: a new major version (${after}) that no changeset asks for`);
    }
    if (after !== manifest.version) {
      if (!changelog.includes(`## ${after}\n`)) problems.push(`${name}: CHANGELOG.md has no "## ${after}" section`);
      for (const c of own) {
        const firstLine = c.summary.split('\n')[0].trim();
        if (firstLine !== '' && !changelog.includes(firstLine)) problems.push(`${name}: CHANGELOG.md lacks the summary of ${c.file}`);
      }
    }
    lines.push(`${name.padEnd(20)} ${manifest.version} → ${after.padEnd(6)} ${type.padEnd(5)} ${String(own.length).padStart(3)} changesets, CHANGELOG.md ${changelog.split('\n').length} lines`);
  }
}

for (const l of lines) console.log(l);
for (const p of problems) console.log(`changeset-check: error: ${p}`);
log(`${changesets.length} changesets, ${byName.size} packages, ${problems.length} problems (in ${tmp})`);
if (!keep) rmSync(tmp, { recursive: true, force: true });
process.exit(problems.length > 0 ? 1 : 0);
