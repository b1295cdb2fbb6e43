/**
 * The values the channel takes from matrix-js-sdk, imported from the SDK's own modules instead of
 * its index: the index also brings the widget client (matrix-widget-api), OIDC and autodiscovery,
 * which the channel never uses, so they stay out of the channel's bundle. Types still come from
 * "matrix-js-sdk".
 */
export { ClientEvent, MatrixClient } from "matrix-js-sdk/lib/client.js";
export { MatrixEvent, MatrixEventEvent } from "matrix-js-sdk/lib/models/event.js";
export { EventStatus } from "matrix-js-sdk/lib/models/event-status.js";
export { RoomEvent } from "matrix-js-sdk/lib/models/room.js";
export { RoomMemberEvent } from "matrix-js-sdk/lib/models/room-member.js";
export { MemoryStore } from "matrix-js-sdk/lib/store/memory.js";
export { SyncState } from "matrix-js-sdk/lib/sync.js";
export { SyncAccumulator } from "matrix-js-sdk/lib/sync-accumulator.js";
