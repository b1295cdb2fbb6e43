// An encrypted DM from a fresh Element-like client, through a real Synapse and the real gateway
// process: the bot accepts the invite (autoJoin allowlist), a stranger gets a pairing code,
// `openclaw pairing approve` lets them in, and the agent's streamed reply decrypts on the human's
// side. Then a SIGTERM restart and a kill -9 restart: no message answered twice, none lost, and
// still no "unable to decrypt". An invite from someone not on the allowlist is left pending.
import type { FakeModelServer } from "@openclaw/testkit";
import {
  createMatrixHuman,
  type HumanMessage,
  type MatrixHuman,
  type Synapse,
  startSynapse,
  synapseInstalled,
} from "@openclaw/testkit/matrix";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerFor,
  type GatewayLife,
  lastAsked,
  logLine,
  makeHome,
  runCli,
  startGateway,
  startModel,
  type TempHome,
  writeConfig,
} from "./harness.js";

describe.skipIf(!synapseInstalled())("Matrix DM through Synapse and the real gateway", () => {
  let synapse: Synapse;
  let model: FakeModelServer;
  let home: TempHome;
  let gateway: GatewayLife | undefined;
  let alice: MatrixHuman;
  let bot: string;
  let roomId: string;

  /** The bot's answer to `question`, once its whole text shows (the live marker is rooms.e2e's concern). */
  const finished = (question: string, timeoutMs = 30_000): Promise<HumanMessage> =>
    alice.waitForMessage(roomId, (m) => m.sender === bot && m.body.trim() === answerFor(question), timeoutMs);
  const botMessages = () => alice.timeline(roomId).filter((m) => m.sender === bot && !m.redacted);

  beforeAll(async () => {
    synapse = await startSynapse();
    model = await startModel();
    home = makeHome("openclaw-mx-dm-");
    const claw = await synapse.registerUser("claw", { displayName: "Claw" });
    bot = claw.userId;
    const a = await synapse.registerUser("alice", { displayName: "Alice" });
    writeConfig(home, model, {
      homeserver: synapse.baseUrl,
      userId: claw.userId,
      password: claw.password,
      encryption: true,
      streaming: { mode: "partial" },
      autoJoin: "allowlist",
      autoJoinAllowlist: [a.userId],
    });
    [gateway, alice] = await Promise.all([startGateway(home), createMatrixHuman({ baseUrl: synapse.baseUrl, ...a })]);
  }, 180_000);

  afterAll(async () => {
    await gateway?.kill();
    await alice?.stop();
    await model?.close();
    await synapse?.stop();
    home?.cleanup();
  });

  it("pairs a stranger from an encrypted DM, then answers with an encrypted streamed reply that decrypts", async () => {
    roomId = await alice.createDm(bot);
    await gateway!.waitForLog(logLine(`joined ${roomId}`));
    await alice.waitForMember(roomId, bot);
    await alice.send(roomId, "hello");
    const pairing = await alice.waitForMessage(roomId, (m) => m.sender === bot && /pairing approve matrix/.test(m.body));
    expect(pairing).toMatchObject({ encrypted: true, decrypted: true });
    const code = /pairing approve matrix ([A-Z0-9]{8})/.exec(pairing.body)![1]!;
    expect(model.requests).toHaveLength(0);

    const approve = await runCli(["pairing", "approve", "matrix", code], home.home);
    expect(approve.code, approve.stderr).toBe(0);

    await alice.send(roomId, "what can you do?");
    const reply = await finished("what can you do?");
    expect(reply).toMatchObject({ encrypted: true, decrypted: true, undecryptable: false });
    expect(alice.timeline(roomId).some((m) => m.undecryptable)).toBe(false);
    expect(model.requests).toHaveLength(1);
  }, 60_000);

  it("after a SIGTERM restart, answers the next message once and replays nothing", async () => {
    expect(await gateway!.stop()).toBe(0);
    const before = botMessages().length;
    gateway = await startGateway(home);
    await alice.send(roomId, "after restart");
    await finished("after restart");
    expect(botMessages()).toHaveLength(before + 1);
    expect(model.requests).toHaveLength(2);
    expect(alice.timeline(roomId).some((m) => m.undecryptable)).toBe(false);
  }, 120_000);

  it("after kill -9, answers a message sent while it was down exactly once, and replays nothing", async () => {
    await gateway!.kill();
    const before = botMessages().length;
    await alice.send(roomId, "sent while down");
    gateway = await startGateway(home);
    await finished("sent while down");
    await alice.send(roomId, "and one more");
    await finished("and one more");
    expect(botMessages()).toHaveLength(before + 2);
    expect(model.requests.map((r) => answerFor(lastAsked(r.body)))).toEqual(
      ["what can you do?", "after restart", "sent while down", "and one more"].map(answerFor),
    );
    expect(alice.timeline(roomId).some((m) => m.undecryptable)).toBe(false);
  }, 120_000);

  it("leaves an invite from someone not on autoJoinAllowlist pending", async () => {
    const m = await synapse.registerUser("mallory");
    const mallory = await createMatrixHuman({ baseUrl: synapse.baseUrl, ...m });
    try {
      const theirs = await mallory.createDm(bot);
      await gateway!.waitForLog(logLine(`not joining ${theirs} (invited by ${m.userId})`));
      const members = await mallory.client.getJoinedRoomMembers(theirs);
      expect(Object.keys(members.joined)).toEqual([m.userId]);
    } finally {
      await mallory.stop();
    }
  }, 60_000);
});
