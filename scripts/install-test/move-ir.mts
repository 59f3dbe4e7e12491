// @smi/move-ir: assemble a Move IR module and read it back.
import { deserializeModule } from '@smi/bytecode';
import { compileIrModule, IrCompileError } from '@smi/move-ir';
import { check, done } from './fixtures.mjs';

const { bytes } = compileIrModule(`
mvir 0x42::Counter {
    public struct Counter has drop { value: u64 }

    public fun new(): Self::Counter {
    label b0:
        return Counter { value: 0 };
    }
}
`);
check(deserializeModule(bytes).functionDefs.length === 1, 'one function');
let code = '';
try {
  compileIrModule('mvir 0x42::M { public fun f(): u64 { label b0: return copy(MISSING); } }');
} catch (e) {
  if (!(e instanceof IrCompileError)) throw e;
  code = e.code;
}
check(code !== '', 'a bad module is an IrCompileError');
done(`assembled 0x42::Counter (${bytes.length} bytes); a missing constant is ${code}`);
