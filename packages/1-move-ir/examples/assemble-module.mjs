// Assemble a Move IR module, print its disassembly and bytes, then run one upstream IR
// transactional test file against its snapshot. Run from the repo root after `pnpm build`:
//   node packages/1-move-ir/examples/assemble-module.mjs
import { readFileSync } from 'node:fs';
import { deserializeModule, disassembleModule } from '@smi/bytecode';
import { checkAgainstSnapshot, compileIrModule, IrCompileError } from '@smi/move-ir';

const source = `
mvir 0x42::Counter {
    public struct Counter has drop { value: u64 }

    public fun new(): Self::Counter {
    label b0:
        return Counter { value: 0 };
    }

    public fun bump(c: &mut Self::Counter) {
        let r: &mut u64;
    label b0:
        r = &mut move(c).Counter::value;
        *copy(r) = *copy(r) + 1;
        _ = move(r);
        return;
    }
}
`;

const { module, sourceNames, bytes } = compileIrModule(source);
console.log(disassembleModule(module, { sourceNames }));
console.log(`${bytes.length} bytes, deserializes back:`, deserializeModule(bytes).functionDefs.length, 'functions');

// Errors carry upstream's message and a stable code.
try {
  compileIrModule('mvir 0x42::M { public fun f(): u64 { label b0: return copy(MISSING); } }');
} catch (e) {
  if (e instanceof IrCompileError) console.log(e.code, '-', e.message); // COMPILE_ERROR - Missing constant definition for MISSING
}

// One file of the upstream IR compiler suite, compared task by task with its .snap.
const fw = process.env.SMI_FIXTURES ?? '../shared';
const file = `${fw}/fixtures/ir-tests/move-ir-compiler-transactional-tests/tests/bytecode-generation/statements/jump_if.mvir`;
const check = checkAgainstSnapshot(readFileSync(file, 'utf8'), readFileSync(file.replace(/\.mvir$/, '.snap'), 'utf8'));
for (const c of check.comparisons) console.log(`task ${c.number}: ${c.matched ? 'matches' : c.reason}`);
