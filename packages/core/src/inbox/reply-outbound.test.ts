// A replayed reply continues in the messages an interrupted attempt left in the chat: through
// InboxTurn's outbound over the loopback platform, with the journal in a real state database.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ChannelCapabilities, ChannelOutbound, OutboundTarget, SendOptions } from "@openclaw/plugin-sdk";
import { createLoopbackOutbound, createLoopbackPlatform, LOOPBACK_CAPABILITIES, type LoopbackPlatform } from "@openclaw/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStateDb, type StateDb } from "../state/index.js";
import { inboundMessage } from "./__fixtures__/messages.js";
import { InboxStore, type InboxRow } from "./store.js";
import { InboxTurn } from "./turn.js";

let dir: string;
let db: StateDb;
let store: InboxStore;
let platform: LoopbackPlatform;
let row: InboxRow;

const target: OutboundTarget = { chat: { kind: "direct", id: "ann" } };
const signal = new AbortController().signal;
const opts = (key: string): SendOptions => ({ signal, priority: "final", format: "markdown", idempotencyKey: key });

function outboundOf(capabilities?: Partial<ChannelCapabilities>): ChannelOutbound {
  return createLoopbackOutbound(platform, "default", {
    ...LOOPBACK_CAPABILITIES,
    textLimit: platform.textLimit,
    editLimit: platform.editLimit,
    ...capabilities,
  });
}

/** Attempt `attempt` of the message's handling, sending through `inner`. */
function attempt(n: number, inner = outboundOf()) {
  const turn = new InboxTurn(store, store.get(row.id)!, { attempt: n, stopping: () => false });
  return { turn, out: turn.outbound(inner) };
}

const view = () => platform.chatView("ann");

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "openclaw-inbox-out-"));
  db = openStateDb(dir);
  store = new InboxStore(db);
  platform = createLoopbackPlatform();
  row = store.record(inboundMessage({ channel: "loopback", messageId: "u1", chat: { kind: "direct", id: "ann" }, sender: { id: "ann" } }))!;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the outbound of a replayed reply", () => {
  it("finishes the answer in the preview an interrupted attempt left, and sends only what is new", async () => {
    const first = attempt(1);
    const { messageId } = await first.out.sendText(target, "Hel", opts("p#0"));
    await first.out.editText!(target, messageId, "Hello wor", opts("p#0"));
    // The process dies here; the next start replays the message.
    const second = attempt(2);
    expect(await second.out.sendText(target, "Hello world!", opts("r2:p#0"))).toEqual({ messageId });
    const next = await second.out.sendText(target, "And a second part.", opts("r2:p#1"));
    expect(next.messageId).not.toBe(messageId);
    expect(view().texts).toEqual(["Hello world!", "And a second part."]);
    expect(view().messages[0]!.history).toEqual(["Hel", "Hello wor", "Hello world!"]);
  });

  it("shows nothing new when the interrupted attempt already showed the same text", async () => {
    const first = attempt(1);
    await first.out.sendText(target, "Complete answer.", opts("f#0"));
    const calls = platform.calls.length;
    const second = attempt(2);
    await second.out.sendText(target, "Complete answer.", opts("r2:f#0"));
    expect(platform.calls.length).toBe(calls);
    expect(view().texts).toEqual(["Complete answer."]);
  });

  it("deletes what an interrupted attempt showed beyond the new reply once the message is answered", async () => {
    const first = attempt(1);
    await first.out.sendText(target, "Para one.", opts("b0"));
    await first.out.sendText(target, "Para two.", opts("b1"));
    const second = attempt(2);
    await second.out.sendText(target, "Para one. Para two, merged.", opts("r2:b0"));
    await second.turn.settle({ state: "answered", reason: "replied" }, signal);
    expect(view().texts).toEqual(["Para one. Para two, merged."]);
    expect(view().deleted.map((m) => m.text)).toEqual(["Para two."]);
    expect(store.get(row.id)).toMatchObject({ state: "answered", reason: "replied" });
  });

  it("sends anew when the platform refuses the edit for good, and removes the stale message at the end", async () => {
    const first = attempt(1);
    await first.out.sendText(target, "Partial", opts("p#0"));
    platform.failEdits(1);
    const second = attempt(2);
    await second.out.sendText(target, "Partial answer, now complete.", opts("r2:p#0"));
    await second.turn.settle({ state: "answered", reason: "replied" }, signal);
    expect(view().texts).toEqual(["Partial answer, now complete."]);
    expect(view().deleted.map((m) => m.text)).toEqual(["Partial"]);
  });

  it("on a channel that cannot edit, reuses an earlier message only when its text is the same", async () => {
    const inner = outboundOf({ edit: false });
    const first = attempt(1, inner);
    await first.out.sendText(target, "Same first part.", opts("f#0"));
    await first.out.sendText(target, "Old second part.", opts("f#1"));
    const second = attempt(2, inner);
    await second.out.sendText(target, "Same first part.", opts("r2:f#0"));
    await second.out.sendText(target, "New second part.", opts("r2:f#1"));
    expect(view().texts).toEqual(["Same first part.", "Old second part.", "New second part."]);
    await second.turn.settle({ state: "answered", reason: "replied" }, signal);
    expect(view().texts).toEqual(["Same first part.", "New second part."]);
  });

  it("a first attempt continues in nothing: every send is a new message", async () => {
    const first = attempt(1);
    await first.out.sendText(target, "One.", opts("a"));
    const again = attempt(1);
    await again.out.sendText(target, "Two.", opts("b"));
    expect(view().texts).toEqual(["One.", "Two."]);
  });
});
