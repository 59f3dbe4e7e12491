/**
 * `smi stubs`: Move source stubs of a bytecode package (declarations with `abort 0`
 * bodies), so that the Sui compiler can build code against it.
 */
import path from 'node:path';
import { generateMoveStubs, generateStubManifest, loadPackageDir, stubPackageNames } from '@smi/bytecode';
import { defineCommand } from '../command.js';
import { jsonLine, resolveInputPath, resolvePath, writeOutput } from '../io.js';
import { header } from './registry.js';

/** `smi stubs`. */
export const stubsCommand = defineCommand<{ 'package-dir': string; out: string; name?: string }>({
  ...header('stubs'),
  positionals: { 'package-dir': { type: 'string', demandOption: true, describe: 'Package directory (bytecode_modules/*.mv)' } },
  options: {
    out: { type: 'string', demandOption: true, describe: 'Directory to write the stub package into' },
    name: { type: 'string', describe: 'Package name in Move.toml (default derived from the address)' },
  },
  examples: [{ command: '$0 stubs ../shared/corpus/0x2 --out stubs/sui', describe: 'stubs of the Sui framework' }],
  epilog: 'With --json: {"out","files"} on one line.',
  run: (args, io) => {
    const pkg = loadPackageDir(resolveInputPath(io, args['package-dir']));
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
    return 0;
  },
});
