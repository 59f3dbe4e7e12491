/**
 * `smi stubs`: Move source stubs of a bytecode package (declarations with `abort 0`
 * bodies), so that the Sui compiler can build code against it.
 */
import path from 'node:path';
import type { Argv } from 'yargs';
import { generateMoveStubs, generateStubManifest, loadPackageDir, stubPackageNames } from '@smi/bytecode';
import { type CliIo, jsonLine, resolvePath, writeOutput } from '../io.js';

/** Register the command. */
export function stubsCommand(io: CliIo, setExit: (code: number) => void) {
  return {
    command: 'stubs <package-dir>',
    describe: 'Generate Move source stubs (Move.toml + sources/*.move) of a bytecode package',
    builder: (y: Argv) =>
      y
        .positional('package-dir', { type: 'string', demandOption: true, describe: 'Package directory (bytecode_modules/*.mv)' })
        .option('out', { type: 'string', demandOption: true, describe: 'Directory to write the stub package into' })
        .option('name', { type: 'string', describe: 'Package name in Move.toml (default derived from the address)' })
        .option('json', { type: 'boolean', default: false, describe: 'Print {out, files} as one JSON line' })
        .example('$0 stubs ../shared/corpus/0x2 --out stubs/sui', ''),
    handler: (args: { 'package-dir': string; out: string; name?: string; json: boolean }) => {
      const pkg = loadPackageDir(resolvePath(io, args['package-dir']));
      const names = stubPackageNames(pkg.originalId, args.name);
      const files = generateMoveStubs(
        pkg.modules.map((m) => m.module),
        { packageName: names.packageName, addressName: names.addressName },
      );
      const outDir = resolvePath(io, args.out);
      files.set('Move.toml', generateStubManifest({ ...names, address: pkg.originalId }));
      for (const [rel, text] of files) writeOutput(io, path.join(outDir, rel), text);
      const list = [...files.keys()].sort();
      if (args.json) io.stdout(jsonLine({ out: outDir, files: list }));
      else io.stdout(`wrote ${list.length} files to ${outDir}\n`);
      setExit(0);
    },
  };
}
