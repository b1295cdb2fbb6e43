/**
 * The channel conformance suite, framework-free. `runChannelConformance` (vitest) lives in
 * `@openclaw/testkit/conformance`, so that importing `@openclaw/testkit` never loads a test runner.
 */
export { defineChannelConformance, CONFORMANCE_CASES } from "./define.js";
export type { ChannelConformance, ConformanceCase, PlannedCase } from "./define.js";
export type { ConformanceSession, OutboundCallRecord } from "./host.js";
export { prose, reassemblyError, inboundProblems } from "./text.js";
export type {
  ChannelConformanceSpec,
  ConformanceCaseId,
  ConformanceChatView,
  ConformanceHarness,
  ConformancePlatform,
  ConformanceUserMessage,
  ConformanceViewMessage,
} from "./types.js";
