/**
 * The `sandbox-exec` JSON protocol of the original sandbox, on a {@link SandboxSession}:
 * request parsing (zod), the 31 actions of the original and four new ones (`init_package`, `configure`, `create_checkpoint`, `restore_checkpoint`), the response envelope and its error categories.
 */
export { SandboxSession } from './session.js';
export type { SandboxSessionOptions } from './session.js';
export { parseRequest, RequestError, ACTION_SCHEMAS, SANDBOX_ACTIONS, describeIssues } from './request.js';
export type { SandboxAction, SandboxRequest, RequestOf } from './request.js';
export { SANDBOX_ERROR_CATEGORIES, responseJson, serializeResponse } from './protocol.js';
export type {
  SandboxResponse,
  SandboxErrorCategory,
  SandboxEffects,
  SandboxEvent,
  SandboxObjectEffect,
  SandboxReturnValues,
  SandboxFetched,
  SandboxFetchError,
} from './protocol.js';
export { MAX_FETCHES } from './fetching.js';
export { SandboxError, categoryOf } from './errors.js';
export { CheckpointError, DEFAULT_CHECKPOINT } from './checkpoints.js';
export { effectsJson, eventsJson } from './effects.js';
export type { PtbArgSpec, PtbInputSpec, PtbCommandSpec } from './ptb-request.js';
