import { z } from "zod";
import { defineTool, ToolError } from "../../tool-contract/index.js";
import { looksBinary } from "../fs/text-file.js";
import type { AgentTool } from "../../tool-contract/index.js";
import { FetchRefusedError, guardedGet, type GuardedResponse, type HostResolver } from "./http-get.js";
import { PrivateAddressError } from "./ip-guard.js";
import { resolveWebFetchSettings } from "./settings.js";

const schema = z.strictObject({
  url: z.string().min(1).describe("The http(s) URL to fetch."),
  maxChars: z
    .int()
    .positive()
    .optional()
    .describe("Most characters of text to return (default and ceiling: tools.web.fetch.maxChars, 50000)."),
});

const TEXT_TYPES =
  /^(text\/|application\/(json|ld\+json|xml|javascript|ecmascript|x-ndjson|yaml|x-yaml|toml|rss\+xml|atom\+xml)$|application\/[\w.+-]+\+(json|xml)$)/;
const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);

function decodeBody(res: GuardedResponse): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(res.contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(res.body);
  } catch {
    return new TextDecoder("utf-8").decode(res.body);
  }
}

export interface WebFetchToolOptions {
  /** Host name resolver (default `dns.lookup`); tests use it to simulate DNS answers. */
  resolveHost?: HostResolver;
  /** Address classification (default: loopback, private, link-local, unique-local, ... refused); for tests. */
  classifyAddress?: (address: string) => string | undefined;
}

/**
 * The `web_fetch` tool: GET an http(s) URL and return readable text.
 * - HTML goes through Readability (title kept); text, Markdown, JSON and XML pass through;
 *   other content types are refused.
 * - Private, loopback, link-local and unique-local targets are refused (after DNS resolution
 *   and on every redirect) unless `tools.web.fetch.allowPrivateNetwork` is true.
 * - Body capped at `tools.web.fetch.maxBytes` (2 MiB), text at `maxChars` (50000), whole call at
 *   `timeoutSeconds` (30); each cut is announced in the result.
 */
export function createWebFetchTool(options: WebFetchToolOptions = {}): AgentTool {
  return defineTool({
    name: "web_fetch",
    groups: ["group:web"],
    description:
      "Fetch a web page or file over http(s) and return its readable text (HTML is reduced to the main content, with the title). Public internet addresses only.",
    schema,
    async run(args, ctx) {
      const settings = resolveWebFetchSettings(ctx.config);
      let url: URL;
      try {
        url = new URL(args.url.trim());
      } catch {
        throw new ToolError(`"${args.url}" is not a valid URL; give a full address such as https://example.com/page.`);
      }
      const timeout = AbortSignal.timeout(settings.timeoutSeconds * 1000);
      const signal = AbortSignal.any([ctx.signal, timeout]);
      let res: GuardedResponse;
      try {
        res = await guardedGet(url, {
          maxBytes: settings.maxBytes,
          allowPrivateNetwork: settings.allowPrivateNetwork,
          signal,
          ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
          ...(options.classifyAddress ? { classify: options.classifyAddress } : {}),
        });
      } catch (err) {
        if (err instanceof PrivateAddressError || err instanceof FetchRefusedError) {
          throw new ToolError(`Refused to fetch ${url.href}: ${err.message}`, { refused: true, url: url.href });
        }
        if (timeout.aborted)
          throw new ToolError(`Fetching ${url.href} timed out after ${settings.timeoutSeconds}s (tools.web.fetch.timeoutSeconds).`);
        if (ctx.signal.aborted) throw new ToolError(`Fetching ${url.href} was aborted.`);
        const code = (err as NodeJS.ErrnoException).code;
        throw new ToolError(
          `Could not fetch ${url.href}: ${(err as Error).message}${code && !(err as Error).message.includes(code) ? ` (${code})` : ""}.`,
        );
      }

      const mime = res.contentType.split(";")[0]!.trim().toLowerCase();
      const sniffHtml = mime === "" && /^\s*(<!doctype html|<html)/i.test(res.body.subarray(0, 512).toString("latin1"));
      let title: string | undefined;
      let text: string;
      let method = "raw";
      if (HTML_TYPES.has(mime) || sniffHtml) {
        // linkedom and Readability load on the first HTML page, not at startup (they are large).
        const { extractReadableText } = await import("./extract.js");
        const page = extractReadableText(decodeBody(res), res.finalUrl);
        title = page.title;
        text = page.text;
        method = page.method;
      } else if (TEXT_TYPES.test(mime) || (mime === "" && !looksBinary(res.body.subarray(0, 8192)))) {
        text = decodeBody(res);
      } else {
        throw new ToolError(
          `${res.finalUrl} returned ${mime || "binary content"} (${res.body.length}${res.truncated ? "+" : ""} bytes); web_fetch returns text only.`,
          {
            status: res.status,
            contentType: mime,
          },
        );
      }

      const maxChars = Math.min(args.maxChars ?? settings.maxChars, settings.maxChars);
      const fullChars = text.length;
      const notes: string[] = [];
      if (res.truncated)
        notes.push(`[The response was larger than ${settings.maxBytes} bytes (tools.web.fetch.maxBytes); only the beginning was read.]`);
      if (text.length > maxChars) {
        text = text.slice(0, maxChars);
        notes.push(`[Text cut at ${maxChars} of ${fullChars} characters.]`);
      }
      const header = [
        title ? `Title: ${title}` : undefined,
        `URL: ${res.finalUrl}`,
        res.status >= 300 ? `Status: ${res.status}` : undefined,
      ]
        .filter(Boolean)
        .join("\n");
      return {
        content: `${header}\n\n${text}${notes.length > 0 ? `\n\n${notes.join("\n")}` : ""}`,
        isError: res.status >= 400,
        details: {
          url: url.href,
          finalUrl: res.finalUrl,
          status: res.status,
          contentType: mime,
          title,
          bytes: res.body.length,
          truncatedBytes: res.truncated,
          truncatedChars: fullChars > maxChars,
          redirects: res.redirects,
          extractor: method,
        },
      };
    },
  });
}
