import { describe, expect, it } from "vitest";
import { previewModeWarnings, type StreamingCapabilities } from "./capability-warnings.js";

const whatsapp: StreamingCapabilities = { edit: false, delete: true, textLimit: 4000 };
const telegram: StreamingCapabilities = { edit: true, delete: true, textLimit: 4096 };
const noDelete: StreamingCapabilities = { edit: true, delete: false, textLimit: 4000, editLimit: 2000 };

describe("previewModeWarnings", () => {
  it("warns about a preview mode on a channel that cannot edit", () => {
    const [warning, ...rest] = previewModeWarnings("whatsapp", { mode: "partial" }, whatsapp);
    expect(rest).toEqual([]);
    expect(warning).toContain('channels.whatsapp.streaming.mode is "partial"');
    expect(warning).toContain("cannot edit messages");
    expect(previewModeWarnings("whatsapp", { mode: "off" }, whatsapp)).toEqual([]);
  });

  it("is quiet about a non-editing channel whose policy makes every non-off mode block replies", () => {
    const policy = { previewModes: ["partial"], defaultMode: "partial", blockReplies: "unless-off" } as const;
    expect(previewModeWarnings("blocky", { mode: "partial" }, whatsapp, { policy })).toEqual([]);
    // Without that policy the same mode would show nothing until the end: warned.
    expect(previewModeWarnings("blocky", { mode: "partial" }, whatsapp, { policy: { ...policy, blockReplies: "explicit" } })).toHaveLength(
      1,
    );
  });

  it("warns about nativeTransport without a native stream, and is quiet with one", () => {
    expect(previewModeWarnings("telegram", { nativeTransport: true }, telegram)).toEqual([
      expect.stringContaining("channels.telegram.streaming.nativeTransport is true, but telegram has no native stream"),
    ]);
    expect(previewModeWarnings("qqbot", { mode: "partial", nativeTransport: true }, { ...telegram, nativeStream: "replace" })).toEqual([]);
  });

  it("warns about a progress draft that cannot be deleted and a preview chunk above the edit limit", () => {
    const warnings = previewModeWarnings("chat", { mode: "progress", preview: { chunk: { maxChars: 3000 } } }, noDelete, {
      path: "channels.chat.accounts.work.streaming",
    });
    expect(warnings).toEqual([
      expect.stringContaining('channels.chat.accounts.work.streaming.mode is "progress", but chat cannot delete messages'),
      expect.stringContaining("channels.chat.accounts.work.streaming.preview.chunk.maxChars is 3000, above the 2000 characters"),
    ]);
  });

  it("returns nothing for a missing or valid streaming object", () => {
    expect(previewModeWarnings("telegram", undefined, telegram)).toEqual([]);
    expect(previewModeWarnings("telegram", { mode: "partial", preview: { chunk: { maxChars: 800 } } }, telegram)).toEqual([]);
  });
});
