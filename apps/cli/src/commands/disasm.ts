/**
 * `smi disasm`: readable text of a module (a `.mv` file) or of the modules of a package
 * directory, or of one function.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Argv } from 'yargs';
import {
  type CompiledModule,
  deserializeModule,
  DisassemblerError,
  disassembleFunction,
  disassembleModule,
  loadPackageDir,
  moduleName,
} from '@smi/bytecode';
import { type CliIo, resolvePath, UsageError, writeOutput } from '../io.js';

function loadModules(target: string): CompiledModule[] {
  if (!existsSync(target)) throw new UsageError(`${target}: no such file or directory`);
  if (statSync(target).isDirectory()) return loadPackageDir(target).modules.map((m) => m.module);
  return [deserializeModule(new Uint8Array(readFileSync(target)))];
}

/** Register the command. */
export function disasmCommand(io: CliIo, setExit: (code: number) => void) {
  return {
    command: 'disasm <target>',
    describe: 'Disassemble a .mv module or every module of a package directory',
    builder: (y: Argv) =>
      y
        .positional('target', { type: 'string', demandOption: true, describe: 'A .mv file or a package directory' })
        .option('module', { type: 'string', describe: 'Only this module of a package directory' })
        .option('function', { type: 'string', describe: 'Only this function' })
        .option('out', { type: 'string', default: '-', describe: 'Output file, or - for standard output' })
        .example('$0 disasm ../shared/corpus/0x2/bytecode_modules/coin.mv --function value', ''),
    handler: (args: { target: string; module?: string; function?: string; out: string }) => {
      let modules = loadModules(resolvePath(io, args.target));
      if (args.module !== undefined) {
        modules = modules.filter((m) => moduleName(m) === args.module);
        if (modules.length === 0) throw new UsageError(`module ${args.module} not found in ${args.target}`);
      }
      let text: string;
      if (args.function !== undefined) {
        const fn = args.function;
        const found = modules.filter((m) => m.functionDefs.some((d) => m.identifiers[m.functionHandles[d.function].name] === fn));
        if (found.length === 0) throw new UsageError(`function ${fn} not found in ${path.basename(args.target)}`);
        if (found.length > 1) {
          throw new UsageError(`function ${fn} is defined in modules ${found.map(moduleName).join(', ')}: choose one with --module`);
        }
        try {
          text = disassembleFunction(found[0], fn);
        } catch (e) {
          if (e instanceof DisassemblerError) throw new UsageError(e.message);
          throw e;
        }
      } else {
        text = modules.map((m) => disassembleModule(m)).join('\n');
      }
      writeOutput(io, args.out, text.endsWith('\n') ? text : text + '\n');
      setExit(0);
    },
  };
}
