/**
 * `smi disasm`: readable text of a module (a `.mv` file, or `-` for one on standard input)
 * or of the modules of a package directory, or of one function.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { type CompiledModule, deserializeModule, DisassemblerError, disassembleFunction, disassembleModule, loadPackageDir, moduleName } from '@smi/bytecode';
import { defineCommand } from '../command.js';
import { inputError } from '../errors.js';
import { type CliIo, jsonLine, readInput, resolveInputPath, UsageError, writeOutput } from '../io.js';
import { header } from './registry.js';

async function loadModules(io: CliIo, target: string): Promise<CompiledModule[]> {
  if (target !== '-') {
    const file = resolveInputPath(io, target);
    if (!existsSync(file)) throw new UsageError(`${target}: no such file or directory`, 'FILE_NOT_FOUND');
    if (statSync(file).isDirectory()) return loadPackageDir(file).modules.map((m) => m.module);
  }
  const bytes = new Uint8Array(await readInput(io, target, 'disasm'));
  try {
    return [deserializeModule(bytes)];
  } catch (e) {
    throw inputError(target === '-' ? 'standard input' : target, e);
  }
}

interface DisasmArgs {
  target: string;
  module?: string;
  function?: string;
  out: string;
}

/** `smi disasm`. */
export const disasmCommand = defineCommand<DisasmArgs>({
  ...header('disasm'),
  positionals: { target: { type: 'string', demandOption: true, describe: 'A .mv file, a package directory, or - (a module on standard input)', file: 'read' } },
  options: {
    module: { type: 'string', describe: 'Only this module of a package directory' },
    function: { type: 'string', describe: 'Only this function' },
    out: { type: 'string', default: '-', describe: 'Output file, or - for standard output', file: 'write' },
  },
  examples: [
    { command: '$0 disasm ../shared/corpus/0x2/bytecode_modules/coin.mv --function value', describe: 'one function' },
    { command: '$0 disasm - < ../shared/fixtures/vm-traces/abort_math/build/abort_math/bytecode_modules/m.mv', describe: 'a module read from standard input' },
  ],
  epilog: 'With --json: {"target","modules":[{"module","text"}]} on one line.',
  run: async (args, io) => {
    let modules = await loadModules(io, args.target);
    if (args.module !== undefined) {
      modules = modules.filter((m) => moduleName(m) === args.module);
      if (modules.length === 0) throw new UsageError(`module ${args.module} not found in ${args.target}`, 'MODULE_NOT_FOUND');
    }
    let parts: { module: string; text: string }[];
    if (args.function !== undefined) {
      const fn = args.function;
      const found = modules.filter((m) => m.functionDefs.some((d) => m.identifiers[m.functionHandles[d.function].name] === fn));
      if (found.length === 0) throw new UsageError(`function ${fn} not found in ${path.basename(args.target)}`, 'FUNCTION_NOT_FOUND');
      if (found.length > 1) {
        throw new UsageError(`function ${fn} is defined in modules ${found.map(moduleName).join(', ')}: choose one with --module`);
      }
      try {
        parts = [{ module: moduleName(found[0]), text: disassembleFunction(found[0], fn) }];
      } catch (e) {
        if (e instanceof DisassemblerError) throw new UsageError(e.message, e.code);
        throw e;
      }
    } else {
      parts = modules.map((m) => ({ module: moduleName(m), text: disassembleModule(m) }));
    }
    if (args.json) {
      writeOutput(io, args.out, jsonLine({ target: args.target, modules: parts }));
    } else {
      const text = parts.map((p) => p.text).join('\n');
      writeOutput(io, args.out, text.endsWith('\n') ? text : text + '\n');
    }
    return 0;
  },
});
