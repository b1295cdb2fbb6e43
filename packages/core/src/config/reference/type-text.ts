import { isNode, resolveRef, type JsonSchemaNode } from "./json-schema-node.js";

/** Record keys are shown as this placeholder in paths and types. */
export const RECORD_KEY = "<id>";

const MAX_DEPTH = 12;

function alternativesOf(node: JsonSchemaNode): JsonSchemaNode[] | undefined {
  return node.anyOf ?? node.oneOf;
}

function unique(parts: string[]): string[] {
  return [...new Set(parts)];
}

/** Wraps a union in parentheses so that `[]` or `&` bind to all of it. */
function group(text: string): string {
  return text.includes(" | ") || text.includes(" & ") ? `(${text})` : text;
}

function scalarType(type: string, node: JsonSchemaNode, root: JsonSchemaNode, depth: number): string {
  switch (type) {
    case "string":
      if (node.format === "uri") return "URL";
      return node.format ? `string (${node.format})` : "string";
    case "array": {
      if (Array.isArray(node.prefixItems)) {
        return `[${node.prefixItems.map((n) => typeExpression(n, root, depth + 1)).join(", ")}]`;
      }
      if (Array.isArray(node.items)) return `[${node.items.map((n) => typeExpression(n, root, depth + 1)).join(", ")}]`;
      return isNode(node.items) ? `${group(typeExpression(node.items, root, depth + 1))}[]` : "any[]";
    }
    case "object":
      return objectType(node, root, depth);
    default:
      return type;
  }
}

function objectType(node: JsonSchemaNode, root: JsonSchemaNode, depth: number): string {
  if (node.properties && Object.keys(node.properties).length > 0) return "object";
  if (isNode(node.additionalProperties)) {
    return `{ ${RECORD_KEY}: ${typeExpression(node.additionalProperties, root, depth + 1)} }`;
  }
  return "object";
}

/**
 * A short, plain-text type for a schema node: `string`, `integer`, `"off" | "partial"`,
 * `string[]`, `{ <id>: object }`, `URL`, `any`. Unions (anyOf/oneOf) are joined with ` | `,
 * intersections (allOf) with ` & `. An unresolvable `$ref` is shown as `any`.
 */
export function typeExpression(input: JsonSchemaNode, root: JsonSchemaNode, depth = 0): string {
  const node = resolveRef(input, root);
  if (!node) return "any";
  if (depth > MAX_DEPTH) return "object";
  if (node.const !== undefined) return JSON.stringify(node.const);
  if (Array.isArray(node.enum)) return unique(node.enum.map((v) => JSON.stringify(v))).join(" | ");
  const alternatives = alternativesOf(node);
  if (alternatives && alternatives.length > 0) {
    return unique(alternatives.map((n) => typeExpression(n, root, depth + 1))).join(" | ");
  }
  if (node.allOf && node.allOf.length > 0) {
    return unique(node.allOf.map((n) => group(typeExpression(n, root, depth + 1)))).join(" & ");
  }
  if (Array.isArray(node.type)) {
    return unique(node.type.map((t) => scalarType(t, node, root, depth))).join(" | ");
  }
  if (typeof node.type === "string") return scalarType(node.type, node, root, depth);
  if (node.properties || node.additionalProperties !== undefined) return objectType(node, root, depth);
  return "any";
}

/** Largest integer zod writes as the implicit upper bound of `z.int()`; not worth showing. */
const IMPLICIT_MAX = Number.MAX_SAFE_INTEGER;

/**
 * Value constraints worth telling a user, as Markdown fragments: number bounds (`≥ 1`, `≤ 23`),
 * string length and pattern, list length, and the pattern record keys must match.
 */
export function constraintTexts(input: JsonSchemaNode, root: JsonSchemaNode, code: (text: string) => string): string[] {
  const node = resolveRef(input, root);
  if (!node) return [];
  const out: string[] = [];
  if (node.exclusiveMinimum !== undefined) out.push(`> ${node.exclusiveMinimum}`);
  else if (node.minimum !== undefined && node.minimum > -IMPLICIT_MAX) out.push(`≥ ${node.minimum}`);
  if (node.exclusiveMaximum !== undefined) out.push(`< ${node.exclusiveMaximum}`);
  else if (node.maximum !== undefined && node.maximum < IMPLICIT_MAX) out.push(`≤ ${node.maximum}`);
  if (node.minLength !== undefined && node.minLength > 1) out.push(`at least ${node.minLength} characters`);
  if (node.maxLength !== undefined) out.push(`at most ${node.maxLength} characters`);
  if (node.pattern !== undefined) out.push(`matching ${code(node.pattern)}`);
  if (node.minItems !== undefined && node.minItems > 0) out.push(`at least ${node.minItems} items`);
  if (node.maxItems !== undefined) out.push(`at most ${node.maxItems} items`);
  const keys = isNode(node.propertyNames) ? resolveRef(node.propertyNames, root) : undefined;
  if (keys?.pattern !== undefined) out.push(`keys matching ${code(keys.pattern)}`);
  return out;
}
