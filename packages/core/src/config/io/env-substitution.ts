import type { ConfigProblem } from "./errors.js";
import { formatConfigPath } from "./config-path.js";
import { SourcedString } from "./includes.js";
import { defineOwn, isPlainObject } from "./merge.js";

/** `${VAR}` (group 2 = name) or the escape `$${VAR}` (group 1 = "$"). */
const REFERENCE = /(\$?)\$\{([A-Z_][A-Z0-9_]*)\}/g;

/** One `${VAR}` whose variable is unset or empty. */
export interface MissingVariable {
  name: string;
  path: string;
  file: string;
}

/**
 * Replaces `${VAR}` in one string with `env.VAR`; `$${VAR}` yields the literal `${VAR}`.
 * Only upper-case names (`[A-Z_][A-Z0-9_]*`) are references; anything else is left as written.
 * Returns the names referenced but unset or empty (the result then keeps those references as written).
 */
export function substituteString(text: string, env: NodeJS.ProcessEnv): { value: string; missing: string[] } {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (whole, escape: string, name: string) => {
    if (escape) return whole.slice(1);
    const replacement = env[name];
    if (replacement === undefined || replacement === "") {
      if (!missing.includes(name)) missing.push(name);
      return whole;
    }
    return replacement;
  });
  return { value, missing };
}

/**
 * Substitutes `${VAR}` in every string value of a tree produced by `expandIncludes` (object keys
 * are left alone) and unwraps `SourcedString`s. Plain strings are attributed to `defaultFile`.
 * Every unset or empty variable is appended to `missing`.
 */
export function substituteTree(
  node: unknown,
  env: NodeJS.ProcessEnv,
  defaultFile: string,
  missing: MissingVariable[],
  keyPath: (string | number)[] = [],
): unknown {
  if (node instanceof SourcedString || typeof node === "string") {
    const [text, file] = node instanceof SourcedString ? [node.value, node.file] : [node, defaultFile];
    const result = substituteString(text, env);
    for (const name of result.missing) missing.push({ name, path: formatConfigPath(keyPath), file });
    return result.value;
  }
  if (Array.isArray(node)) return node.map((item, i) => substituteTree(item, env, defaultFile, missing, [...keyPath, i]));
  if (isPlainObject(node)) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      defineOwn(out, key, substituteTree(value, env, defaultFile, missing, [...keyPath, key]));
    }
    return out;
  }
  return node;
}

/** Turns missing variables into problems whose message tells how to fix them. */
export function missingVariableProblems(missing: readonly MissingVariable[]): ConfigProblem[] {
  return missing.map((m) => ({
    file: m.file,
    path: m.path || "(root)",
    message:
      `environment variable ${m.name} is not set (or is empty). ` +
      `Set ${m.name} in the environment OpenClaw runs in, or write $\${${m.name}} for a literal "\${${m.name}}".`,
  }));
}
