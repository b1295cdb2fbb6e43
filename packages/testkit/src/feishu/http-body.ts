import type { IncomingMessage } from "node:http";

/** A parsed request body: JSON, multipart form fields and files, or nothing. */
export interface RequestBody {
  json?: unknown;
  fields: Record<string, string>;
  files: Record<string, { bytes: Uint8Array; filename?: string }>;
  /** The body as received. */
  raw: Buffer;
}

/** Reads and parses a request body (JSON or multipart/form-data, as axios sends the SDK's uploads). */
export async function readBody(req: IncomingMessage): Promise<RequestBody> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const body: RequestBody = { fields: {}, files: {}, raw };
  const type = req.headers["content-type"] ?? "";
  const boundary = /multipart\/form-data;.*boundary=("?)([^";]+)\1/i.exec(type)?.[2];
  if (boundary) {
    parseMultipart(raw, boundary, body);
  } else if (raw.length > 0) {
    try {
      body.json = JSON.parse(raw.toString("utf8"));
    } catch {
      body.json = raw.toString("utf8");
    }
  }
  return body;
}

function parseMultipart(raw: Buffer, boundary: string, into: RequestBody): void {
  const delimiter = Buffer.from(`--${boundary}`);
  let start = raw.indexOf(delimiter);
  while (start !== -1) {
    const partStart = start + delimiter.length;
    if (raw.subarray(partStart, partStart + 2).toString() === "--") return;
    const next = raw.indexOf(delimiter, partStart);
    if (next === -1) return;
    // Each part: CRLF, headers, CRLF CRLF, content, CRLF before the next delimiter.
    const part = raw.subarray(partStart + 2, next - 2);
    const split = part.indexOf("\r\n\r\n");
    if (split !== -1) {
      const headers = part.subarray(0, split).toString("utf8");
      const content = part.subarray(split + 4);
      const name = /name="([^"]*)"/i.exec(headers)?.[1];
      const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
      if (name !== undefined) {
        if (filename !== undefined || /content-type:\s*application\/octet-stream/i.test(headers)) {
          into.files[name] = { bytes: Uint8Array.from(content), filename };
        } else {
          into.fields[name] = content.toString("utf8");
        }
      }
    }
    start = next;
  }
}
