import type { IncomingMessage } from "node:http";
import type { FakeUploadInfo } from "./types.js";

/** An uploaded file part with its bytes. */
export interface UploadedFile extends FakeUploadInfo {
  data: Buffer;
}

/** Parameters of one Bot API call, with uploaded files resolved. */
export interface ParsedParams {
  /** Parameters for the method; an uploaded file replaces its `attach://` reference or part. */
  params: Record<string, any>;
  /** Every uploaded file, by the name of its form part. */
  files: Map<string, UploadedFile>;
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Parses string values that look like JSON objects or arrays, as Telegram does for form fields. */
function maybeJson(value: string): unknown {
  const trimmed = value.trim();
  if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) return value;
  try {
    return JSON.parse(trimmed);
  } catch {
    return value;
  }
}

/** Reads `name="x"`, `name=x` (grammY sends unquoted file names) from a content-disposition header. */
function dispositionParam(header: string, key: string): string | undefined {
  const pattern = new RegExp(`(?:^|;)\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, "i");
  const match = pattern.exec(header);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : match[2]!.trim();
}

/**
 * Parses a multipart/form-data body. Tolerates grammY's style (lower-case headers without a
 * space after the colon, unquoted file names), which Node's built-in FormData parser rejects.
 */
export function parseMultipart(body: Buffer, contentType: string): { fields: Record<string, string>; files: Map<string, UploadedFile> } {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const fields: Record<string, string> = {};
  const files = new Map<string, UploadedFile>();
  if (!boundary) return { fields, files };
  const delimiter = Buffer.from(`--${(boundary[1] ?? boundary[2]!).trim()}`);
  let position = body.indexOf(delimiter);
  while (position >= 0) {
    let start = position + delimiter.length;
    if (body.subarray(start, start + 2).toString() === "--") break;
    if (body.subarray(start, start + 2).toString() === "\r\n") start += 2;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    let end = next;
    if (body.subarray(end - 2, end).toString() === "\r\n") end -= 2;
    const part = body.subarray(start, end);
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd >= 0) {
      const headers = part.subarray(0, headerEnd).toString("utf8").split("\r\n");
      const data = part.subarray(headerEnd + 4);
      let disposition = "";
      let mimeType = "application/octet-stream";
      for (const line of headers) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (name === "content-disposition") disposition = value;
        if (name === "content-type") mimeType = value;
      }
      const name = dispositionParam(disposition, "name");
      const fileName = dispositionParam(disposition, "filename");
      if (name !== undefined) {
        if (fileName !== undefined) files.set(name, { field: name, fileName, mimeType, size: data.length, data: Buffer.from(data) });
        else fields[name] = data.toString("utf8");
      }
    }
    position = next;
  }
  return { fields, files };
}

/** Replaces `attach://name` strings (at any depth) with the uploaded file's info, noting the names used. */
function resolveAttachments(value: unknown, files: Map<string, UploadedFile>, used: Set<string>): unknown {
  if (isUploadedFile(value)) return value;
  if (typeof value === "string" && value.startsWith("attach://")) {
    const name = value.slice("attach://".length);
    const file = files.get(name);
    if (!file) return value;
    used.add(name);
    return file;
  }
  if (Array.isArray(value)) return value.map((v) => resolveAttachments(v, files, used));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveAttachments(v, files, used)]));
  }
  return value;
}

/**
 * Reads a call's parameters from the query string and the body (JSON, urlencoded or multipart).
 * A body that is not valid JSON yields `undefined` (the caller answers 400).
 */
export function parseParams(search: URLSearchParams, body: Buffer, contentType: string): ParsedParams | undefined {
  const params: Record<string, any> = {};
  for (const [k, v] of search) params[k] = maybeJson(v);
  let files = new Map<string, UploadedFile>();
  const type = contentType.toLowerCase();
  if (body.length > 0) {
    if (type.startsWith("multipart/form-data")) {
      const parsed = parseMultipart(body, contentType);
      files = parsed.files;
      for (const [k, v] of Object.entries(parsed.fields)) params[k] = maybeJson(v);
    } else if (type.startsWith("application/x-www-form-urlencoded")) {
      for (const [k, v] of new URLSearchParams(body.toString("utf8"))) params[k] = maybeJson(v);
    } else {
      try {
        const json = JSON.parse(body.toString("utf8")) as unknown;
        if (json && typeof json === "object" && !Array.isArray(json)) Object.assign(params, json);
      } catch {
        return undefined;
      }
    }
  }
  const used = new Set<string>();
  const resolved: Record<string, any> = {};
  for (const [key, value] of Object.entries(params)) {
    resolved[key] = resolveAttachments(value, files, used);
    // A top-level attach:// belongs to that parameter (grammY's "photo": "attach://x7f…").
    if (isUploadedFile(resolved[key])) resolved[key].field = key;
  }
  for (const [name, file] of files) {
    // A file part sent directly under the parameter's name, not referenced via attach://.
    if (!used.has(name) && !(name in resolved)) resolved[name] = file;
  }
  return { params: resolved, files };
}

/** The recorded form of parameters: uploaded files shown as their info without bytes. */
export function recordableParams(params: Record<string, any>): Record<string, any> {
  const strip = (value: unknown): unknown => {
    if (isUploadedFile(value)) return { field: value.field, fileName: value.fileName, mimeType: value.mimeType, size: value.size };
    if (Array.isArray(value)) return value.map(strip);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strip(v)]));
    return value;
  };
  return strip(params) as Record<string, any>;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return (
    typeof value === "object" &&
    value !== null &&
    Buffer.isBuffer((value as UploadedFile).data) &&
    typeof (value as UploadedFile).fileName === "string"
  );
}
