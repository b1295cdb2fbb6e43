/**
 * Every value the channel takes from matrix-js-sdk, imported from the SDK's own modules instead of
 * its index: the index also brings the widget client (matrix-widget-api), OIDC and autodiscovery,
 * which the channel never uses, so they stay out of the channel's bundle. Types still come from
 * "matrix-js-sdk". The build compiles this module alone, with the SDK, into
 * dist/bundle/matrix-sdk.cjs, loaded through a V8 code cache (`--code-cache ./matrix-sdk.js`), so
 * no other file of the channel may import a value from the SDK or its Rust crypto.
 */
export { ClientEvent, MatrixClient } from "matrix-js-sdk/lib/client.js";
export { MatrixEvent, MatrixEventEvent } from "matrix-js-sdk/lib/models/event.js";
export { EventStatus } from "matrix-js-sdk/lib/models/event-status.js";
export { RoomEvent } from "matrix-js-sdk/lib/models/room.js";
export { RoomMemberEvent } from "matrix-js-sdk/lib/models/room-member.js";
export { MemoryStore } from "matrix-js-sdk/lib/store/memory.js";
export { SyncState } from "matrix-js-sdk/lib/sync.js";
export { SyncAccumulator } from "matrix-js-sdk/lib/sync-accumulator.js";
export { CryptoEvent, decodeRecoveryKey } from "matrix-js-sdk/lib/crypto-api/index.js";

/**
 * The Rust crypto's WebAssembly package, the very instance the SDK's crypto runs on (loaded on
 * first call; its WebAssembly compiles when first used).
 */
export const rustCryptoWasm = () => import("@matrix-org/matrix-sdk-crypto-wasm");
