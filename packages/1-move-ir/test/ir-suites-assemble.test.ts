/**
 * The VM and verifier IR suites through the assembler only: every task that carries a
 * module (`publish`, `run` with a body, `print-bytecode`) is parsed and assembled against
 * the modules published before it, with Sui's move-stdlib at 0x1 standing in for the
 * upstream harness's stdlib. Nothing runs and nothing is verified: the verifier suite's
 * invalid modules must still assemble. Each error we raise must be the one the `.snap`
 * shows, and `print-bytecode` output must match the snap.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { BytecodeError, deserializeModule, loadBundleFile, serializeModule, type CompiledModule } from '@smi/bytecode';
import { IrTestAdapter, parseSnapshot, runTransactionalTestFile, type TransactionalTask } from '@smi/move-ir';
import { describeWithFixtures, fixturePath } from '../../../test-support/fixtures.js';

function mvirFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((e) => {
      const p = path.join(dir, e);
      if (statSync(p).isDirectory()) return mvirFiles(p);
      return p.endsWith('.mvir') ? [p] : [];
    });
}

const json = (m: CompiledModule): string => JSON.stringify(m, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? [...v] : v));

/**
 * Loads the module's bytes back (the deserializer runs the bounds checker). `undefined`
 * when it loads back identical; else the failure in the VM error's terms.
 */
function reload(m: CompiledModule): { status: string; indices: string; offsets: string } | undefined {
  try {
    if (json(deserializeModule(serializeModule(m))) !== json(m)) return { status: 'ROUND_TRIP_DIFFERS', indices: '', offsets: '' };
    return undefined;
  } catch (e) {
    if (!(e instanceof BytecodeError)) throw e;
    if (e.location !== undefined) {
      const { functionDefinition, codeOffset } = e.location;
      return { status: e.code, indices: '[]', offsets: `[(FunctionDefinitionIndex(${functionDefinition}), ${codeOffset})]` };
    }
    const indices = e.indexKind !== undefined && e.index !== undefined ? `[(${e.indexKind}, ${e.index})]` : '[]';
    return { status: e.code, indices, offsets: '[]' };
  }
}

/** `run` with a module body assembles and publishes it; commands of the VM print nothing. */
class AssembleOnlyAdapter extends IrTestAdapter {
  /** The module each task assembled, by task number. */
  readonly assembled = new Map<number, CompiledModule>();

  override compile(task: TransactionalTask): ReturnType<IrTestAdapter['compile']> {
    const result = super.compile(task);
    this.assembled.set(task.number, result.module);
    return result;
  }

  override handle(task: TransactionalTask): string | undefined {
    if (task.command === 'run') return task.body === undefined ? undefined : this.publish(task);
    if (task.command === 'view-abstract-state') return undefined;
    return super.handle(task);
  }
}

/** What each suite's assembly gives (printed and asserted). */
const FIGURES: Record<string, Record<string, number>> = {
  'move-vm-transactional-tests': { files: 114, clean: 113, withModules: 350, assembled: 347, expectedErrors: 3, printed: 10, reloaded: 347, rejectedAsSnap: 0 },
  'bytecode-verifier-transactional-tests': { files: 510, clean: 505, withModules: 1399, assembled: 1393, expectedErrors: 6, printed: 0, reloaded: 1376, rejectedAsSnap: 17 },
};

for (const suite of ['move-vm-transactional-tests', 'bytecode-verifier-transactional-tests']) {
  const parts = ['fixtures', 'ir-tests', suite];
  describeWithFixtures(`${suite} assemble`, parts, () => {
    it('assembles every module the suite publishes', () => {
      const stdlib: CompiledModule[] = loadBundleFile(fixturePath('fixtures', 'framework', 'move-stdlib')).modules.map((m) => m.module);
      const root = fixturePath(...parts);
      const files = mvirFiles(root);
      let clean = 0;
      let withModules = 0;
      let assembled = 0;
      let expectedErrors = 0;
      let printed = 0;
      let reloaded = 0;
      let rejectedAsSnap = 0;
      const problems: string[] = [];
      for (const file of files) {
        const rel = path.relative(root, file);
        let adapter: AssembleOnlyAdapter | undefined;
        const run = runTransactionalTestFile(readFileSync(file, 'utf8'), (init) => {
          adapter = new AssembleOnlyAdapter({ preludeModules: stdlib }, init);
          return adapter;
        });
        const snap = parseSnapshot(readFileSync(file.replace(/\.mvir$/, '.snap'), 'utf8'));
        let fileClean = true;
        for (const { task, output } of run.outcomes) {
          if (task.body === undefined || task.command === 'init') continue;
          withModules++;
          const expected = snap.tasks.find((t) => t.number === task.number)?.output;
          if (output?.startsWith('Error: ')) {
            fileClean = false;
            if (output === expected) expectedErrors++;
            else problems.push(`${rel} task ${task.number}: ${output} (snap: ${expected ?? 'no output'})`);
            continue;
          }
          assembled++;
          const module = adapter?.assembled.get(task.number);
          const failure = module === undefined ? undefined : reload(module);
          if (failure === undefined) reloaded++;
          else if (expected?.includes(`major_status: ${failure.status},`) && expected.includes(`indices: ${failure.indices},`) && expected.includes(`offsets: ${failure.offsets},`)) {
            rejectedAsSnap++;
          } else {
            problems.push(`${rel} task ${task.number}: loading the bytes back fails with ${JSON.stringify(failure)}, the snap does not`);
          }
          if (task.command === 'print-bytecode') {
            printed++;
            if (output?.trimEnd() !== expected) problems.push(`${rel} task ${task.number}: print-bytecode output differs`);
          }
        }
        if (fileClean) clean++;
      }
      console.log(
        `${suite}: files ${files.length}, assembling without error ${clean}; module tasks ${withModules}, ` +
          `assembled ${assembled}, failing as the snap expects ${expectedErrors}, print-bytecode matched ${printed}; ` +
          `bytes load back identical ${reloaded}, rejected by the bounds checker as the snap expects ${rejectedAsSnap}`,
      );
      if (problems.length > 0) console.log(problems.join('\n'));
      expect(problems).toEqual([]);
      // The figures printed.
      expect({ files: files.length, clean, withModules, assembled, expectedErrors, printed, reloaded, rejectedAsSnap }).toEqual(FIGURES[suite]);
    });
  });
}
