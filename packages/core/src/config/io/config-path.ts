import { UserError } from "../paths.js";
import { defineOwn, isPlainObject } from "./merge.js";

const SYNTAX_HELP =
  "Use dot-separated keys and [brackets] for list indexes or keys containing dots: " +
  'agents.defaults.model, bindings[0].agentId, agents.entries["my.agent"].model.';

const BARE_CHAR = /[^.[\]"'\s]/;
const BARE_SEGMENT = /^[^.[\]"'\s]+$/;
const INDEX = /^(0|[1-9]\d*)$/;

function syntaxError(input: string, pos: number, what: string): UserError {
  return new UserError(`Invalid config path "${input}" at character ${pos + 1}: ${what}. ${SYNTAX_HELP}`, 2);
}

/**
 * Splits a config path into keys. Bare keys are separated by `.` and may contain any character
 * except `.`, `[`, `]`, quotes and whitespace; `[0]` is a list index (returned as `"0"`);
 * `["my.agent"]` or `['my.agent']` is a quoted key (a backslash makes the next character literal).
 * Surrounding whitespace is ignored. Throws `UserError` (exit code 2) for invalid syntax.
 */
export function parseConfigPath(input: string): string[] {
  const text = input.trim();
  if (text === "") throw new UserError(`The config path is empty. ${SYNTAX_HELP}`, 2);
  const segments: string[] = [];
  let i = 0;
  let expectSegment = true; // at start or right after a "."
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "[") {
      const close = readBracket(text, i);
      segments.push(close.key);
      i = close.end;
      expectSegment = false;
      if (i < text.length && text[i] !== "." && text[i] !== "[") {
        throw syntaxError(text, i, `expected "." or "[" after "]"`);
      }
    } else if (ch === ".") {
      if (expectSegment) throw syntaxError(text, i, "empty key");
      expectSegment = true;
      i++;
    } else if (BARE_CHAR.test(ch)) {
      if (!expectSegment) throw syntaxError(text, i, `expected "." before "${ch}"`);
      let j = i;
      while (j < text.length && BARE_CHAR.test(text[j]!)) j++;
      segments.push(text.slice(i, j));
      i = j;
      expectSegment = false;
      if (i < text.length && text[i] !== "." && text[i] !== "[") {
        throw syntaxError(text, i, `unexpected ${JSON.stringify(text[i])}; quote keys with such characters in ["..."]`);
      }
    } else {
      throw syntaxError(text, i, `unexpected ${JSON.stringify(ch)}`);
    }
  }
  if (expectSegment) throw syntaxError(text, text.length - 1, "the path ends with a dot");
  return segments;
}

function readBracket(text: string, open: number): { key: string; end: number } {
  const quote = text[open + 1];
  if (quote === '"' || quote === "'") {
    let j = open + 2;
    let key = "";
    while (j < text.length && text[j] !== quote) {
      // A backslash makes the next character literal (\" \' \\).
      if (text[j] === "\\" && j + 1 < text.length) j++;
      key += text[j]!;
      j++;
    }
    if (j >= text.length) throw syntaxError(text, open, "unterminated quoted key");
    if (text[j + 1] !== "]") throw syntaxError(text, j + 1, `expected "]" after the quoted key`);
    if (key === "") throw syntaxError(text, open, "empty quoted key");
    return { key, end: j + 2 };
  }
  const close = text.indexOf("]", open);
  if (close < 0) throw syntaxError(text, open, 'missing "]"');
  const inner = text.slice(open + 1, close).trim();
  if (inner === "") throw syntaxError(text, open, "empty brackets");
  if (!INDEX.test(inner)) {
    throw syntaxError(text, open, `[${inner}] is neither a list index nor a quoted key; write ["${inner}"]`);
  }
  return { key: inner, end: close + 1 };
}

/**
 * Renders keys as a path that `parseConfigPath` reads back: numbers as `[0]`, plain keys
 * dotted, other keys as `["my.agent"]`.
 */
export function formatConfigPath(segments: readonly (string | number)[]): string {
  let out = "";
  for (const seg of segments) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (BARE_SEGMENT.test(seg)) out += out === "" ? seg : `.${seg}`;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

function arrayIndex(seg: string): number | undefined {
  return INDEX.test(seg) ? Number(seg) : undefined;
}

/** The value at `segments`, or `undefined` if any step is missing. Own properties only; numeric keys index arrays. */
export function getAtPath(obj: unknown, segments: readonly string[]): unknown {
  let node: unknown = obj;
  for (const seg of segments) {
    if (Array.isArray(node)) {
      const idx = arrayIndex(seg);
      if (idx === undefined || idx >= node.length) return undefined;
      node = node[idx];
    } else if (isPlainObject(node)) {
      if (!Object.hasOwn(node, seg)) return undefined;
      node = node[seg];
    } else {
      return undefined;
    }
  }
  return node;
}

/**
 * Sets the value at `segments`, MUTATING `obj` in place, and returns `obj`.
 * Missing intermediate steps are created as plain objects (also for numeric keys); on an existing
 * array a numeric key indexes it (index === length appends). Throws `UserError` when a step is a
 * scalar, a non-numeric key meets an array, or an index lies past the end of an array.
 */
export function setAtPath<T extends Record<string, unknown>>(obj: T, segments: readonly string[], value: unknown): T {
  if (segments.length === 0) throw new Error("setAtPath: empty path");
  let node: unknown = obj;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const last = i === segments.length - 1;
    const here = formatConfigPath(segments.slice(0, i));
    if (Array.isArray(node)) {
      const idx = arrayIndex(seg);
      if (idx === undefined) {
        throw new UserError(`${here} is a list; address its items by number, e.g. ${here}[0].`, 2);
      }
      if (idx > node.length) {
        throw new UserError(`${here} has ${node.length} item(s); use index ${node.length} to append, not ${idx}.`, 2);
      }
      if (last) node[idx] = value;
      else {
        if (node[idx] === undefined) node[idx] = {};
        node = node[idx];
      }
    } else if (isPlainObject(node)) {
      if (last) defineOwn(node, seg, value);
      else {
        if (!Object.hasOwn(node, seg) || node[seg] === undefined) defineOwn(node, seg, {});
        node = node[seg];
      }
    } else {
      throw new UserError(
        `Cannot set ${formatConfigPath(segments)}: ${here} is ${describe(node)}, not an object. Unset or replace ${here} first.`,
        2,
      );
    }
  }
  return obj;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return "a boolean";
  return typeof value;
}

/**
 * Removes the value at `segments`, MUTATING `obj` in place; an array item is spliced out.
 * Afterwards every parent object left empty by the removal is removed too, stopping at the root,
 * at arrays and at array items (so list indexes never shift). Returns false when nothing was at
 * that path.
 */
export function unsetAtPath(obj: Record<string, unknown>, segments: readonly string[]): boolean {
  if (segments.length === 0) throw new Error("unsetAtPath: empty path");
  const parents: unknown[] = [obj];
  for (const seg of segments.slice(0, -1)) {
    const next = getAtPath(parents[parents.length - 1], [seg]);
    if (next === undefined || next === null || typeof next !== "object") return false;
    parents.push(next);
  }
  const lastSeg = segments[segments.length - 1]!;
  if (!removeKey(parents[parents.length - 1], lastSeg)) return false;
  for (let i = parents.length - 1; i > 0; i--) {
    const node = parents[i];
    if (!isPlainObject(node) || Object.keys(node).length > 0 || Array.isArray(parents[i - 1])) break;
    removeKey(parents[i - 1], segments[i - 1]!);
  }
  return true;
}

function removeKey(container: unknown, seg: string): boolean {
  if (Array.isArray(container)) {
    const idx = arrayIndex(seg);
    if (idx === undefined || idx >= container.length) return false;
    container.splice(idx, 1);
    return true;
  }
  if (isPlainObject(container) && Object.hasOwn(container, seg)) {
    delete container[seg];
    return true;
  }
  return false;
}
