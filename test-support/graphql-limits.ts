/**
 * What Sui's GraphQL service (sui-indexer-alt-graphql) checks before it runs a query, for the
 * fake: its scalars (`UInt53` is a JSON number in range, not a string; `SuiAddress` is `0x` and
 * up to 64 hex digits) and its query limits (nesting, nodes, page sizes), refused with the
 * service's codes and messages (`GRAPHQL_VALIDATION_FAILED`: "Query nesting is over 20",
 * "Query has over 300 nodes", "Page size is too large: 51 > 50").
 */
import { type DocumentNode, GraphQLError, type GraphQLScalarType, type GraphQLSchema, Kind, type SelectionSetNode } from 'graphql';

/** The service's default limits (its config's `max_query_depth`, `max_query_nodes`). */
export const QUERY_LIMITS = { maxQueryDepth: 20, maxQueryNodes: 300 } as const;

const invalidInput = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });

/** Give the schema's custom scalars the service's input checks. */
export function strictScalars(schema: GraphQLSchema): void {
  const uint53 = schema.getType('UInt53') as GraphQLScalarType | undefined;
  if (uint53) {
    const check = (v: unknown): number => {
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw invalidInput(`Invalid value for UInt53: ${JSON.stringify(v)} (expected a non-negative integer below 2^53)`);
      return v;
    };
    uint53.parseValue = check;
    uint53.coerceInputValue = check;
    uint53.parseLiteral = (node) => {
      if (node.kind !== Kind.INT) throw invalidInput('Invalid value for UInt53: expected an integer literal');
      return check(Number(node.value));
    };
    uint53.coerceInputLiteral = (node) => {
      if (node.kind !== Kind.INT) throw invalidInput('Invalid value for UInt53: expected an integer literal');
      return check(Number(node.value));
    };
  }
  const address = schema.getType('SuiAddress') as GraphQLScalarType | undefined;
  if (address) {
    const check = (v: unknown): string => {
      if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(v)) throw invalidInput(`Invalid value for SuiAddress: ${JSON.stringify(v)} (expected 0x and up to 64 hex digits)`);
      return v;
    };
    address.parseValue = check;
    address.coerceInputValue = check;
    address.parseLiteral = (node) => {
      if (node.kind !== Kind.STRING) throw invalidInput('Invalid value for SuiAddress: expected a string');
      return check(node.value);
    };
    address.coerceInputLiteral = (node) => {
      if (node.kind !== Kind.STRING) throw invalidInput('Invalid value for SuiAddress: expected a string');
      return check(node.value);
    };
  }
}

/** The query's deepest nesting and its number of field nodes (fragments inlined). */
function measure(document: DocumentNode): { depth: number; nodes: number } {
  const fragments = new Map<string, SelectionSetNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d.selectionSet);
  let nodes = 0;
  const walk = (set: SelectionSetNode, depth: number): number => {
    let deepest = depth;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        nodes++;
        deepest = Math.max(deepest, s.selectionSet ? walk(s.selectionSet, depth + 1) : depth + 1);
      } else if (s.kind === Kind.INLINE_FRAGMENT) deepest = Math.max(deepest, walk(s.selectionSet, depth));
      else {
        const f = fragments.get(s.name.value);
        if (f) deepest = Math.max(deepest, walk(f, depth));
      }
    }
    return deepest;
  };
  let depth = 0;
  for (const d of document.definitions) if (d.kind === Kind.OPERATION_DEFINITION) depth = Math.max(depth, walk(d.selectionSet, 0));
  return { depth, nodes };
}

/** The service's refusal of a query over its limits, or `null`. */
export function queryLimitError(document: DocumentNode): { message: string; extensions: { code: string } } | null {
  const { depth, nodes } = measure(document);
  if (depth > QUERY_LIMITS.maxQueryDepth) return { message: `Query nesting is over ${QUERY_LIMITS.maxQueryDepth}`, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } };
  if (nodes > QUERY_LIMITS.maxQueryNodes) return { message: `Query has over ${QUERY_LIMITS.maxQueryNodes} nodes`, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } };
  return null;
}

/** The service's refusal of a page larger than a connection allows. */
export function pageSizeError(actual: number, limit: number): GraphQLError {
  return new GraphQLError(`Page size is too large: ${actual} > ${limit}`, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
}
