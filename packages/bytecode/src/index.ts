/**
 * @smi/bytecode: read, write, describe and build Sui Move bytecode.
 */
export * from './file-format.js';
export {
  MOVE_MAGIC,
  UNPUBLISHABLE_MAGIC,
  VERSION_MIN,
  VERSION_MAX,
  SUI_FLAVOR,
  TableKind,
  SerializedType,
  Limits,
  OPCODE,
  KIND_OF_OPCODE,
  SIMPLE_INSTRUCTION,
  PRIMITIVE_TOKEN,
  isSimpleKind,
} from './opcodes.js';
export {
  canonicalAddress,
  shortAddress,
  selfHandle,
  moduleName,
  moduleAddress,
  moduleHandleId,
  datatypeName,
  functionName,
  functionHandleOf,
  isSelfHandle,
  abilityNames,
  formatToken,
} from './module-access.js';
