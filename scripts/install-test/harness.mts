// @smi/harness: score a Phase I answer: the truth (every struct with `key`) from a corpus
// package's bytecode, a model's answer in prose with a JSON list, and its precision and recall.
import { loadPackageDir } from '@smi/bytecode';
import { extractKeyTypes, keyTypes, packageInterface, scoreKeyTypes } from '@smi/harness';
import { check, done, fixture, ORACLE_ID } from './fixtures.mjs';

const pkg = loadPackageDir(fixture('corpus', ORACLE_ID));
const truth = keyTypes(
  packageInterface(
    pkg.id,
    pkg.modules.map((m) => m.module),
  ),
);
check(truth.length > 0, 'the oracle declares key structs');
const answer = `The key structs are:\n\`\`\`json\n${JSON.stringify({ key_types: [truth[0], `${ORACLE_ID}::oracle::NotAStruct`] })}\n\`\`\``;
const extracted = extractKeyTypes(answer);
check(extracted.$kind === 'ok', 'the answer parses');
const score = scoreKeyTypes(truth, extracted.types);
check(score.tp === 1 && score.fp === 1 && score.fn === truth.length - 1, 'one right, one wrong, the rest missed');
done(`truth ${truth.length} key types; answer scored tp ${score.tp} fp ${score.fp} fn ${score.fn}, F1 ${score.f1.toFixed(3)}`);
