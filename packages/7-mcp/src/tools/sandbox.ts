/**
 * `sandbox_request`: any request of the `smi sandbox-exec` JSON protocol, on this session's
 * simulation — the actions the other tools do not cover (encode_bcs, decode_bcs,
 * validate_type, register_coin, configure, reset, init_package, get_struct_info,
 * create_checkpoint / restore_checkpoint, ...). The action list in the description is
 * `SANDBOX_ACTIONS`, so new actions show up without a change here.
 * Its answer is the protocol's response envelope as it is (`success: false` included); only
 * a request that is not one (unknown action, bad parameters) is a tool error.
 */
import { SANDBOX_ACTIONS, sandboxResponseJson } from '@smi/simulation';
import { z } from 'zod';
import { sandboxError } from '../errors.js';
import { defineTool, type SmiTool } from '../tool.js';

export const sandboxRequest: SmiTool = defineTool({
  name: 'sandbox_request',
  title: 'Raw sandbox request',
  description:
    'Send one request of the `smi sandbox-exec` protocol ({"action": name, ...parameters}) to this session\'s simulation and get its response ' +
    '({"success", "error", "error_category", "data", "effects", "events", ...}) as it is. For what the other tools do not cover: ' +
    `${SANDBOX_ACTIONS.join(', ')} (see packages/4-simulation/README.md for the parameters of each).`,
  input: {
    request: z
      .object({ action: z.string().min(1).describe('The action') })
      .catchall(z.unknown())
      .describe('The request: {"action": "encode_bcs", "type_str": "u64", "value": 7}'),
  },
  mutates: true,
  run: async (session, args) => {
    const r = await session.request(args.request);
    if (r.error_category === 'ParseError') throw sandboxError(r);
    return sandboxResponseJson(r);
  },
});
