/**
 * Every option that names a file takes `-` for standard input or output, written as a
 * separate word (`--out -`) or with `=` (`--out=-`), aliases included. The cases come from
 * the commands' own declarations (`file: 'read' | 'write' | 'state'`), so a new file option
 * without a case here fails the first test.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { fetchedFromSnapshot, readReplaySnapshot, TransactionCache } from '@smi/simulation';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';
import { commandName } from '../src/command.js';
import { COMMANDS } from '../src/index.js';
import { REPO as REPO_ROOT, requireBuiltCli, runSmi, type SpawnRun } from './support/spawn-cli.js';

const PKG_0X1 = fixturePath('corpus', '0x0000000000000000000000000000000000000000000000000000000000000001');
const REPLAY = fixturePath('fixtures', 'replay', '4fxF3X4N8D6JGByWdbJvCCv1iuoT8GSEhXgPHJnzNHWP.json');
const REQUEST = JSON.stringify({ action: 'call_function', package: '0x1', module: 'u64', function: 'max', args: [3, 7] });

interface Case {
  /** The command line before the file option (a function: fresh for every run). */
  args: string[] | (() => string[]);
  /** What `-` reads, for a read option. */
  stdin?: () => Buffer | string;
  /** What a run with `-` must show. */
  check: (r: SpawnRun) => void;
}

const SANDBOX_ROUND_TRIP: Case = {
  args: ['sandbox-exec'],
  stdin: () => REQUEST,
  check: (r) => {
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true });
  },
};

const ORACLE = fixturePath('corpus', '0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f');
const BENCH = ['benchmark-local', '--target-corpus', ORACLE, '--tier-a-only', '--quiet', '--jobs', '1'];
const sixRows = (r: SpawnRun): void => {
  expect(r.code, r.stderr).toBe(0);
  expect(
    r.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { target_package: string }).target_package),
  ).toEqual(Array(6).fill(path.basename(ORACLE)));
};

const PHASE1 = ['phase1', '--corpus-root', fixturePath('corpus'), '--agent', 'mock-perfect', '--no-log', '--quiet'];
const scratch = (): string => mkdtempSync(path.join(os.tmpdir(), 'smi-file-options-scratch-'));

/** A fresh transaction cache holding the recorded transaction of `snapshot`. */
function cacheWith(snapshot: string): string {
  const cache = new TransactionCache(path.join(scratch(), 'cache'));
  cache.write(fetchedFromSnapshot(readReplaySnapshot(snapshot)));
  return cache.dir;
}
const PHASE2 = ['phase2', '--corpus-root', fixturePath('corpus'), '--samples', '2', '--no-log', '--quiet'];
/** A finished Phase I run to merge (made in `beforeAll`). */
const RUN_TO_MERGE = path.join(mkdtempSync(path.join(os.tmpdir(), 'smi-file-options-run-')), 'run');

/** A sandbox state file (made in `beforeAll`) for `phase2 --state-file`. */
const STATE_FILE = path.join(mkdtempSync(path.join(os.tmpdir(), 'smi-file-options-state-')), 'state.json');

/** One case per `command --option` (positionals as `command <name>`). */
const CASES: Record<string, Case> = {
  'phase1 --out': {
    args: [...PHASE1, '--samples', '2'],
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ schema_version: 1, samples: 2, agent: 'mock-perfect' });
    },
  },
  'phase1 --package-ids-file': {
    args: [...PHASE1, '--samples', '0', '--json'],
    stdin: () => `# one package\n${path.basename(PKG_0X1)}\n`,
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'success', packages: 1 });
    },
  },
  'phase2 --out': {
    args: [...PHASE2, '--agent', 'mock-perfect'],
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ schema_version: 2, samples: 2, agent: 'mock-perfect' });
    },
  },
  'phase2 --package-ids-file': {
    args: [...PHASE2, '--samples', '0', '--json'],
    stdin: () => `# one package\n${path.basename(ORACLE)}\n`,
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'success', done: 1 });
    },
  },
  'phase2 --plan-file': {
    args: ['phase2', '--corpus-root', ORACLE, '--agent', 'mock-planfile', '--no-log', '--quiet', '--json'],
    stdin: () => JSON.stringify({ [path.basename(ORACLE)]: { calls: [] } }),
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'success', done: 1 });
    },
  },
  'phase2 --state-file': {
    args: ['phase2', '--corpus-root', ORACLE, '--agent', 'baseline-search', '--no-log', '--quiet', '--json'],
    stdin: () => readFileSync(STATE_FILE),
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'success', done: 1 });
    },
  },
  'phase2-manifest --out-ids': {
    args: () => ['phase2-manifest', '--corpus-root', fixturePath('corpus'), '--out-plan', path.join(scratch(), 'p.json')],
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim().split('\n').length).toBeGreaterThan(0);
    },
  },
  'phase2-manifest --out-plan': {
    args: () => ['phase2-manifest', '--corpus-root', fixturePath('corpus'), '--out-ids', path.join(scratch(), 'ids.txt')],
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(Object.keys(JSON.parse(r.stdout) as object).length).toBeGreaterThan(0);
    },
  },
  'phase2-manifest --out-report': {
    args: () => ['phase2-manifest', '--corpus-root', fixturePath('corpus'), '--out-ids', path.join(scratch(), 'ids.txt'), '--out-plan', path.join(scratch(), 'p.json')],
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ schema_version: 1, stats: { packages_total: 12 } });
    },
  },
  'manifest-filter <run-json>': {
    args: ['manifest-filter', '--min-targets', '1'],
    stdin: () =>
      JSON.stringify({
        schema_version: 2,
        packages: [
          { package_id: '0xa', score: { targets: 2 } },
          { package_id: '0xb', score: { targets: 0 } },
        ],
      }),
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('0xa\n');
    },
  },
  'manifest-filter --out-manifest': {
    args: () => {
      const f = path.join(scratch(), 'run.json');
      writeFileSync(f, JSON.stringify({ schema_version: 2, packages: [{ package_id: '0xc', score: { targets: 3 } }] }));
      return ['manifest-filter', f];
    },
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('0xc\n');
    },
  },
  'phase1 --dotenv': {
    args: ['phase1', '--corpus-root', fixturePath('corpus'), '--doctor-agent', '--json'],
    stdin: () => 'SMI_API_KEY=sk-from-stdin\nSMI_MODEL=model-from-stdin\nSMI_API_BASE_URL=http://127.0.0.1:9/v1\n',
    // Nothing listens on port 9: the doctor reports it (exit 1), with the model the .env named.
    check: (r) => {
      expect(r.code, r.stderr).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ model: 'model-from-stdin', api_key: 'len=13 suffix=-stdin', ok: false });
    },
  },
  'phase2 --dotenv': {
    args: ['phase2', '--corpus-root', ORACLE, '--agent', 'real-openai-compatible', '--no-log', '--json'],
    stdin: () => 'SMI_API_KEY=sk-from-stdin\nSMI_MODEL=model-from-stdin\nSMI_TEMPERATURE=7\n',
    // The .env read from stdin is the one whose bad temperature is reported.
    check: (r) => {
      expect(r.code, r.stderr).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'error' });
      expect(r.stdout).toMatch(/SMI_TEMPERATURE/);
    },
  },
  'merge --out': {
    args: () => ['merge', RUN_TO_MERGE, '--out-dir', path.join(mkdtempSync(path.join(os.tmpdir(), 'smi-file-options-merged-')), 'merged')],
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ schema_version: 1, samples: 2 });
    },
  },
  'build-all --summary': {
    args: () => ['build-all', path.join(REPO_ROOT, 'apps/cli/examples'), '--out', mkdtempSync(path.join(os.tmpdir(), 'smi-file-options-corpus-')), '--quiet'],
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout.slice(r.stdout.indexOf('{')))).toMatchObject({ built: 1, failed: 0 });
    },
  },
  'benchmark-local --output': { args: BENCH, check: sixRows },
  'benchmark-local --package-ids-file': { args: [...BENCH.slice(0, 2), fixturePath('corpus'), ...BENCH.slice(3)], stdin: () => `${path.basename(ORACLE)}\n`, check: sixRows },
  'benchmark-local --summary': {
    args: () => [...BENCH, '--output', path.join(mkdtempSync(path.join(os.tmpdir(), 'smi-file-options-')), 'rows.jsonl')],
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ rows: 6, tier_a_hits: 6 });
    },
  },
  'extract --out': {
    args: ['extract', '--package-dir', PKG_0X1],
    check: (r) => {
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as { module_names: string[] }).module_names).toContain('vector');
    },
  },
  'disasm --out': {
    args: ['disasm', fixturePath('corpus', '0x0000000000000000000000000000000000000000000000000000000000000001', 'bytecode_modules', 'option.mv')],
    check: (r) => {
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('module 1.option {');
    },
  },
  'merge-rows <parts>': {
    args: ['merge-rows'],
    stdin: () => '{"target_package":"0xa","target_module":"m","target_function":"f","status":"miss"}\n',
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ target_function: 'f' });
    },
  },
  'merge-rows --out': {
    args: () => {
      const f = path.join(scratch(), 'part.jsonl');
      writeFileSync(f, '{"target_package":"0xa","target_module":"m","target_function":"g","status":"miss"}\n');
      return ['merge-rows', f];
    },
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ target_function: 'g' });
    },
  },
  'report <inputs>': {
    args: () => ['report', '--out', path.join(scratch(), 'report.html'), '--json'],
    stdin: () => readFileSync(path.join(RUN_TO_MERGE, 'run.json')),
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'ok', phase1: 1, packages: 2 });
    },
  },
  'report --out': {
    args: () => ['report', RUN_TO_MERGE, '--quiet'],
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.startsWith('<!doctype html>')).toBe(true);
    },
  },
  'report --md': {
    args: () => ['report', RUN_TO_MERGE, '--out', path.join(scratch(), 'report.html'), '--quiet'],
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.startsWith('# SMI report')).toBe(true);
    },
  },
  'disasm <target>': {
    args: ['disasm'],
    stdin: () => readFileSync(`${PKG_0X1}/bytecode_modules/option.mv`),
    check: (r) => {
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('module 1.option {');
    },
  },
  'tx-replay --output': {
    // The recorded transaction, from a cache filled offline, written as a FetchedTransaction line.
    args: () => {
      const cache = path.join(scratch(), 'cache');
      return ['tx-replay', '--import-snapshot', REPLAY, '--cache-dir', cache, '--from-cache', '--summary-only'];
    },
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout.trim().split('\n')[0])).toMatchObject({ digest: '4fxF3X4N8D6JGByWdbJvCCv1iuoT8GSEhXgPHJnzNHWP' });
    },
  },
  'ptb-eval --output': {
    args: () => ['ptb-eval', '--cache-dir', cacheWith(REPLAY), '--quiet'],
    check: (r) => {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout.trim())).toMatchObject({ digest: '4fxF3X4N8D6JGByWdbJvCCv1iuoT8GSEhXgPHJnzNHWP', status: 'Success' });
    },
  },
  'replay --snapshot': {
    args: ['replay'],
    stdin: () => readFileSync(REPLAY),
    check: (r) => {
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('MATCH');
    },
  },
  // One request read from stdin, its response written to stdout, whichever option is `-`.
  'sandbox-exec --input': SANDBOX_ROUND_TRIP,
  'sandbox-exec --output': SANDBOX_ROUND_TRIP,
  'sandbox-exec --state-file': {
    args: ['sandbox-exec'],
    stdin: () => REQUEST,
    // Standard input cannot be rewritten: a clear error, the same both ways.
    check: (r) => {
      expect(r.code).toBe(2);
      expect(r.stderr).toBe('smi: error: --state-file -: a state file is read and rewritten after every request; give a path\n');
    },
  },
  'mcp --state-file': {
    args: ['mcp'],
    // Standard input carries the protocol and cannot be rewritten: refused before serving.
    check: (r) => {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('smi: error: --state-file -: a state file is read and rewritten after every request; give a path\n');
    },
  },
};

/** Every file option and positional the commands declare, with its aliases. */
function declaredFileOptions(): { key: string; spellings: string[]; positional: boolean }[] {
  const out: { key: string; spellings: string[]; positional: boolean }[] = [];
  for (const spec of COMMANDS) {
    const name = commandName(spec);
    for (const [opt, o] of Object.entries(spec.options ?? {})) {
      if (o.file === undefined) continue;
      const aliases = o.alias === undefined ? [] : Array.isArray(o.alias) ? o.alias : [o.alias];
      out.push({ key: `${name} --${opt}`, spellings: [opt, ...aliases], positional: false });
    }
    for (const [pos, p] of Object.entries(spec.positionals ?? {})) {
      if (p.file !== undefined) out.push({ key: `${name} <${pos}>`, spellings: [], positional: true });
    }
  }
  return out;
}

describeWithFixtures('smi: - for standard input/output in every file option', ['corpus'], () => {
  beforeAll(async () => {
    requireBuiltCli();
    const made = await runSmi(['phase1', '--corpus-root', fixturePath('corpus'), '--agent', 'mock-perfect', '--samples', '2', '--run-dir', RUN_TO_MERGE, '--quiet']);
    if (made.code !== 0) throw new Error(`could not make a run to merge: ${made.stderr}`);
    const state = await runSmi(['sandbox-exec', '--state-file', STATE_FILE], { stdin: JSON.stringify({ action: 'get_clock' }) });
    if (state.code !== 0) throw new Error(`could not make a state file: ${state.stderr}`);
  });

  it('every declared file option has a case', () => {
    expect(
      declaredFileOptions()
        .map((o) => o.key)
        .sort(),
    ).toEqual(Object.keys(CASES).sort());
  });

  it('each file option takes - as a separate word and with =, under every alias', async () => {
    const runs: Promise<void>[] = [];
    for (const { key, spellings, positional } of declaredFileOptions()) {
      const c = CASES[key];
      const forms = positional ? [['-']] : spellings.flatMap((s) => [[`--${s}`, '-'], [`--${s}=-`]]);
      for (const form of forms) {
        runs.push(
          runSmi([...(typeof c.args === 'function' ? c.args() : c.args), ...form], { stdin: c.stdin?.() }).then((r) => {
            try {
              c.check(r);
            } catch (e) {
              throw new Error(`${key} as \`${form.join(' ')}\`: ${e instanceof Error ? e.message : String(e)}\nstderr: ${r.stderr}`);
            }
          }),
        );
      }
    }
    await Promise.all(runs);
  });
});
