/**
 * @openclaw/plugin-sdk: the contract an OpenClaw channel plugin builds against (contract
 * version 2) — the plugin and session types, inbound and outbound shapes, send errors, account
 * helpers, text chunking, `findCodeFences`, `decodeCharacterReferences` and `redactUrl` (a URL without its credentials, for logs), and `httpFetch` (a `fetch` over node:http
 * for API calls, without loading undici). Config
 * entries are built from `@openclaw/plugin-sdk/config`; unit test helpers are in
 * `@openclaw/plugin-sdk/testing`. zod is a peer dependency: import `z` from "zod" in your plugin
 * and declare `zod` as a peer dependency too. The delivery engine a host drives (send budget,
 * live preview, native streams, exactly-once finals) is `@openclaw/delivery`.
 */
export {
  BlockChunker,
  BREAK_PREFERENCES,
  chunkText,
  decodeCharacterReferences,
  findCodeFences,
  isBlank,
  redactUrl,
  type BlockChunkerOptions,
  type BreakPreference,
  type ChunkMode,
  type CodeFence,
  type ChunkTextOptions,
  type FlushOptions,
} from "./text/index.js";
export * from "./channel/index.js";
export { httpFetch, type HttpFetchHeaders, type HttpFetchInit, type HttpFetchResponse } from "./http/index.js";
