import { isNode, resolveRef, type JsonSchemaNode } from "./json-schema-node.js";
import { RECORD_KEY } from "./type-text.js";

/** One documented key: its dotted path and the schema node that describes it. */
export interface SchemaEntry {
  /** Dotted path with `<id>` for record keys and `[]` for list items, e.g. `bindings[].match.channel`. */
  path: string;
  node: JsonSchemaNode;
  /** The parent object lists the key as required. */
  required: boolean;
}

interface Child {
  /** `.key`, `.<id>` or `[]`, appended to the parent path. */
  suffix: string;
  node: JsonSchemaNode;
  required: boolean;
}

const SIMPLE_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
const MAX_DEPTH = 32;

function keySuffix(key: string): string {
  return SIMPLE_KEY.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** Joins a parent path and a suffix; a root-level key has no leading dot. */
export function joinPath(parent: string, suffix: string): string {
  return parent === "" && suffix.startsWith(".") ? suffix.slice(1) : `${parent}${suffix}`;
}

/** Alternatives and parts whose keys show up at the same path as the node itself. */
function branches(node: JsonSchemaNode): JsonSchemaNode[] {
  return [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])];
}

/**
 * True when a node has keys of its own to document: an object with properties, or a record,
 * list or union that contains one. A record of strings or a list of strings is fully described
 * by its type and gets no rows below it.
 */
export function hasNestedKeys(input: JsonSchemaNode, root: JsonSchemaNode, depth = 0): boolean {
  const node = resolveRef(input, root);
  if (!node || depth > MAX_DEPTH) return false;
  if (node.properties && Object.keys(node.properties).length > 0) return true;
  if (isNode(node.additionalProperties) && hasNestedKeys(node.additionalProperties, root, depth + 1)) return true;
  if (isNode(node.items) && hasNestedKeys(node.items, root, depth + 1)) return true;
  return branches(node).some((b) => hasNestedKeys(b, root, depth + 1));
}

function childrenOf(input: JsonSchemaNode, root: JsonSchemaNode, depth: number): Child[] {
  const node = resolveRef(input, root);
  if (!node || depth > MAX_DEPTH) return [];
  const out: Child[] = [];
  const required = new Set(node.required ?? []);
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    if (isNode(child)) out.push({ suffix: keySuffix(key), node: child, required: required.has(key) });
  }
  if (isNode(node.additionalProperties) && hasNestedKeys(node.additionalProperties, root)) {
    out.push({ suffix: `.${RECORD_KEY}`, node: node.additionalProperties, required: false });
  }
  if (isNode(node.items) && hasNestedKeys(node.items, root)) {
    out.push({ suffix: "[]", node: node.items, required: false });
  }
  for (const branch of branches(node)) out.push(...childrenOf(branch, root, depth + 1));
  // The first branch that documents a key wins; later branches only add keys.
  const seen = new Set<string>();
  return out.filter((c) => (seen.has(c.suffix) ? false : (seen.add(c.suffix), true)));
}

/**
 * Every key below `node`, depth first in schema order: each key is followed by the keys nested
 * in it. `$ref` cycles stop after one visit of the referenced node.
 */
export function collectEntries(node: JsonSchemaNode, root: JsonSchemaNode, path = ""): SchemaEntry[] {
  const out: SchemaEntry[] = [];
  const walk = (current: JsonSchemaNode, currentPath: string, refs: readonly string[], depth: number) => {
    for (const child of childrenOf(current, root, 0)) {
      const childPath = joinPath(currentPath, child.suffix);
      out.push({ path: childPath, node: child.node, required: child.required });
      const ref = child.node.$ref;
      if (ref !== undefined && refs.includes(ref)) continue;
      if (depth >= MAX_DEPTH) continue;
      walk(child.node, childPath, ref === undefined ? refs : [...refs, ref], depth + 1);
    }
  };
  walk(node, path, [], 0);
  return out;
}
