/**
 * Upstream's IR transactional suites through the Move IR assembler (`@smi/move-ir`) and our
 * verifier: every `publish`/`run` module is assembled against the modules published before
 * it (Sui's move-stdlib at 0x1 standing in for the harness's), loaded back from its bytes and
 * verified with upstream's default verifier config (`VerifierConfig::default()`).
 *
 * A task agrees when we reject with exactly the snapshot's `Unable to publish module ...`
 * text (status, location, indices, offsets and message), or accept a module the snapshot
 * accepts (its output is then nothing, or an execution result, which needs the VM).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { BytecodeError, deserializeModule, loadBundleFile, type CompiledModule } from '@smi/bytecode';
import { describeWithFixtures, fixturePath, hasFixture } from '../../../test-support/fixtures.js';
import {
  MOVE_DEFAULT_VERIFIER_LIMITS,
  VerificationError,
  formatVerificationError,
  verificationErrorFromBytecodeError,
  verifyModule,
} from '../src/verifier/index.js';

type MoveIr = typeof import('../../move-ir/src/index.js');
type TransactionalTask = Parameters<InstanceType<MoveIr['IrTestAdapter']>['compile']>[0];

/** The assembler, when the package is there and loads. */
async function loadMoveIr(): Promise<MoveIr | undefined> {
  try {
    return await import('../../move-ir/src/index.js');
  } catch {
    return undefined;
  }
}

function mvirFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => {
      const p = path.join(dir, e);
      if (statSync(p).isDirectory()) return mvirFiles(p);
      return p.endsWith('.mvir') ? [p] : [];
    });
}

interface SuiteResult {
  tasks: number;
  agree: number;
  sameStatus: number;
  rejected: number;
  accepted: number;
  executed: number;
  /** Rejections raised by the verifier passes (not the deserializer or bounds checker). */
  byPasses: number;
  problems: string[];
}

function runSuite(ir: MoveIr, suite: string): SuiteResult {
  const stdlib: CompiledModule[] = hasFixture('fixtures', 'framework', 'move-stdlib')
    ? loadBundleFile(fixturePath('fixtures', 'framework', 'move-stdlib')).modules.map((m) => m.module)
    : [];
  const r: SuiteResult = { tasks: 0, agree: 0, sameStatus: 0, rejected: 0, accepted: 0, executed: 0, byPasses: 0, problems: [] };
  const { IrTestAdapter, serializeAssembled } = ir;

  class VerifyingAdapter extends IrTestAdapter {
    /** Assemble, load back from the bytes, verify against what is published, then keep it. */
    protected override publish(task: TransactionalTask): string | undefined {
      const { module } = this.compile(task);
      const self = module.moduleHandles[module.selfModuleHandleIndex];
      const address = module.addressIdentifiers[self.address];
      const name = module.identifiers[self.name];
      const bytes = serializeAssembled(module);
      try {
        deserializeModule(bytes);
        verifyModule(module, { dependencies: [...this.modules.values()], limits: MOVE_DEFAULT_VERIFIER_LIMITS });
      } catch (e) {
        const err = e instanceof BytecodeError ? verificationErrorFromBytecodeError(e, address) : e;
        if (!(err instanceof VerificationError)) throw e;
        if (err.location.$kind === 'Module') r.byPasses++;
        throw new Error(`Unable to publish module '${address.slice(2)}::${name}'. Got VMError: ${formatVerificationError(err)}`);
      }
      this.modules.set(`${address}::${name}`, module);
      return undefined;
    }

    override handle(task: TransactionalTask): string | undefined {
      if (task.command === 'run') return task.body === undefined ? undefined : this.publish(task);
      if (task.command === 'view-abstract-state') return 'view-abstract-state subcommand is only available with regex reference safety';
      return super.handle(task);
    }
  }

  const root = fixturePath('fixtures', 'ir-tests', suite);
  const status = (s: string | undefined): string | undefined => /major_status: (\w+)/.exec(s ?? '')?.[1];
  for (const file of mvirFiles(root)) {
    const rel = path.relative(root, file);
    const run = ir.runTransactionalTestFile(readFileSync(file, 'utf8'), (init) => new VerifyingAdapter({ preludeModules: stdlib }, init));
    const snap = ir.parseSnapshot(readFileSync(file.replace(/\.mvir$/, '.snap'), 'utf8'));
    for (const { task, output } of run.outcomes) {
      if (task.body === undefined || task.command === 'init') continue;
      r.tasks++;
      const expected = snap.tasks.find((t) => t.number === task.number)?.output;
      const expectRejection = expected?.startsWith('Error: Unable to publish module') ?? false;
      if (expectRejection) r.rejected++;
      else if (expected === undefined) r.accepted++;
      else r.executed++;
      const actual = output?.trimEnd();
      const rejected = actual?.startsWith('Error: Unable to publish module') ?? false;
      const ok = expectRejection ? actual === expected : !rejected && (actual === undefined || actual === expected || !actual.startsWith('Error: '));
      if (ok) r.agree++;
      if (ok || (expectRejection && rejected && status(actual) === status(expected))) r.sameStatus++;
      if (!ok) {
        const want = status(expected) ?? (expected === undefined ? 'success' : expected.slice(0, 80));
        r.problems.push(`${rel} task ${task.number}: expected ${want}, got ${status(actual) ?? actual?.slice(0, 200) ?? 'success'}`);
      }
    }
  }
  return r;
}

function report(suite: string, r: SuiteResult): string {
  const rate = (n: number): string => `${((100 * n) / Math.max(r.tasks, 1)).toFixed(1)}%`;
  return (
    `${suite}: ${r.tasks} module tasks (the snapshot rejects ${r.rejected} at publication, accepts ${r.accepted} ` +
    `silently, runs ${r.executed} with an execution result not checked here); exact agreement ${r.agree} ` +
    `(${rate(r.agree)}), same verdict and status ${r.sameStatus} (${rate(r.sameStatus)}); ` +
    `rejections raised by the verifier passes ${r.byPasses}` +
    (r.problems.length > 0 ? `\n${r.problems.join('\n')}` : '')
  );
}

describeWithFixtures('verifier: upstream IR suites', ['fixtures', 'ir-tests'], () => {
  it('bytecode-verifier-transactional-tests: agrees with the snapshots', async () => {
    const ir = await loadMoveIr();
    if (ir === undefined) {
      // eslint-disable-next-line no-console
      console.warn('[smi] @smi/move-ir is not available: IR suite skipped');
      return;
    }
    const r = runSuite(ir, 'bytecode-verifier-transactional-tests');
    // eslint-disable-next-line no-console
    console.log(report('bytecode-verifier-transactional-tests', r));
    expect(r.tasks).toBeGreaterThan(1000);
    expect(r.problems).toEqual([]);
  });

  it('move-vm-transactional-tests: publication verdicts agree (unknown natives are the loader’s job)', async () => {
    const ir = await loadMoveIr();
    if (ir === undefined) return;
    const r = runSuite(ir, 'move-vm-transactional-tests');
    // eslint-disable-next-line no-console
    console.log(report('move-vm-transactional-tests', r));
    // The VM loader refuses natives it does not know (MISSING_DEPENDENCY); the verifier does not.
    expect(r.problems.filter((p) => !p.startsWith('tests/native_'))).toEqual([]);
  });
});
