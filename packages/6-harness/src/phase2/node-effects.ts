/**
 * What a node's simulation of a plan says, read the way the local simulation reads its own:
 * the status from the effects BCS (V1 or V2), the failure's kind, abort code and location
 * (and a message in the form Sui's JSON-RPC gave, which the original's `dryrun.py` parsed),
 * and the created objects (ids from the effects; types from what the node reported beside
 * them, since V2 effects carry none).
 */
import { canonicalAddress } from '@smi/bytecode';
import { decodeBcs, type ExecutionFailureStatus, suiBcs } from '@smi/ptb';
import type { ChainSimulation } from '@smi/simulation';

/** A simulation, read. */
export interface SimulationReading {
  status: 'success' | 'failure';
  /** The `ExecutionFailureStatus` kind of a failure. */
  effectsError: string | null;
  /** The failure as text (`MoveAbort(MoveLocation { … }, 1) in command 0`). */
  error: string | null;
  abortCode: number | null;
  abortLocation: string | null;
  /** Types of the created objects (one per object, sorted). */
  createdTypes: string[];
  /** Created objects whose type the node did not report. */
  untypedCreated: string[];
}

type MoveAbort = [{ module: { address: string; name: string }; function: number; instruction: number; functionName: string | null }, bigint];

function jsonText(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
}

/** A failure as Sui's JSON-RPC wrote it (`status.error`). */
function failureText(error: ExecutionFailureStatus, command: bigint | null): string {
  const where = command === null ? '' : ` in command ${command}`;
  if (error.$kind === 'MoveAbort') {
    const [loc, code] = (error as { MoveAbort: MoveAbort }).MoveAbort;
    const fn = loc.functionName === null ? 'None' : `Some(${JSON.stringify(loc.functionName)})`;
    const address = canonicalAddress(loc.module.address).slice(2);
    return `MoveAbort(MoveLocation { module: ModuleId { address: ${address}, name: Identifier(${JSON.stringify(loc.module.name)}) }, function: ${loc.function}, instruction: ${loc.instruction}, function_name: ${fn} }, ${code})${where}`;
  }
  const payload = (error as Record<string, unknown>)[error.$kind];
  return `${error.$kind}${payload === true || payload === null ? '' : ` ${jsonText(payload)}`}${where}`;
}

/** Read a node's simulation. */
export function readSimulation(sim: ChainSimulation): SimulationReading {
  const effects = decodeBcs(suiBcs.TransactionEffects, sim.effectsBcs);
  const status = effects.$kind === 'V2' ? effects.V2.status : effects.V1.status;
  const createdIds =
    effects.$kind === 'V2'
      ? effects.V2.changedObjects.filter(([, c]) => c.idOperation.$kind === 'Created' && c.outputState.$kind === 'ObjectWrite').map(([id]) => canonicalAddress(id))
      : effects.V1.created.map(([ref]) => canonicalAddress(ref.objectId));
  const types = new Map((sim.createdObjects ?? []).map((o) => [canonicalAddress(o.id), o.type]));
  const createdTypes: string[] = [];
  const untypedCreated: string[] = [];
  for (const id of createdIds) {
    const type = types.get(id);
    if (type === undefined) untypedCreated.push(id);
    else createdTypes.push(type);
  }
  createdTypes.sort();
  if (status.$kind === 'Success') return { status: 'success', effectsError: null, error: null, abortCode: null, abortLocation: null, createdTypes, untypedCreated };
  const { error, command } = status.Failure;
  const abort = error.$kind === 'MoveAbort' ? (error as { MoveAbort: MoveAbort }).MoveAbort : null;
  return {
    status: 'failure',
    effectsError: error.$kind,
    error: failureText(error, command),
    abortCode: abort ? Number(abort[1]) : null,
    abortLocation: abort ? `${abort[0].module.address}::${abort[0].module.name}::${abort[0].functionName ?? '?'}` : null,
    // A failed transaction created nothing.
    createdTypes: [],
    untypedCreated: [],
  };
}
