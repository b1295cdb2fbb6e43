import path from "node:path";
import type { ConfigProblem } from "./errors.js";
import { formatConfigPath } from "./config-path.js";
import { readIncludedFile, type IncludeRoots } from "./include-files.js";
import { parseJson5Text } from "./json5-text.js";
import { MAX_CONFIG_DEPTH } from "./limits.js";
import { deepMerge, defineOwn, isPlainObject } from "./merge.js";

/** Deepest allowed chain of nested `$include`s (main file -> 10 included files). */
export const MAX_INCLUDE_DEPTH = 10;

export const INCLUDE_KEY = "$include";

/**
 * A string leaf remembering the file it came from, so `${VAR}` errors can name that file after
 * the include tree has been merged. Class instances are scalars to `deepMerge`.
 */
export class SourcedString {
  constructor(
    readonly value: string,
    readonly file: string,
  ) {}
}

interface FileContext {
  /** File the node being resolved came from (shown in messages). */
  file: string;
  /** Folder its relative `$include` paths resolve against. */
  dir: string;
  /** Real paths of the include chain from the main file down to this file. */
  chain: string[];
}

interface Shared {
  roots: IncludeRoots;
  env: NodeJS.ProcessEnv;
  problems: ConfigProblem[];
}

/**
 * Expands every `$include` in `raw` (see `resolveConfigSource`) and wraps each string leaf in a
 * `SourcedString`. Problems are appended to `problems`; a failed include contributes nothing.
 */
export async function expandIncludes(
  raw: unknown,
  main: { file: string; real: string },
  roots: IncludeRoots,
  env: NodeJS.ProcessEnv,
  problems: ConfigProblem[],
): Promise<unknown> {
  const ctx: FileContext = { file: main.file, dir: path.dirname(main.file), chain: [main.real] };
  return expandNode(raw, [], ctx, { roots, env, problems });
}

async function expandNode(node: unknown, keyPath: (string | number)[], ctx: FileContext, shared: Shared): Promise<unknown> {
  if (typeof node === "string") return new SourcedString(node, ctx.file);
  if (Array.isArray(node)) {
    const out: unknown[] = [];
    for (let i = 0; i < node.length; i++) out.push(await expandNode(node[i], [...keyPath, i], ctx, shared));
    return out;
  }
  if (!isPlainObject(node)) return node;

  const siblings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key !== INCLUDE_KEY) defineOwn(siblings, key, await expandNode(value, [...keyPath, key], ctx, shared));
  }
  if (!Object.hasOwn(node, INCLUDE_KEY)) return siblings;

  const includePath = formatConfigPath([...keyPath, INCLUDE_KEY]);
  const specs = includeSpecs(node[INCLUDE_KEY]);
  if (!specs) {
    shared.problems.push({
      file: ctx.file,
      path: includePath,
      message: 'must be a file path or a list of file paths, e.g. "$include": "./channels.json5".',
    });
    return siblings;
  }
  const hasSiblings = Object.keys(siblings).length > 0;
  const parts: unknown[] = [];
  for (const spec of specs) {
    const included = await expandIncludedFile(spec, keyPath, includePath, ctx, shared);
    if (included === NOTHING) continue;
    if ((specs.length > 1 || hasSiblings) && !isPlainObject(included)) {
      shared.problems.push({
        file: ctx.file,
        path: includePath,
        message: `"${spec}" must contain an object to be merged with other includes or sibling keys.`,
      });
      continue;
    }
    parts.push(included);
  }
  if (!hasSiblings && specs.length === 1) return parts.length === 1 ? parts[0] : {};
  return [...parts, siblings].reduce<unknown>((acc, part) => deepMerge(acc, part), {});
}

const NOTHING = Symbol("nothing");

/** `a -> b -> c`, with paths inside the config folder shown relative to it. */
function describeChain(chain: readonly string[], configDir: string): string {
  return chain
    .map((p) => {
      const rel = path.relative(configDir, p);
      return rel.startsWith("..") || path.isAbsolute(rel) ? p : rel;
    })
    .join(" -> ");
}

function includeSpecs(value: unknown): string[] | undefined {
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  if (!list.every((s): s is string => typeof s === "string" && s.trim() !== "")) return undefined;
  return list;
}

async function expandIncludedFile(
  spec: string,
  keyPath: (string | number)[],
  includePath: string,
  ctx: FileContext,
  shared: Shared,
): Promise<unknown> {
  const fail = (message: string): typeof NOTHING => {
    shared.problems.push({ file: ctx.file, path: includePath, message: `"${spec}" ${message}` });
    return NOTHING;
  };
  const read = await readIncludedFile(spec, ctx.dir, shared.roots, shared.env);
  if (!read.ok) return fail(read.reason);
  if (ctx.chain.includes(read.real)) {
    return fail(
      `creates an include cycle: ${describeChain([...ctx.chain, read.real], shared.roots.realConfigDir)}. Remove one of these includes.`,
    );
  }
  if (ctx.chain.length > MAX_INCLUDE_DEPTH) {
    return fail(
      `nests includes deeper than ${MAX_INCLUDE_DEPTH} levels: ${describeChain([...ctx.chain, read.real], shared.roots.realConfigDir)}. ` +
        "Flatten the chain by including some of these files directly.",
    );
  }
  // The included file's top level sits where the `$include` object was, keyPath.length levels down.
  const maxDepth = Math.max(1, MAX_CONFIG_DEPTH - keyPath.length);
  const parsed = parseJson5Text(read.text, read.real, {
    maxDepth,
    ...(keyPath.length > 0
      ? {
          depthNote: `it is included at ${formatConfigPath(keyPath)}, so it may add at most ${maxDepth} of the ${MAX_CONFIG_DEPTH} levels a config may have`,
        }
      : {}),
  });
  if (!parsed.ok) {
    shared.problems.push({
      ...parsed.problem,
      message: `${parsed.problem.message}\n    (included from ${ctx.file} at ${includePath})`,
    });
    return NOTHING;
  }
  const child: FileContext = { file: read.real, dir: path.dirname(read.real), chain: [...ctx.chain, read.real] };
  return expandNode(parsed.value, keyPath, child, shared);
}
