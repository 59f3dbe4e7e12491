/**
 * The Phase II prompts: the original's planning prompt (`_build_real_agent_prompt`), retry
 * prompt (`_build_real_agent_retry_prompt`) and template prompt
 * (`_build_template_agent_prompt`), with their wording, plus the `need_more` tool offered to
 * servers that take tools. Changes from the original, each because a plan could not be
 * right without it: the argument kinds it accepted but never told the model about
 * (`result`, `nested_result`, `sender_sui_coin`, `gas_coin`, vectors), and the retry prompt
 * also carries the simulator's error (the original only ever sent harness errors back).
 */
import type { ToolSpec } from '../model/types.js';
import { type PyJson, pyDumps } from '../py-json.js';
import type { Json } from '@smi/bytecode';

const pyJson = (v: PyJson): string => pyDumps(v, 2);

/** The system message (the original's `complete_json`). */
export const PHASE2_SYSTEM = 'You are a careful assistant. Output only valid JSON.';

/** Version of the prompt text (part of a run's spec): bump it when the text changes. */
export const PHASE2_PROMPT_VERSION = 'phase2-v2';

const SCHEMA_LINE = '{"calls":[{"target":"0xADDR::module::function","type_args":["<TypeTag>",...],' + '"args":[{"u64":1},{"vector_u8_utf8":"hi"},{"imm_or_owned_object":"0xID"},...] }]}\n';

/** The argument kinds a plan may use (the original's rules, and the kinds it left unsaid). */
const ARG_RULES =
  "- Use 'imm_or_owned_object' for owned objects.\n" +
  '- Use \'shared_object\' for shared objects: {"shared_object": {"id": "0x...", "mutable": true}}\n' +
  "- Use 'pure' for BCS-encoded bytes (hex string).\n" +
  "- Supported primitive kinds: 'u8', 'u16', 'u32', 'u64', 'u128', 'u256', " +
  "'bool', 'address', 'vector_u8_utf8', 'vector_u8_hex'.\n" +
  "- Vectors: 'vector_u16', 'vector_u32', 'vector_u64', 'vector_u128', 'vector_u256', 'vector_bool', 'vector_address' (JSON arrays).\n" +
  '- Use the value an earlier call returned: {"result": i} (call i\'s only result) or {"nested_result": [i, j]} (its j-th result).\n' +
  '- Pay with your SUI: {"sender_sui_coin": {"index": 0, "exclude_gas": true}} (one of your Coin<SUI>), or {"gas_coin": true}.\n' +
  "- NEVER use arg kinds: 'input', 'string', 'object', 'object_id', 'hex', 'pure_u64' (unsupported).\n" +
  '- Do not include tx_context arguments (implicit).\n';

/** How the model asks for more of the interface. */
export type NeedMoreMode = 'tool' | 'json';

/** The planning prompt. */
export function planningPrompt(o: { packageId: string; targets: readonly string[]; interfaceSummary: string; inventorySummary: string; maxPlanningCalls: number; needMore: NeedMoreMode }): string {
  const needMore =
    o.needMore === 'tool'
      ? 'You may request more interface details if needed by calling the `need_more` tool with the functions you want to see.\n'
      : 'You may request more interface details if needed by returning ONLY this JSON object:\n' + '{"need_more":["0xADDR::module::function",...],"reason":"..."}\n';
  const instructions =
    'You are an expert Move developer crafting a Programmable Transaction Block (PTB) plan.\n' +
    'Your goal is to inhabit (create) as many of the following target types as possible:\n' +
    `${pyList(o.targets)}\n\n` +
    '### Available Functions in Package\n' +
    `${o.interfaceSummary}\n\n` +
    '### Your Inventory\n' +
    `${o.inventorySummary}\n\n` +
    '### Standard System Objects\n' +
    '- 0x6::clock::Clock (Shared)\n' +
    '- 0x8::random::Random (Shared)\n' +
    '- 0x403::deny_list::DenyList (Shared)\n\n' +
    '### PTB Schema Rules\n' +
    'Return ONLY valid JSON matching this schema:\n' +
    SCHEMA_LINE +
    ARG_RULES +
    '### Progressive Exposure (IMPORTANT)\n' +
    needMore +
    "- Use '0xADDR::module' to request all functions in a module.\n" +
    "- The 'init' function is private and cannot be called; do not request it.\n" +
    `You have at most ${o.maxPlanningCalls} planning calls total for this package; prefer succeeding in 1.\n` +
    'If you do not need more details, return ONLY a PTB JSON plan matching the schema.\n' +
    `CRITICAL: Do NOT ask natural-language questions. Output either a PTB plan OR a ${o.needMore === 'tool' ? 'need_more tool call' : 'need_more JSON object'}.\n`;
  return instructions + pyJson({ package_id: o.packageId, target_key_types: [...o.targets].sort() });
}

/** Python's `str(sorted(list_of_str))`. */
function pyList(items: readonly string[]): string {
  return `[${[...items]
    .sort()
    .map((s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`)
    .join(', ')}]`;
}

/**
 * What went wrong last time, as the original's `last_failure` (`harness_error`,
 * `dry_run_effects_error`), or a transaction that ran but missed targets.
 */
export type LastFailure = { harness_error: string } | { dry_run_effects_error: string } | { missing_targets: string[]; created_types: string[] };

/** The retry prompt (after a plan that failed, or a request that could not be served). */
export function retryPrompt(o: { packageId: string; targets: readonly string[]; lastFailure: LastFailure; interfaceSummary?: string; maxPlanningCalls?: number }): string {
  const f = o.lastFailure;
  const errorDetail =
    'harness_error' in f
      ? `The harness failed to parse your JSON or build the transaction: ${f.harness_error}\n`
      : 'dry_run_effects_error' in f
        ? `The transaction was built but failed on-chain simulation: ${f.dry_run_effects_error}\n`
        : `The transaction succeeded but did not create these target types: ${pyList(f.missing_targets)}\n`;
  const instructions =
    'Your previous PTB plan failed.\n' +
    errorDetail +
    '\nRevise the PTB plan to avoid the failure.\n' +
    (o.interfaceSummary ? '\n### Available Functions (Focused)\n' + o.interfaceSummary + '\n' : '') +
    (o.maxPlanningCalls !== undefined ? `You have at most ${o.maxPlanningCalls} planning calls total; prefer succeeding now.\n` : '') +
    'Return ONLY valid JSON matching this schema:\n' +
    '{"calls":[{"target":"0xADDR::module::function","type_args":["<TypeTag>",...],' +
    '"args":[{"u64":1},{"vector_u8_utf8":"hi"},...] }]}\n' +
    "Do NOT use arg kinds named 'object' or 'object_id' (unsupported).\n" +
    'Do not include tx_context arguments (they are implicit).\n' +
    'CRITICAL: Output a valid JSON plan attempt. Do NOT ask for clarification.\n';
  return instructions + pyJson({ package_id: o.packageId, target_key_types: [...o.targets].sort(), last_failure: o.lastFailure });
}

/** The template prompt: fill in the arguments of a baseline skeleton. */
export function templatePrompt(o: { packageId: string; targets: readonly string[]; calls: Json }): string {
  const instructions =
    'You are an expert Move developer. I have found a sequence of function calls ' +
    'that might create the following target objects: ' +
    `${pyList(o.targets)}\n\n` +
    "Your task is to provide VALID DATA VALUES for the 'args' in the JSON below.\n" +
    'Rules:\n' +
    "1. Return ONLY the 'calls' JSON array.\n" +
    "2. Do NOT change the 'target' or 'type_args'.\n" +
    '3. Replace any placeholder values with realistic data (e.g., sensible u64 amounts, valid string content).\n' +
    "4. If an argument is a result reference (e.g., {'result': 0}), keep it AS IS.\n" +
    "5. If an argument is a placeholder (e.g., {'$smi_placeholder': '...'}), try to find a system object " +
    'or keep it if you cannot (the runner will try to resolve it).\n';
  return instructions + pyJson({ package_id: o.packageId, skeleton_calls: o.calls });
}

/** The `need_more` tool. */
export const NEED_MORE_TOOL: ToolSpec = {
  name: 'need_more',
  description:
    'Show the full signatures of more functions before planning. Name functions as "0xADDR::module::function", or "0xADDR::module" for a whole module (the target package or a package it depends on).',
  parameters: {
    type: 'object',
    properties: {
      targets: { type: 'array', items: { type: 'string' }, description: 'Functions or modules to show' },
      reason: { type: 'string', description: 'Why you need them' },
    },
    required: ['targets'],
    additionalProperties: false,
  },
};
