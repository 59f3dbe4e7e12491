/**
 * @smi/move-ir: the Move IR (`.mvir`) lexer, parser and assembler, producing
 * `CompiledModule`s exactly as the upstream IR compiler does, and a runner for the
 * upstream IR transactional test format.
 */
export { Lexer } from './lexer.js';
export type { Tok, Loc } from './lexer.js';
export { parseModule } from './parser.js';
export type { ParseOptions } from './parser.js';
export type {
  AbilityName,
  BinaryOperator,
  Block,
  BuiltinName,
  ConstantDefinition,
  ConstantValue,
  CopyableValue,
  DatatypeTypeParameter,
  EnumDefinition,
  Exp,
  FieldBinding,
  FieldDecl,
  FieldExp,
  FunctionBody,
  FunctionCall,
  FunctionDefinition,
  FunctionTypeParameter,
  FunctionVisibility,
  ImportDefinition,
  LValue,
  ModuleDefinition,
  ModuleIdent,
  Statement,
  StructDefinition,
  Type,
  UnpackType,
  Var,
  VariantDefinition,
} from './ast.js';
export { assembleModule, compileIrModule, serializeAssembled } from './assembler.js';
export type { AssembleOptions, AssembledModule, CompileOptions, CompiledIrModule, Dependencies } from './assembler.js';
export { encodeConstantValue } from './constants.js';
export { MoveIrError, IrParseError, IrCompileError, IrSerializeError, TaskError, isMoveIrError } from './errors.js';
export type { MoveIrErrorCode } from './errors.js';
export {
  parseTransactionalTestFile,
  renderTranscript,
  taskLineRange,
  parseSnapshot,
  compareWithSnapshot,
} from './transactional.js';
export type { TransactionalTask, TaskOutcome, SnapshotTask, ParsedSnapshot, TaskComparison } from './transactional.js';
export { IrTestAdapter, runTransactionalTestFile, checkAgainstSnapshot } from './runner.js';
export type { IrTestOptions, TransactionalRun, AdapterFactory, SnapshotCheck } from './runner.js';
