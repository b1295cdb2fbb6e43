export { startFakeWebSearch } from "./server.js";
export { DEFAULT_DOCS as FAKE_SEARCH_DOCS } from "./corpus.js";
export type { FakeSearchDoc, FakeSearchProvider, FakeSearchRequest, FakeWebSearch, FakeWebSearchOptions } from "./types.js";
