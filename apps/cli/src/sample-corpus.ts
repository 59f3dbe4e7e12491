/**
 * The default sample corpus of the quick start (`smi benchmark-local --sample`): the packages of
 * the shared corpora (`../shared/corpus`: the framework's bridge and DeepBook, Cetus CLMM, Dola
 * v1/v2, a lending pool, …; `../shared/corpus-mainnet`: 23 mainnet packages from
 * MystenLabs/sui-packages with their dependencies). Where the fixtures are, they are used as they
 * are; elsewhere these ids are fetched, with the packages they link to and the framework, into the
 * user cache on first use (`smi fetch` does the same by hand).
 */
import { BRIDGE_ADDRESS, addressOfNumber } from '@smi/bytecode';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fetchFramework, fetchPackages, locateFramework, type SuiDataSource } from '@smi/simulation';
import { cacheRoot, fixturesRoot } from './framework.js';
import { type CliIo, UsageError } from './io.js';

/** Package ids of the sample: the non-0x1/0x2/0x3 packages of both shared corpora. */
export const SAMPLE_PACKAGE_IDS: readonly string[] = [
  BRIDGE_ADDRESS,
  addressOfNumber(0xdee9),
  '0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb',
  '0x7f6b380dbf36236205615c64fcbb6c4e9454b76eff097dd6c6534f6d5070d17d',
  '0x826915f8ca6d11597dfe6599b8aa02a4c08bd8d39674855254a06ee83fe7220e',
  '0xb2345915de1f9bd661e9ab27eb27e376cdf6391359ea64fbfdb4550b092c1aa0',
  '0xc5b2a5049cd71586362d0c6a38e34cfaae7ea9ce6d5401a350506a15f817bf72',
  '0xc6faf3703b0e8ba9ed06b7851134bbbe7565eb35ff823fd78432baa4cbeaa12e',
  '0xca441b44943c16be0e6e23c5a955bb971537ea3289ae8016fbf33fffe1fd210f',
  '0x009c81fdeaa25afd71f78c22d0a8009aaaed145295cc6e09b6bf2260ac16de89',
  '0x00db9a10bb9536ab367b7d1ffa404c1d6c55f009076df1139dc108dd86608bbe',
  '0x02139a2e2ccb61caf776b76fbcef883bdfa6d2cbe0c2f1115a16cb8422b44da2',
  '0x0262fe1b9948defed706cc151bb568585936863afacb2f3af48fbdb9d69f4f0f',
  '0x033495b86d276fcf98695d1a8225242783ee26e232f547653a3412245f5ae4c3',
  '0x039e86009ea6075b6ad156a96fcc96ede476b823436a2d08542799be0062a04f',
  '0x03e88d43a310633152deef7d164dd4273eb2ce8b0ffc0d1ff597ab49fd88908d',
  '0x042d3eb2bf467b609bc8f4e1b6b44ffd9fa50b90379416b305777dc3cd56d49d',
  '0x06d1d1e6d69e0de9e7831d82c51725e2861c8357f45bb6c00b799382bffa7225',
  '0x0cb4bcc0560340eb1a1b929cabe56b33fc6449820ec8c1980d69bb98b649b802',
  '0x0cefa59cdde0de6e99842383caa80badfbf40476fabf203688bfb4a72510b37c',
  '0x33691f762a875e4c8d6e5908775454909ca170e3de3c6b87f6373c4de57eeab8',
  '0x34cc6762780f4f6f153c924c0680cfe2a1fb4601e7d33cc28a92297b62de1e0e',
  '0x4300c30fcd540a63992f72086861deecdbdf9d797d116e7186f66d51f32af226',
  '0x4330178feeb20e759e2f317f32cf9faf35c2bbf9e938556a19ce9bba883f7442',
  '0x434b5bd8f6a7b05fede0ff46c6e511d71ea326ed38056e3bcd681d2d7c2a7879',
  '0x506a6fc25f1c7d52ceb06ea44a3114c9380f8e2029b4356019822f248b49e411',
  '0x56d2bf0e2808c3771dd7187b6af84f88c4bb3709d0fd94eac659cd341e27dd2d',
  '0xa8e454fd9abc826b246995ff2c6aceb3ca7328e53da8efcd41586b31d41effb2',
  '0xba153169476e8c3114962261d1edc70de5ad9781b83cc617ecc8c1923191cae0',
  '0xca5fb99af8ee7f40da48ed782107b40c8d669f17b85c76d7af7aec856d430f34',
  '0xdb353cb79a88d5ee83b7c0ca0249662a1facab17ba62879080ea3d61b9d21112',
  '0xdb8fb909b48efd101083dd3eafd28f6a6dadad3bcbbab0479c88c7ad49ab6c46',
];

/** Where the sample's packages are, for benchmark-local. */
export interface SampleCorpus {
  /** `--target-corpus` roots. */
  targets: string[];
  /** `--corpus` roots (dependencies, not benchmarked). */
  corpus: string[];
  /** Only these packages of the targets are benchmarked (the fetched folder holds their dependencies too). */
  packageIds: readonly string[] | null;
  /** `fixtures` or `cache`. */
  origin: 'fixtures' | 'cache';
}

/**
 * The sample: the shared corpora when the fixtures are here; else the cache, fetched from the
 * node `source()` gives on first use (the framework too, when no framework is found).
 */
export async function sampleCorpus(io: CliIo, source: () => SuiDataSource, quiet: boolean): Promise<SampleCorpus> {
  const fixtures = fixturesRoot(io);
  if (fixtures !== undefined && ['corpus', 'corpus-mainnet', 'corpus-deps'].every((d) => existsSync(path.join(fixtures, d)))) {
    return { targets: [path.join(fixtures, 'corpus'), path.join(fixtures, 'corpus-mainnet')], corpus: [path.join(fixtures, 'corpus-deps')], packageIds: null, origin: 'fixtures' };
  }
  const cache = cacheRoot();
  const dir = path.join(cache, 'sample');
  const marker = path.join(dir, 'complete.json');
  const say = (line: string): void => {
    if (!quiet) io.stderr(`benchmark-local: ${line}\n`);
  };
  if (!existsSync(marker)) {
    const node = source();
    try {
      locateFramework(fixtures !== undefined ? { fixtures } : {});
    } catch {
      say(`no framework here: fetching it from ${node.endpoint} into ${cache} (once)`);
      const f = await fetchFramework(node, cache);
      say(`framework of protocol ${f.protocolVersion}: ${f.packages.length} packages, ${f.requests} requests`);
    }
    say(`fetching the sample corpus (${SAMPLE_PACKAGE_IDS.length} packages and what they link to) from ${node.endpoint} into ${dir} (once)`);
    const r = await fetchPackages(node, SAMPLE_PACKAGE_IDS, path.join(dir, 'packages'), {
      withDeps: true,
      ...(io.signal !== undefined ? { signal: io.signal } : {}),
      onEvent: (e) => {
        if (e.$kind === 'Failed') say(`${e.id}: ${e.code}: ${e.message}`);
      },
    });
    if (r.interrupted) throw new UsageError('the sample corpus was not fetched whole (interrupted): run again to go on', 'INTERRUPTED');
    if (r.failed.length > 0)
      throw new UsageError(
        `the sample corpus could not be fetched whole: ${r.failed.length} packages failed (first: ${r.failed[0]?.id}: ${r.failed[0]?.message}); run again to retry them`,
        'FETCH_FAILED',
      );
    say(`${r.fetched.length} packages fetched (${(r.bytes / 1024).toFixed(0)} KiB, ${r.requests} requests, ${r.seconds.toFixed(1)} s)`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(marker, `${JSON.stringify({ ids: SAMPLE_PACKAGE_IDS, endpoint: node.endpoint, fetched_at: new Date().toISOString() }, null, 2)}\n`);
  }
  return { targets: [path.join(dir, 'packages')], corpus: [], packageIds: SAMPLE_PACKAGE_IDS, origin: 'cache' };
}
