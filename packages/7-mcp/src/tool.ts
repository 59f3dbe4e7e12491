/**
 * How a tool is declared: a name, a description, a zod input shape (the trust boundary:
 * what `tools/list` advertises as JSON Schema and what arguments are checked against), and
 * a `run` that answers a JSON object or throws a {@link SmiToolError}. `call` turns all of
 * it into a `CallToolResult`: arguments checked, calls queued one at a time, the state file
 * saved after a tool that changes the state, and every failure a JSON error result.
 */
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { describeZodIssues } from '@smi/simulation';
import { z } from 'zod';
import { SmiToolError } from './errors.js';
import { errorResult, type JsonObject, okResult } from './results.js';
import type { SmiSession } from './session.js';
import { errorMessage } from '@smi/bytecode';

/** A tool as declared. */
export interface ToolSpec<S extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: S;
  /** The tool changes the simulation (the state file is saved after it). */
  mutates: boolean;
  run(session: SmiSession, args: z.output<z.ZodObject<S>>): Promise<JsonObject> | JsonObject;
}

/** A tool ready to register: its schema and a `call` that never throws. */
export interface SmiTool {
  name: string;
  title: string;
  description: string;
  schema: z.ZodObject<z.ZodRawShape>;
  annotations: ToolAnnotations;
  call(session: SmiSession, args: unknown): Promise<CallToolResult>;
}

/** Any thrown value as a tool error: ours keep their code; anything else is a bug (`INTERNAL`). */
function asToolError(e: unknown): SmiToolError {
  if (e instanceof SmiToolError) return e;
  return new SmiToolError('INTERNAL', `internal error: ${errorMessage(e)}`, { cause: e });
}

/** Declare a tool. */
export function defineTool<S extends z.ZodRawShape>(spec: ToolSpec<S>): SmiTool {
  const schema = z.object(spec.input);
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    schema,
    annotations: { title: spec.title, readOnlyHint: !spec.mutates, destructiveHint: false, idempotentHint: !spec.mutates, openWorldHint: false },
    async call(session, args) {
      const parsed = schema.safeParse(args ?? {});
      if (!parsed.success) return errorResult(new SmiToolError('INVALID_INPUT', `invalid arguments for ${spec.name}: ${describeZodIssues(parsed.error)}`));
      const started = performance.now();
      return session.exclusive(async () => {
        let result: CallToolResult;
        try {
          const value = await spec.run(session, parsed.data as z.output<z.ZodObject<S>>);
          const warning = spec.mutates ? session.persist() : null;
          result = okResult(warning === null ? value : { ...value, warnings: [warning] });
          session.log(`${spec.name}: ok (${Math.round(performance.now() - started)} ms)`);
        } catch (e) {
          if (spec.mutates) session.persist();
          const err = asToolError(e);
          if (err.code === 'INTERNAL') session.log(`${spec.name}: ${err.cause instanceof Error ? (err.cause.stack ?? err.message) : err.message}`, 'error');
          else session.log(`${spec.name}: ${err.code}: ${err.message}`);
          result = errorResult(err);
        }
        return result;
      });
    },
  };
}
