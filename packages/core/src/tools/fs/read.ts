import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { addAbortSignal } from "node:stream";
import { z } from "zod";
import { defineTool, ToolError } from "../../tool-contract/index.js";
import type { AgentTool, ToolResult } from "../../tool-contract/index.js";
import { resolveToolPath } from "../tool-path.js";
import { checkAborted, openRegularFile, readRegularFile } from "./regular-file.js";
import { formatBytes, looksBinary, sniffHandle } from "./text-file.js";

/** Lines returned when the call gives no limit. */
export const READ_DEFAULT_LIMIT = 2000;
/** Most characters one read returns; the rest is left for a follow-up call with an offset. */
export const READ_MAX_CHARS = 100_000;

const schema = z.strictObject({
  path: z.string().min(1).describe("File path relative to the workspace."),
  offset: z.int().min(1).optional().describe("First line to return, 1-based (default 1)."),
  limit: z.int().min(1).optional().describe(`Number of lines to return (default ${READ_DEFAULT_LIMIT}).`),
});

type ReadArgs = z.output<typeof schema>;

interface Window {
  lines: string[];
  first: number;
  last: number;
  chars: number;
  moreFollow: boolean;
  lineCut: boolean;
  totalLines: number;
}

async function readWindow(handle: FileHandle, offset: number, limit: number, maxChars: number, signal: AbortSignal): Promise<Window> {
  checkAborted(signal);
  const stream = addAbortSignal(signal, handle.createReadStream({ encoding: "utf8", start: 0, autoClose: false }));
  const rl = createInterface({ input: stream, crlfDelay: Infinity });
  const out: Window = { lines: [], first: offset, last: offset - 1, chars: 0, moreFollow: false, lineCut: false, totalLines: 0 };
  try {
    for await (const line of rl) {
      out.totalLines++;
      const n = out.totalLines;
      if (n < offset) continue;
      if (out.lines.length >= limit || out.chars >= maxChars) {
        out.moreFollow = true;
        break;
      }
      let text = line;
      const room = maxChars - out.chars;
      if (text.length > room) {
        if (out.lines.length > 0) {
          out.moreFollow = true;
          break;
        }
        text = text.slice(0, room);
        out.lineCut = true;
      }
      out.lines.push(text);
      out.chars += text.length + 1;
      out.last = n;
    }
  } finally {
    rl.close();
    stream.destroy();
  }
  return out;
}

/** A listed skill file (absolute, or with `~/`), or undefined. */
function resolveSkillFile(userPath: string, readable: ReadonlyMap<string, string> | undefined): string | undefined {
  if (!readable || readable.size === 0) return undefined;
  const exact = readable.get(userPath.trim());
  if (exact) return exact;
  return path.isAbsolute(userPath) ? readable.get(path.resolve(userPath)) : undefined;
}

/** Reads a skill's SKILL.md, with `{baseDir}` replaced by the skill's folder. */
async function readSkillFile(file: string, display: string, offset: number, limit: number, signal: AbortSignal) {
  const raw = await readRegularFile(file, { display, tool: "read", signal });
  const text = raw.toString("utf8").split("{baseDir}").join(path.dirname(file));
  const lines = text.split("\n");
  const window = lines.slice(offset - 1, offset - 1 + limit);
  const more = offset - 1 + limit < lines.length;
  return {
    content:
      window.join("\n") + (more ? `\n[… ${lines.length - (offset - 1 + limit)} more lines; read again with offset ${offset + limit}]` : ""),
    details: { path: file, skill: true },
  };
}

/** The `read` tool: a text file from the workspace, optionally a window of lines. */
export function createReadTool(): AgentTool {
  return defineTool({
    name: "read",
    groups: ["group:fs"],
    description:
      `Read a text file from the workspace. Returns up to ${READ_DEFAULT_LIMIT} lines or ${READ_MAX_CHARS} characters; ` +
      "when more follow, a notice says which offset to pass next. Binary files are refused.",
    schema,
    async run(args, ctx) {
      const skillFile = resolveSkillFile(args.path, ctx.readableFiles);
      if (skillFile) return readSkillFile(skillFile, args.path, args.offset ?? 1, args.limit ?? READ_DEFAULT_LIMIT, ctx.signal);
      const target = resolveToolPath(ctx, args.path, { mustExist: true });
      if (target.isDirectory) {
        throw new ToolError(`"${args.path}" is a directory, not a file. List it with exec (e.g. "ls ${target.relative}").`);
      }
      const { handle, stats } = await openRegularFile(target.path, {
        display: args.path,
        tool: "read",
        signal: ctx.signal,
        noFollow: true,
      });
      try {
        return await readOpenFile(handle, stats.size, target.relative, args, ctx.signal);
      } finally {
        await handle.close();
      }
    },
  });
}

/** The window of lines `args` asks for, from a regular file already open. */
async function readOpenFile(handle: FileHandle, size: number, relative: string, args: ReadArgs, signal: AbortSignal): Promise<ToolResult> {
  if (looksBinary(await sniffHandle(handle))) {
    throw new ToolError(
      `"${args.path}" looks like a binary file (${formatBytes(size)}); read only handles text. Inspect it with exec (e.g. "file ${relative}").`,
      { path: relative, size },
    );
  }
  const offset = args.offset ?? 1;
  const limit = args.limit ?? READ_DEFAULT_LIMIT;
  const win = await readWindow(handle, offset, limit, READ_MAX_CHARS, signal);
  const details = { path: relative, size, firstLine: win.first, lastLine: win.last, truncated: win.moreFollow || win.lineCut };
  if (win.totalLines === 0) return { content: "", details: { ...details, empty: true } };
  if (win.lines.length === 0) {
    throw new ToolError(`offset ${offset} is past the end of "${args.path}" (${win.totalLines} lines).`, details);
  }
  let content = win.lines.join("\n");
  if (win.lineCut) {
    content += `\n\n[Line ${win.first} is longer than ${READ_MAX_CHARS} characters and was cut; use exec (e.g. "cut -c ${READ_MAX_CHARS + 1}- ${relative}") for the rest.${win.moreFollow ? ` Call read with offset=${win.last + 1} for the next lines.` : ""}]`;
  } else if (win.moreFollow) {
    content += `\n\n[Showing lines ${win.first}-${win.last} of "${relative}" (${formatBytes(size)}); more lines follow. Call read with offset=${win.last + 1} to continue.]`;
  }
  return { content, details };
}
