export { startFakeHomeserver } from "./server.js";
export type { FakeHomeserver, FakeHomeserverOptions, FakeMatrixRequest, FakeMatrixSent, RawEvent } from "./types.js";
