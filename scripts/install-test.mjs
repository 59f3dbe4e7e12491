#!/usr/bin/env node
// The install test: every public package as a user gets it. Each package is packed
// (`pnpm pack`, so `workspace:` ranges become versions), the tarballs are installed into an
// empty npm project in a temporary directory outside the repository (third-party
// dependencies come from the npm registry), the scripts of scripts/install-test/ (one per
// package, `<name>.mts` for `@smi/<name>`) are type-checked there against the installed
// types (tsc, strict, `moduleResolution: nodenext`) and run, and so is the `smi` binary.
// Prints one line per package: tarball size, script time, what the script did.
//
//   node scripts/install-test.mjs [--keep]     (after `pnpm build`; --keep leaves the temp dir)
//
// Fixtures come from SMI_FIXTURES (default ../shared beside the checkout); without them the
// test is skipped with a message, or fails when SMI_REQUIRE_FIXTURES=1.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scriptsDir = path.join(root, 'scripts', 'install-test');
const keep = process.argv.includes('--keep');
const started = performance.now();
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const log = (line) => console.log(`install-test: ${line}`);

function fail(message) {
  console.error(`install-test: error: ${message}`);
  process.exit(1);
}

/** Run a command; resolves with its output, rejects with an error carrying it. */
function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { maxBuffer: 64 * 1024 * 1024, timeout: 180_000, ...options }, (error, stdout, stderr) => {
      if (error) {
        error.message = `${cmd} ${args.join(' ')} failed (${error.code ?? error.signal}):\n${stdout}${stderr}`;
        reject(error);
      } else resolve({ stdout, stderr });
    });
  });
}

// ---- fixtures ---------------------------------------------------------------------------
const fixtures = path.resolve(process.env.SMI_FIXTURES ?? path.join(root, '..', 'shared'));
const needed = [path.join(fixtures, 'fixtures', 'framework'), path.join(fixtures, 'corpus')];
const missing = needed.filter((p) => !existsSync(p));
if (missing.length > 0) {
  const message = `no fixtures at ${fixtures} (missing ${missing.map((p) => path.relative(fixtures, p)).join(', ')}); set SMI_FIXTURES`;
  if (process.env.SMI_REQUIRE_FIXTURES === '1') fail(`${message} (SMI_REQUIRE_FIXTURES=1)`);
  log(`skipped: ${message} (SMI_REQUIRE_FIXTURES=1 makes this an error)`);
  process.exit(0);
}

// ---- the public packages, built -------------------------------------------------------------
const packages = ['packages', 'apps']
  .flatMap((group) => (existsSync(path.join(root, group)) ? readdirSync(path.join(root, group)).map((d) => path.join(root, group, d)) : []))
  .filter((dir) => existsSync(path.join(dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => manifest.private !== true)
  .map(({ dir, manifest }) => ({ dir, name: manifest.name, version: manifest.version, manifest, script: manifest.name.replace(/^@smi\//, '') }))
  .sort((a, b) => a.name.localeCompare(b.name));
for (const p of packages) {
  if (!existsSync(path.join(p.dir, 'dist', 'index.js'))) fail(`${p.name} is not built (${path.relative(root, p.dir)}/dist): run pnpm build first`);
  if (!existsSync(path.join(scriptsDir, `${p.script}.mts`))) fail(`${p.name} has no install-test script (scripts/install-test/${p.script}.mts)`);
}

// ---- a temporary npm project outside the repository -------------------------------------
const tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'smi-install-test-')));
if (!path.relative(realpathSync(root), tmp).startsWith('..')) fail(`the temporary directory ${tmp} is inside the repository (set TMPDIR elsewhere)`);
const tarballs = path.join(tmp, 'tarballs');
const project = path.join(tmp, 'project');
mkdirSync(tarballs);
mkdirSync(path.join(project, 'src'), { recursive: true });
let ok = false;
process.on('exit', () => {
  if (!keep && ok) rmSync(tmp, { recursive: true, force: true });
  else if (!ok || keep) console.log(`install-test: the project is kept in ${tmp}`);
});

try {
  // Pack, four at a time.
  let t = performance.now();
  const queue = [...packages];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let p = queue.shift(); p !== undefined; p = queue.shift()) {
        await run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: p.dir });
        p.tarball = path.join(tarballs, `${p.name.replace(/^@/, '').replace('/', '-')}-${p.version}.tgz`);
        if (!existsSync(p.tarball)) throw new Error(`pnpm pack did not write ${p.tarball}`);
        p.size = statSync(p.tarball).size;
      }
    }),
  );
  const packTime = performance.now() - t;

  // Install the tarballs, and what the scripts need to be type-checked: TypeScript and Node's
  // types at the repository's versions, the MCP SDK at @smi/mcp's range (its client is used).
  t = performance.now();
  const installed = (name) => JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
  const mcp = packages.find((p) => p.name === '@smi/mcp');
  const extra = [`typescript@${installed('typescript')}`, `@types/node@${installed('@types/node')}`];
  if (mcp) extra.push(`@modelcontextprotocol/sdk@${mcp.manifest.dependencies['@modelcontextprotocol/sdk']}`);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'smi-install-test', version: '0.0.0', private: true, type: 'module' }, null, 2) + '\n');
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...packages.map((p) => p.tarball), ...extra], { cwd: project, timeout: 600_000 });
  const installTime = performance.now() - t;
  for (const p of packages) {
    const got = path.join(project, 'node_modules', ...p.name.split('/'));
    if (!existsSync(got) || statSync(got).isSymbolicLink()) throw new Error(`${p.name} is not installed from its tarball in ${got}`);
  }

  // Type-check the scripts against the installed types, and compile them to .mjs.
  t = performance.now();
  cpSync(scriptsDir, path.join(project, 'src'), { recursive: true });
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          // DOM: the types of some third-party dependencies (vega, the MCP SDK, @mysten/sui) name it.
          lib: ['ES2022', 'DOM'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noUncheckedIndexedAccess: true,
          noImplicitReturns: true,
          noFallthroughCasesInSwitch: true,
          verbatimModuleSyntax: true,
          isolatedModules: true,
          skipLibCheck: false,
          types: ['node'],
          rootDir: 'src',
          outDir: 'out',
        },
        include: ['src'],
      },
      null,
      2,
    ) + '\n',
  );
  await run(process.execPath, [path.join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { cwd: project });
  const tscTime = performance.now() - t;
  log(`packed ${packages.length} packages in ${seconds(packTime)}, npm install ${seconds(installTime)}, tsc ${seconds(tscTime)} (${tmp})`);

  // Run each package's script, then the binary, then the simulation without its optional peer.
  const env = { ...process.env, SMI_FIXTURES: fixtures, NO_COLOR: '1' };
  delete env.NODE_OPTIONS;
  const rows = [];
  const timed = async (label, cmd, args, check) => {
    const t0 = performance.now();
    try {
      const { stdout } = await run(cmd, args, { cwd: project, env, timeout: 120_000 });
      const detail = check(stdout.trim());
      rows.push({ label, time: performance.now() - t0, ok: true, detail });
    } catch (e) {
      rows.push({ label, time: performance.now() - t0, ok: false, detail: e instanceof Error ? e.message : String(e) });
    }
  };
  const last = (s) => s.split('\n').at(-1) ?? '';
  for (const p of packages) {
    await timed(p.name, process.execPath, [path.join(project, 'out', `${p.script}.mjs`)], last);
    rows.at(-1).size = p.size;
  }
  const smi = path.join(project, 'node_modules', '.bin', 'smi');
  const cliVersion = packages.find((p) => p.name === '@smi/cli')?.version;
  await timed('smi --version', smi, ['--version'], (out) => {
    if (out !== cliVersion) throw new Error(`smi --version printed "${out}", not ${cliVersion}`);
    return out;
  });
  await timed('smi call 0x1::u64::max --args 3 7', smi, ['call', '0x1::u64::max', '--args', '3', '7'], (out) => {
    if (!/u64 = "7"/.test(out)) throw new Error(`unexpected output:\n${out}`);
    return out.replace(/\s*\n\s*/g, '; ');
  });
  const compiler = path.join(project, 'node_modules', '@smi', 'move-compiler');
  const away = path.join(project, 'node_modules', '.smi-move-compiler-away');
  renameSync(compiler, away);
  try {
    await timed('@smi/simulation without @smi/move-compiler', process.execPath, [path.join(project, 'out', 'simulation-without-compiler.mjs')], last);
  } finally {
    renameSync(away, compiler);
  }

  // One line each.
  const width = Math.max(...rows.map((r) => r.label.length));
  for (const r of rows) {
    const size = r.size === undefined ? ''.padStart(17) : `tarball ${(r.size / 1024).toFixed(1).padStart(6)} kB`;
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.label.padEnd(width)}  ${size}  script ${seconds(r.time).padStart(7)}  ${r.ok ? r.detail : ''}`);
    if (!r.ok) console.log(r.detail.replace(/^/gm, '     | '));
  }
  const failed = rows.filter((r) => !r.ok).length;
  const total = packages.reduce((s, p) => s + p.size, 0);
  log(`${rows.length - failed}/${rows.length} passed; tarballs ${(total / 1024 / 1024).toFixed(2)} MB in all; total ${seconds(performance.now() - started)}`);
  ok = failed === 0;
  process.exitCode = ok ? 0 : 1;
} catch (e) {
  console.error(`install-test: error: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
}
