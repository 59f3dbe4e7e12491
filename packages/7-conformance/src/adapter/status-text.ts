/**
 * A transaction's failure in upstream's words: the `Display` of `ExecutionFailureStatus`
 * (what `Transaction Effects Status:` prints), its `Debug` (what dev-inspect, dry runs
 * and shared-object transactions print), and clever abort codes (`Move Abort in ... at
 * line N with clever code M`). Addresses are printed in full, to be stabilized.
 */
import type { CommandArgumentError, ExecutionFailureStatus, MoveLocation, PackageUpgradeError } from '@smi/ptb';

function locationDisplay(l: MoveLocation): string {
  const module = `${l.module.address}::${l.module.name}`;
  return l.functionName !== null
    ? `${module}::${l.functionName} (function index ${l.function}) at offset ${l.instruction}`
    : `${module} in function definition ${l.function} at offset ${l.instruction}`;
}

function commandArgumentDisplay(k: CommandArgumentError): string {
  switch (k.$kind) {
    case 'TypeMismatch':
      return 'The type of the value does not match the expected type';
    case 'InvalidBCSBytes':
      return 'The argument cannot be deserialized into a value of the specified type';
    case 'InvalidUsageOfPureArg':
      return 'The argument cannot be instantiated from raw bytes';
    case 'InvalidArgumentToPrivateEntryFunction':
      return 'Invalid argument to private entry function. These functions cannot take arguments from other Move functions';
    case 'IndexOutOfBounds':
      return `Out of bounds access to input or result vector ${k.IndexOutOfBounds.idx}`;
    case 'SecondaryIndexOutOfBounds':
      return `Out of bounds secondary access to result vector ${k.SecondaryIndexOutOfBounds.resultIdx} at secondary index ${k.SecondaryIndexOutOfBounds.secondaryIdx}`;
    case 'InvalidResultArity':
      return `Invalid usage of result ${k.InvalidResultArity.resultIdx}, expected a single result but found either no return values or multiple.`;
    case 'InvalidGasCoinUsage':
      return 'Invalid taking of the Gas coin. It can only be used by-value with TransferObjects';
    case 'InvalidValueUsage':
      return 'Invalid usage of value. Mutably borrowed values require unique usage. Immutably borrowed values cannot be taken or borrowed mutably. Taken values cannot be used again.';
    case 'InvalidObjectByValue':
      return 'Immutable objects cannot be passed by-value.';
    case 'InvalidObjectByMutRef':
      return 'Immutable objects cannot be passed by mutable reference, &mut.';
    case 'SharedObjectOperationNotAllowed':
      return 'Shared object operations such a wrapping, freezing, or converting to owned are not allowed.';
    case 'InvalidArgumentArity':
      return 'Invalid argument arity. Expected a single argument but found a result that expanded to multiple arguments.';
    case 'InvalidTransferObject':
      return 'Object passed to TransferObject does not have public transfer, i.e. the `store` ability';
    case 'InvalidMakeMoveVecNonObjectArgument':
      return 'First argument to MakeMoveVec is not an object. If no type is specified for MakeMoveVec, all arguments must be the same object type.';
    case 'ArgumentWithoutValue':
      return 'Specified argument location does not have a value and cannot be used';
    case 'CannotMoveBorrowedValue':
      return "Cannot move a borrowed value. The value's type does resulted in this argument usage being inferred as a move. This is likely due to the type not having the `copy` ability; although in rare cases, it could also be this is the last usage of a value without the `drop` ability.";
    case 'CannotWriteToExtendedReference':
      return 'Cannot write to an argument location that is still borrowed, and where that borrow is an extension of that reference. This is likely due to this argument being used in a Move call that returns a reference, and that reference is used in a later command.';
    case 'InvalidReferenceArgument':
      return 'The argument specified cannot be used as a reference argument in the Move call. Either the argument is a mutable reference and it conflicts with another argument to the call, or the argument is mutable and another reference extends it and will be used in a later command.';
    case 'InvalidTxContext':
      return 'Invalid usage of TxContext in the function signature. TxContext can only be used by reference, `&TxContext` or `&mut TxContext`. If used mutably, it must be the only TxContext parameter, and TxContext can never be returned from a Move call.';
  }
}

function upgradeDisplay(u: PackageUpgradeError): string {
  switch (u.$kind) {
    case 'UnableToFetchPackage':
      return `Unable to fetch package at ${u.UnableToFetchPackage.packageId}`;
    case 'NotAPackage':
      return `Object ${u.NotAPackage.objectId} is not a package`;
    case 'IncompatibleUpgrade':
      return 'New package is incompatible with previous version';
    case 'DigestDoesNotMatch':
      return 'Digest in upgrade ticket and computed digest disagree';
    case 'UnknownUpgradePolicy':
      return `Upgrade policy ${u.UnknownUpgradePolicy.policy} is not a valid upgrade policy`;
    case 'PackageIDDoesNotMatch':
      return `Package ID ${u.PackageIDDoesNotMatch.packageId} does not match package ID in upgrade ticket ${u.PackageIDDoesNotMatch.ticketId}`;
  }
}

/** Clever abort code parts (upstream `ErrorBitset`), or `null` for a plain code. */
function cleverCode(code: bigint): { line: number; errorCode: number | null } | null {
  const version = Number((code >> 60n) & 0xfn);
  if (version !== 0b1000 && version !== 0b1100) return null;
  const errorCode = Number((code >> 48n) & 0xffn);
  const line = Number((code >> 32n) & 0xffffn);
  return { line, errorCode: version === 0b1000 || errorCode === 0xff ? null : errorCode };
}

/** `Display` of a failure status. */
export function statusDisplay(s: ExecutionFailureStatus): string {
  switch (s.$kind) {
    case 'InsufficientGas':
      return 'Insufficient Gas.';
    case 'InvalidGasObject':
      return 'Invalid Gas Object. Possibly not address-owned or possibly not a SUI coin.';
    case 'InvariantViolation':
      return 'INVARIANT VIOLATION.';
    case 'FeatureNotYetSupported':
      return 'Attempted to used feature that is not supported yet';
    case 'MoveObjectTooBig':
      return `Move object with size ${s.MoveObjectTooBig.objectSize} is larger than the maximum object size ${s.MoveObjectTooBig.maxObjectSize}`;
    case 'MovePackageTooBig':
      return `Move package with size ${s.MovePackageTooBig.objectSize} is larger than the maximum object size ${s.MovePackageTooBig.maxObjectSize}`;
    case 'CircularObjectOwnership':
      return `Circular Object Ownership, including object ${s.CircularObjectOwnership.object}.`;
    case 'InsufficientCoinBalance':
      return 'Insufficient coin balance for operation.';
    case 'CoinBalanceOverflow':
      return 'The coin balance overflows u64';
    case 'PublishErrorNonZeroAddress':
      return 'Publish Error, Non-zero Address. The modules in the package must have their self-addresses set to zero.';
    case 'SuiMoveVerificationError':
      return 'Sui Move Bytecode Verification Error. Please run the Sui Move Verifier for more information.';
    case 'MovePrimitiveRuntimeError':
      return `Move Primitive Runtime Error. Location: ${s.MovePrimitiveRuntimeError === null ? 'UNKNOWN' : locationDisplay(s.MovePrimitiveRuntimeError)}. Arithmetic error, stack overflow, max value depth, etc.`;
    case 'MoveAbort': {
      const [loc, code] = s.MoveAbort;
      const clever = cleverCode(code);
      if (clever !== null) {
        const tail = clever.errorCode === null ? `at line ${clever.line}` : `at line ${clever.line} with clever code ${clever.errorCode}`;
        return `Move Abort in ${locationDisplay(loc)} ${tail}`;
      }
      return `Move Runtime Abort. Location: ${locationDisplay(loc)}, Abort Code: ${code}`;
    }
    case 'VMVerificationOrDeserializationError':
      return 'Move Bytecode Verification Error. Please run the Bytecode Verifier for more information.';
    case 'VMInvariantViolation':
      return 'MOVE VM INVARIANT VIOLATION.';
    case 'FunctionNotFound':
      return 'Function Not Found.';
    case 'ArityMismatch':
      return 'Arity mismatch for Move function. The number of arguments does not match the number of parameters';
    case 'TypeArityMismatch':
      return 'Type arity mismatch for Move function. Mismatch between the number of actual versus expected type arguments.';
    case 'NonEntryFunctionInvoked':
      return 'Non Entry Function Invoked. Move Call must start with an entry function';
    case 'CommandArgumentError':
      return `Invalid command argument at ${s.CommandArgumentError.argIdx}. ${commandArgumentDisplay(s.CommandArgumentError.kind)}`;
    case 'TypeArgumentError': {
      const k = s.TypeArgumentError.kind.$kind === 'TypeNotFound' ? 'A type was not found in the module specified.' : 'A type provided did not match the specified constraints.';
      return `Error for type argument at index ${s.TypeArgumentError.argumentIdx}: ${k}`;
    }
    case 'UnusedValueWithoutDrop':
      return `Unused result without the drop ability. Command result ${s.UnusedValueWithoutDrop.resultIdx}, return value ${s.UnusedValueWithoutDrop.secondaryIdx}`;
    case 'InvalidPublicFunctionReturnType':
      return `Invalid public Move function signature. Unsupported return type for return value ${s.InvalidPublicFunctionReturnType.idx}`;
    case 'InvalidTransferObject':
      return 'Invalid Transfer Object, object does not have public transfer.';
    case 'EffectsTooLarge':
      return `Effects of size ${s.EffectsTooLarge.currentSize} bytes too large. Limit is ${s.EffectsTooLarge.maxSize} bytes`;
    case 'PublishUpgradeMissingDependency':
      return 'Publish/Upgrade Error, Missing dependency. A dependency of a published or upgraded package has not been assigned an on-chain address.';
    case 'PublishUpgradeDependencyDowngrade':
      return "Publish/Upgrade Error, Dependency downgrade. Indirect (transitive) dependency of published or upgraded package has been assigned an on-chain version that is less than the version required by one of the package's transitive dependencies.";
    case 'PackageUpgradeError':
      return `Invalid package upgrade. ${upgradeDisplay(s.PackageUpgradeError.upgradeError)}`;
    case 'WrittenObjectsTooLarge':
      return `Written objects of ${s.WrittenObjectsTooLarge.currentSize} bytes too large. Limit is ${s.WrittenObjectsTooLarge.maxSize} bytes`;
    case 'CertificateDenied':
      return 'Certificate is on the deny list';
    case 'SuiMoveVerificationTimedout':
      return 'Sui Move Bytecode Verification Timeout. Please run the Sui Move Verifier for more information.';
    case 'SharedObjectOperationNotAllowed':
      return 'The shared object operation is not allowed.';
    case 'InputObjectDeleted':
      return 'Certificate cannot be executed due to a dependency on a deleted shared object or an object that was transferred out of consensus';
    case 'ExecutionCancelledDueToSharedObjectCongestion':
      return `Certificate is cancelled due to congestion on shared objects: ${s.ExecutionCancelledDueToSharedObjectCongestion.congestedObjects.map((o) => `${o}, `).join('')}`;
    case 'AddressDeniedForCoin':
      return `Address ${s.AddressDeniedForCoin.address} is denied for coin ${s.AddressDeniedForCoin.coinType}`;
    case 'CoinTypeGlobalPause':
      return `Coin type is globally paused for use: ${s.CoinTypeGlobalPause.coinType}`;
    case 'ExecutionCancelledDueToRandomnessUnavailable':
      return 'Certificate is cancelled because randomness could not be generated this epoch';
    case 'MoveVectorElemTooBig':
      return `Move vector element (passed to MakeMoveVec) with size ${s.MoveVectorElemTooBig.valueSize} is larger than the maximum size ${s.MoveVectorElemTooBig.maxScaledSize}. Note that this maximum is scaled based on the type of the vector element.`;
    case 'MoveRawValueTooBig':
      return `Move value (possibly an upgrade ticket or a dev-inspect value) with size ${s.MoveRawValueTooBig.valueSize} is larger than the maximum size  ${s.MoveRawValueTooBig.maxScaledSize}. Note that this maximum is scaled based on the type of the value.`;
    case 'InvalidLinkage':
      return 'A valid linkage was unable to be determined for the transaction';
    case 'InsufficientFundsForWithdraw':
      return 'Insufficient funds for funds accumulator withdrawal';
    case 'NonExclusiveWriteInputObjectModified':
      return `Non-exclusive write input object ${s.NonExclusiveWriteInputObjectModified.id} has been modified`;
  }
}

function locationDebug(l: MoveLocation): string {
  const fname = l.functionName === null ? 'None' : `Some("${l.functionName}")`;
  return `MoveLocation { module: ModuleId { address: ${l.module.address}, name: Identifier("${l.module.name}") }, function: ${l.function}, instruction: ${l.instruction}, function_name: ${fname} }`;
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Debug of a `{ $kind, [kind]: payload }` enum value whose payload is a plain struct or `true`. */
function enumDebug(kind: string, payload: unknown): string {
  if (payload === true || payload === undefined) return kind;
  if (typeof payload !== 'object' || payload === null) return `${kind}(${String(payload)})`;
  const fields = Object.entries(payload as Record<string, unknown>).map(([k, v]) => {
    let text: string;
    if (v !== null && typeof v === 'object' && '$kind' in v) {
      const inner = v as { $kind: string } & Record<string, unknown>;
      text = enumDebug(inner.$kind, inner[inner.$kind]);
    } else if (v instanceof Uint8Array) text = `[${[...v].join(', ')}]`;
    else if (Array.isArray(v)) text = `[${v.map(String).join(', ')}]`;
    else if (typeof v === 'string' && !/^0x[0-9a-f]{64}$/.test(v)) text = JSON.stringify(v);
    else text = String(v);
    return `${snake(k)}: ${text}`;
  });
  return `${kind} { ${fields.join(', ')} }`;
}

/** `Debug` of a failure status. */
export function statusDebug(s: ExecutionFailureStatus): string {
  switch (s.$kind) {
    case 'MoveAbort':
      return `MoveAbort(${locationDebug(s.MoveAbort[0])}, ${s.MoveAbort[1]})`;
    case 'MovePrimitiveRuntimeError':
      return `MovePrimitiveRuntimeError(MoveLocationOpt(${s.MovePrimitiveRuntimeError === null ? 'None' : `Some(${locationDebug(s.MovePrimitiveRuntimeError)})`}))`;
    default: {
      const payload = (s as unknown as Record<string, unknown>)[s.$kind];
      return enumDebug(s.$kind, payload);
    }
  }
}
