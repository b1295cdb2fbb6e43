/**
 * The subset of JSON Schema (draft 2020-12, as written by zod 4's `z.toJSONSchema`) that the
 * configuration reference understands. Unknown members are ignored.
 */
export interface JsonSchemaNode {
  $ref?: string;
  $defs?: Record<string, JsonSchemaNode>;
  definitions?: Record<string, JsonSchemaNode>;
  title?: string;
  description?: string;
  default?: unknown;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  allOf?: JsonSchemaNode[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  additionalProperties?: JsonSchemaNode | boolean;
  propertyNames?: JsonSchemaNode;
  items?: JsonSchemaNode | JsonSchemaNode[];
  prefixItems?: JsonSchemaNode[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** True for a JSON Schema node written as an object (`true`/`false` schemas are not). */
export function isNode(value: unknown): value is JsonSchemaNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Follows local `$ref`s (`#/$defs/x`, `#/definitions/x`, `#`) against `root`. Returns the node
 * itself when it has no `$ref`, and `undefined` for a reference that cannot be resolved.
 * Sibling keywords of a `$ref` (e.g. a `description`) are kept and win over the target's.
 */
export function resolveRef(node: JsonSchemaNode, root: JsonSchemaNode): JsonSchemaNode | undefined {
  if (node.$ref === undefined) return node;
  if (!node.$ref.startsWith("#")) return undefined;
  let target: unknown = root;
  const pointer = node.$ref.slice(1);
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isNode(target)) return undefined;
    target = (target as Record<string, unknown>)[key];
  }
  if (!isNode(target)) return undefined;
  const { $ref: _ref, ...siblings } = node;
  return { ...target, ...siblings };
}
