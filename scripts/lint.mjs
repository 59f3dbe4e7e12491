// Project lint: Biome first (biome.jsonc: its recommended rules, unused imports and variables,
// floating promises, no `any`; any finding, even an info, fails; every file formatted as
// `pnpm format` writes it), then the layout rules of
// DEVELOPERS.md that neither a compiler nor Biome checks.
// - source files stay under about 600 lines (warning above 600, error above 700);
// - every package and app has src/index.ts and a README.md; every package has examples/;
// - every package and app is publishable: not private, an `exports` map whose every entry
//   names its `types` first, `sideEffects` declared, the repository's LICENSE (Apache-2.0)
//   beside it, identical, and in `files`;
// - no fixture data copied into the repo (.mv files, framework bundles);
// - layering (scripts/layers.mjs): every `@smi/*` import (sources, tests, examples) and every
//   `@smi/*` package.json entry names a package of a lower layer; a source's `@smi/*` import is
//   a dependency (or peer) of its package (tests and examples: any lower layer); no file imports its own package's barrel
//   (src/index.ts); no file-level import cycle inside a package's src (type-only imports
//   count); the directory rules of layers.mjs (move-vm: loader/ and gas/ never import interpreter/).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { cycles, fileGraph, filesUnder, importsOf, resolveRelative } from './import-graph.mjs';
import { DIRECTORY_RULES, LAYERS, layerOf } from './layers.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const problems = [];
const warnings = [];

const biome = spawnSync(path.join(root, 'node_modules', '.bin', 'biome'), ['lint', '--error-on-warnings', '--max-diagnostics=none', '.'], { cwd: root, encoding: 'utf8' });
if (biome.error) problems.push(`biome: ${biome.error.message} (run pnpm install)`);
else {
  process.stdout.write(biome.stdout);
  process.stderr.write(biome.stderr);
  if (biome.status !== 0 || /Found \d+ infos?\b/.test(biome.stdout + biome.stderr))
    problems.push('biome lint: the findings above (fix them; `// biome-ignore lint/<group>/<rule>: <reason>` where the rule is wrong)');
}
const format = spawnSync(path.join(root, 'node_modules', '.bin', 'biome'), ['format', '--max-diagnostics=20', '.'], { cwd: root, encoding: 'utf8' });
if (!format.error && format.status !== 0) {
  process.stdout.write(format.stdout);
  process.stderr.write(format.stderr);
  problems.push('biome format: files not formatted (pnpm format writes them)');
}

function walk(dir, out) {
  for (const e of readdirSync(dir)) {
    if (e === 'node_modules' || e === 'dist' || e.startsWith('.')) continue;
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

const units = [];
for (const group of ['packages', 'apps']) {
  const g = path.join(root, group);
  if (!existsSync(g)) continue;
  for (const name of readdirSync(g)) units.push({ group, dir: path.join(g, name) });
}

const license = readFileSync(path.join(root, 'LICENSE'), 'utf8');
if (!license.includes('Apache License') || !license.includes('Version 2.0, January 2004')) problems.push('LICENSE: not the Apache-2.0 text');

/** The publishing rules of one package.json (see the header). */
function checkManifest(rel, dir) {
  const file = path.join(dir, 'package.json');
  if (!existsSync(file)) return problems.push(`${rel}: no package.json`);
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  if (pkg.private === true) problems.push(`${rel}/package.json: private (every package and app is published)`);
  if (pkg.license !== 'Apache-2.0') problems.push(`${rel}/package.json: license is not Apache-2.0`);
  if (pkg.sideEffects !== false && !Array.isArray(pkg.sideEffects)) problems.push(`${rel}/package.json: no sideEffects (false, or the files that run code on import)`);
  if (pkg.exports === null || typeof pkg.exports !== 'object' || pkg.exports['.'] === undefined) problems.push(`${rel}/package.json: no exports map with "."`);
  for (const [entry, target] of Object.entries(pkg.exports ?? {})) {
    if (entry === './package.json') continue;
    if (typeof target !== 'object' || Object.keys(target)[0] !== 'types') problems.push(`${rel}/package.json: exports["${entry}"] does not name its types first`);
  }
  if (!(pkg.files ?? []).includes('LICENSE')) problems.push(`${rel}/package.json: LICENSE is not in files`);
  const own = path.join(dir, 'LICENSE');
  if (!existsSync(own) || readFileSync(own, 'utf8') !== license) problems.push(`${rel}/LICENSE: missing or not the repository's LICENSE (cp LICENSE ${rel}/)`);
}

for (const { group, dir } of units) {
  const rel = path.relative(root, dir);
  checkManifest(rel, dir);
  if (!existsSync(path.join(dir, 'src', 'index.ts'))) problems.push(`${rel}: no src/index.ts`);
  if (!existsSync(path.join(dir, 'README.md'))) problems.push(`${rel}: no README.md`);
  if (group === 'packages' && !existsSync(path.join(dir, 'examples'))) problems.push(`${rel}: no examples/`);
  for (const file of walk(path.join(dir, 'src'), [])) {
    if (!file.endsWith('.ts')) continue;
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n').length;
    const f = path.relative(root, file);
    if (lines > 700) problems.push(`${f}: ${lines} lines (limit about 600)`);
    else if (lines > 600) warnings.push(`${f}: ${lines} lines (about 600 is the aim)`);
  }
}

/** The layering rules (see the header and scripts/layers.mjs) of one package or app. */
function checkLayers(rel, dir) {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const self = pkg.name;
  const mine = layerOf(self);
  if (mine === undefined) return problems.push(`${rel}: ${self} is in no layer of scripts/layers.mjs`);
  // The folder shows the layer: packages/<layer>-<name> (apps/ is the top layer as a whole).
  const folder = path.basename(dir);
  const expected = rel.startsWith('apps') ? self.replace('@smi/', '') : `${mine}-${self.replace('@smi/', '')}`;
  if (folder !== expected) problems.push(`${rel}: ${self} is in layer ${mine}; its folder is named ${expected} (scripts/layers.mjs)`);
  const below = (name) => layerOf(name) !== undefined && layerOf(name) < mine;
  const runtime = new Set(['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap((f) => Object.keys(pkg[f] ?? {})));
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const dep of Object.keys(pkg[field] ?? {})) {
      if (!dep.startsWith('@smi/')) continue;
      if (layerOf(dep) === undefined) problems.push(`${rel}/package.json: ${field} names ${dep}, a package that does not exist (or is in no layer)`);
      else if (!below(dep)) problems.push(`${rel}/package.json: ${field} names ${dep} (layer ${layerOf(dep)}), not below ${self} (layer ${mine})`);
    }
  }
  const barrel = path.join(dir, 'src', 'index.ts');
  for (const file of filesUnder(dir)) {
    const f = path.relative(root, file);
    const inSrc = file.startsWith(path.join(dir, 'src') + path.sep);
    for (const imp of importsOf(file)) {
      if (imp.spec.startsWith('@smi/')) {
        const target = imp.spec.split('/').slice(0, 2).join('/');
        if (target === self) {
          if (inSrc) problems.push(`${f}:${imp.line}: imports its own package by name (${imp.spec}); import the module`);
          continue;
        }
        if (layerOf(target) === undefined) problems.push(`${f}:${imp.line}: imports ${target}, a package that does not exist`);
        else if (!below(target)) problems.push(`${f}:${imp.line}: imports ${target} (layer ${layerOf(target)}) from ${self} (layer ${mine}): only lower layers (scripts/layers.mjs)`);
        else if (inSrc && !runtime.has(target)) problems.push(`${f}:${imp.line}: imports ${target}, not in ${rel}/package.json dependencies (or peer)`);
      } else if (inSrc && file !== barrel && resolveRelative(file, imp.spec) === barrel) {
        problems.push(`${f}:${imp.line}: imports the package's own barrel (src/index.ts): import the module that defines the names`);
      } else if (inSrc) {
        const target = resolveRelative(file, imp.spec);
        if (target === undefined) continue;
        for (const rule of DIRECTORY_RULES) {
          if (rule.pkg !== self || !file.startsWith(path.join(dir, rule.from))) continue;
          if (rule.not.some((n) => target.startsWith(path.join(dir, n))))
            problems.push(`${f}:${imp.line}: imports ${path.relative(root, target)}: ${rule.from} never imports ${rule.not.join(', ')} (${rule.why})`);
        }
      }
    }
  }
  for (const c of cycles(fileGraph(path.join(dir, 'src')))) {
    problems.push(`${rel}/src: import cycle (type-only imports count) between ${c.map((x) => path.relative(path.join(dir, 'src'), x)).join(', ')}`);
  }
}

for (const { dir } of units) checkLayers(path.relative(root, dir), dir);
if (new Set(LAYERS.flat()).size !== units.length) problems.push(`scripts/layers.mjs: ${LAYERS.flat().length} packages in layers, ${units.length} in the workspace`);

// Files git would commit (tracked, or new and not ignored): outputs of example commands
// (build/, out/, ...) are ignored, not part of the repo.
const repoFiles = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f !== '' && existsSync(path.join(root, f)));
for (const f of repoFiles) {
  if (f.endsWith('.mv')) problems.push(`${f}: bytecode files must come from SMI_FIXTURES, not the repo`);
}

for (const w of warnings) console.log(`lint: warning: ${w}`);
for (const p of problems) console.log(`lint: error: ${p}`);
console.log(`lint: ${units.length} packages, ${problems.length} errors, ${warnings.length} warnings`);
process.exit(problems.length > 0 ? 1 : 0);
