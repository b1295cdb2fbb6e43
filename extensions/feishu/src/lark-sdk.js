// The parts of `@larksuiteoapi/node-sdk` the channel runs: the long connection's `WSClient` and the
// `EventDispatcher` it hands events to (Open API calls go through open-api.ts, not the SDK's
// `Client`). The published package bundles this file alone, from the SDK's ES modules, so only
// these two and what they use are in it (scripts/bundle-extension.mjs --code-cache). Plain
// JavaScript with its types in lark-sdk.d.ts, so the type checker never reads the SDK's 17 MB of
// types.
export { EventDispatcher, WSClient } from "@larksuiteoapi/node-sdk";
