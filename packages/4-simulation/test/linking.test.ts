import { expect, it } from 'vitest';
import { fromFixtures, loadCorpus, mergePackages, SandboxSession, SimulationEnvironment, SimulationEnvironmentError } from '@smi/simulation';
import { describeWithFixtures, fixturePath, FIXTURES_ROOT } from '../../../test-support/fixtures.js';

/**
 * Cetus CLMM v1 without its dependencies (integer_mate 0x714a63a0…, move_stl 0xbe21a061…):
 * `tick_math` uses integer_mate; `config` uses `acl`, which uses move_stl; `utils` uses only
 * the framework.
 */
const CETUS = '0x1eabed72c53feb3805120a081dc15963c204dc8d091542592abaf7a35689b2fb';
const INTEGER_MATE = '0x714a63a0dba6da4f017b42d5d0fb78867f18bcde904868e51d951a5a6f5b7f57';
const MOVE_STL = '0xbe21a06129308e0495431d12286127897aff07a8ade3970495a4404d97f9eaaa';

describeWithFixtures('eager linking: a module runs only with its whole dependency closure', ['corpus-deps'], () => {
  const { packages: framework, protocolConfig } = fromFixtures(FIXTURES_ROOT);
  const cetus = loadCorpus(fixturePath('corpus')).filter((p) => p.id === CETUS);
  const packages = mergePackages(framework, cetus);
  const env = SimulationEnvironment.create({ packages, protocolConfig });

  function linkError(target: string, args: unknown[] = []): SimulationEnvironmentError {
    try {
      env.call(target, args as never);
    } catch (e) {
      if (e instanceof SimulationEnvironmentError) return e;
      throw e;
    }
    throw new Error(`${target} ran`);
  }

  it('no function of a module whose dependency is missing runs, not even one that never reaches it', () => {
    // `max_sqrt_price` returns a constant; its module uses integer_mate elsewhere.
    const e = linkError(`${CETUS}::tick_math::max_sqrt_price`);
    expect(e.code).toBe('MISSING_PACKAGE');
    expect(e.message).toContain(`cannot link ${CETUS}::tick_math`);
    expect(e.message).toContain(`package ${INTEGER_MATE} is not loaded`);
    expect(e.message).toContain(`used by ${CETUS}::tick_math`);
  });

  it('the closure is transitive: config needs acl, which needs move_stl', () => {
    const e = linkError(`${CETUS}::config::max_fee_rate`);
    expect(e.message).toContain(`cannot link ${CETUS}::config`);
    expect(e.message).toContain(`package ${MOVE_STL} is not loaded (module ${MOVE_STL}::linked_table, used by ${CETUS}::acl)`);
  });

  it('a module of the same package whose closure is complete still runs', () => {
    const r = env.call(`${CETUS}::utils::str`, ['1234']);
    expect(r.transaction.status).toEqual({ $kind: 'Success' });
    expect(r.returnValues[0].value).toBe('1234');
  });

  it('with the dependencies loaded, the same function runs', () => {
    const full = SimulationEnvironment.create({ packages: mergePackages(framework, [...cetus, ...loadCorpus(fixturePath('corpus-deps'))]), protocolConfig });
    const r = full.call(`${CETUS}::tick_math::max_sqrt_price`);
    expect(r.transaction.status).toEqual({ $kind: 'Success' });
    expect(r.returnValues[0].value).toBe('79226673515401279992447579055');
  });

  it('sandbox: call_function, execute_ptb and init_package fail as MissingPackage, naming the missing module', async () => {
    const s = SandboxSession.create({ packages, protocolConfig });
    const call = await s.handle({ action: 'call_function', package: CETUS, module: 'tick_math', function: 'max_sqrt_price' });
    expect(call).toMatchObject({ success: false, error_category: 'MissingPackage' });
    expect(call.error).toContain(`${INTEGER_MATE}::`);
    expect(call.error).toContain(`used by ${CETUS}::tick_math`);
    const ptb = await s.handle({ action: 'execute_ptb', inputs: [], commands: [{ type: 'move_call', package: CETUS, module: 'tick_math', function: 'max_sqrt_price' }] });
    expect(ptb).toMatchObject({ success: false, error_category: 'MissingPackage' });
    expect(ptb.error).toContain(`package ${INTEGER_MATE} is not loaded`);
    const init = await s.handle({ action: 'init_package', package: CETUS, modules: ['partner'] });
    expect(init).toMatchObject({ success: false, error_category: 'MissingPackage' });
    expect(init.error).toContain(`package ${MOVE_STL} is not loaded`);
    const ok = await s.handle({ action: 'call_function', package: CETUS, module: 'utils', function: 'str', args: ['7'] });
    expect(ok.success).toBe(true);
  });

  it('the executor itself fails an init whose module does not link, naming the missing module', () => {
    const out = env.execute({ inputs: [], commands: [] }, { runInitsOf: { package: CETUS, modules: ['partner'] } });
    expect(out.status.$kind).toBe('Failure');
    if (out.status.$kind === 'Failure') {
      expect(out.status.error.$kind).toBe('FunctionNotFound');
      expect(out.status.message).toContain(`package ${MOVE_STL} is not loaded (module ${MOVE_STL}::linked_table, used by ${CETUS}::acl)`);
    }
  });
});
