// Rooms through a real Synapse and the real gateway process: invites sent while the gateway was
// down are accepted at start (autoJoin allowlist), a group room answers only mentions, a threaded
// message is answered in its thread, an encrypted image reaches the agent, and a 4000-character
// reply streams in each `streaming.mode` (one room per mode via `streaming.rooms`) with no text
// shown twice and no preview left marked live.
import type { FakeModelServer } from "@openclaw/testkit";
import { createMatrixHuman, type MatrixHuman, type Synapse, startSynapse, synapseInstalled } from "@openclaw/testkit/matrix";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerFor,
  type GatewayLife,
  lastAsked,
  logLine,
  longAnswer,
  makeHome,
  squash,
  startGateway,
  startModel,
  type TempHome,
  writeConfig,
} from "./harness.js";

const LIVE = "org.matrix.msc4357.live";
const MODES = ["off", "partial", "quiet", "progress"] as const;

describe.skipIf(!synapseInstalled())("Matrix rooms through Synapse and the real gateway", () => {
  let synapse: Synapse;
  let model: FakeModelServer;
  let home: TempHome;
  let gateway: GatewayLife | undefined;
  let alice: MatrixHuman;
  let bot: string;
  let group: string;
  const modeRooms: Record<string, string> = {};

  const botMessages = (roomId: string) => alice.timeline(roomId).filter((m) => m.sender === bot && !m.redacted);
  const asked = () => model.requests.map((r) => lastAsked(r.body));

  beforeAll(async () => {
    synapse = await startSynapse();
    model = await startModel();
    home = makeHome("openclaw-mx-rooms-");
    const claw = await synapse.registerUser("claw", { displayName: "Claw" });
    bot = claw.userId;
    const a = await synapse.registerUser("alice", { displayName: "Alice" });
    alice = await createMatrixHuman({ baseUrl: synapse.baseUrl, ...a });
    // Invited while the gateway is down: accepted when it starts.
    group = await alice.createRoom({ name: "group", invite: [bot] });
    for (const mode of MODES) modeRooms[mode] = await alice.createRoom({ name: `stream ${mode}`, invite: [bot], encrypted: true });
    writeConfig(home, model, {
      homeserver: synapse.baseUrl,
      userId: claw.userId,
      password: claw.password,
      encryption: true,
      allowFrom: [a.userId],
      groupPolicy: "open",
      groups: {
        "*": { requireMention: true },
        ...Object.fromEntries(MODES.map((mode) => [modeRooms[mode], { requireMention: false }])),
      },
      autoJoin: "allowlist",
      autoJoinAllowlist: [a.userId],
      streaming: { mode: "off", rooms: Object.fromEntries(MODES.map((mode) => [modeRooms[mode], { mode }])) },
    });
    gateway = await startGateway(home);
    for (const roomId of [group, ...Object.values(modeRooms)]) {
      await gateway.waitForLog(logLine(`joined ${roomId}`));
      await alice.waitForMember(roomId, bot);
    }
  }, 180_000);

  afterAll(async () => {
    await gateway?.kill();
    await alice?.stop();
    await model?.close();
    await synapse?.stop();
    home?.cleanup();
  });

  it("answers only the message that mentions the bot in a group room", async () => {
    await alice.send(group, "just chatting among ourselves");
    await alice.send(group, "what time is it", { mentions: [bot] });
    await alice.waitForMessage(group, (m) => m.sender === bot && m.body === answerFor("what time is it"));
    expect(botMessages(group)).toHaveLength(1);
    expect(asked()).not.toContain("just chatting among ourselves");
  }, 60_000);

  it("answers a threaded message in its thread", async () => {
    const root = await alice.send(group, "start a thread", { mentions: [bot] });
    await alice.waitForMessage(group, (m) => m.sender === bot && m.body === answerFor("start a thread"));
    await alice.send(group, "inside the thread", { mentions: [bot], threadRootId: root });
    const reply = await alice.waitForMessage(group, (m) => m.sender === bot && m.body === answerFor("inside the thread"));
    expect(reply.threadRootId).toBe(root);
  }, 60_000);

  it("hands an encrypted image to the agent", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
    const before = model.requests.length;
    await alice.sendImage(modeRooms.off!, png, "dot.png");
    await alice.waitForMessage(modeRooms.off!, (m) => m.sender === bot && m.body.startsWith("You said:"));
    const request = JSON.stringify(model.requests.slice(before).map((r) => r.body));
    expect(request).toMatch(/image/i);
    expect(request).toContain("dot.png");
  }, 60_000);

  it("ends a partial preview that already shows the whole reply with a last edit without the live marker", async () => {
    const roomId = modeRooms.partial!;
    // The model pauses after its text, so the preview shows all of it before the turn ends.
    await alice.send(roomId, "a short question PAUSE");
    const reply = await alice.waitForMessage(roomId, (m) => m.sender === bot && m.body === answerFor("a short question PAUSE"));
    expect(reply.original[LIVE]).toBeDefined();
    await alice.waitForMessage(roomId, (m) => m.eventId === reply.eventId && !m.content?.[LIVE], 10_000);
  }, 60_000);

  for (const mode of MODES) {
    it(`streams a 4000-character reply in ${mode} mode: the whole text once, nothing left live`, async () => {
      const roomId = modeRooms[mode]!;
      const expected = longAnswer(4000, mode);
      const earlier = new Set(botMessages(roomId).map((m) => m.eventId));
      const started = Date.now();
      await alice.send(roomId, `LONG ${mode}`);
      await alice.waitForMessage(roomId, (m) => m.sender === bot && !earlier.has(m.eventId) && m.body.length > 0, 30_000);
      const firstVisibleMs = Date.now() - started;
      await alice.waitForMessage(
        roomId,
        () => squash(alice.visibleText(roomId, { sender: bot })).endsWith(squash(expected).slice(-80)),
        60_000,
      );
      const shown = squash(alice.visibleText(roomId, { sender: bot }).replace(/^You said:.*END$/m, ""));
      expect(shown).toBe(squash(expected));
      for (const match of expected.matchAll(/sentence \d{3}/g)) expect(shown.split(match[0]).length - 1, match[0]).toBe(1);
      const messages = botMessages(roomId).filter((m) => !m.body.startsWith("You said:"));
      expect(messages.filter((m) => m.content?.[LIVE]).map((m) => m.eventId)).toEqual([]);
      // A preview (an edited message) starts as m.notice in quiet mode, m.text in partial mode.
      const previews = messages.filter((m) => m.edits > 0).map((m) => m.original.msgtype);
      if (mode === "quiet" || mode === "partial") expect(previews.length).toBeGreaterThan(0);
      if (mode === "quiet") expect(previews.every((t) => t === "m.notice")).toBe(true);
      if (mode === "partial") expect(previews.every((t) => t === "m.text")).toBe(true);
      const edits = messages.reduce((n, m) => n + m.edits, 0);
      console.info(`matrix e2e ${mode}: ${messages.length} events, ${edits} edits, first visible text after ${firstVisibleMs} ms`);
      if (mode === "off") expect(edits).toBe(0);
    }, 90_000);
  }
});
