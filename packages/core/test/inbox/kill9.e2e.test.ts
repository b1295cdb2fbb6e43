// kill -9 anywhere in a turn: every message a user sent is answered exactly once, and nothing is
// lost. The real gateway process with the Telegram plugin against the fake Bot API and a slow
// fake model; see kill9-harness.ts for the scenarios. `pnpm test` runs a few short seeds and one
// long run (50 messages, killed again and again); the soak (`node bench/kill9-soak.mjs`, or
// OPENCLAW_KILL9_RUNS=20) runs 20 short ones in a row.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLI_ENTRY, runKillScenario, type ScenarioResult, tokensOfAnswer } from "./kill9-harness.js";

const RUNS = Number(process.env.OPENCLAW_KILL9_RUNS ?? 3);
const FIRST_SEED = Number(process.env.OPENCLAW_KILL9_SEED ?? Date.now() % 100_000);
// The crash suite's long run: 50 turns, the gateway killed at random points all along.
const LONG_TURNS = Number(process.env.OPENCLAW_KILL9_LONG_TURNS ?? 50);
const LONG_SEED = Number(process.env.OPENCLAW_KILL9_LONG_SEED ?? (Date.now() + 7919) % 100_000);

/** Everything the scenario must satisfy; returns the problems found (empty when none). */
function judge(result: ScenarioResult): string[] {
  const problems: string[] = [];
  if (result.exitCode !== 0) problems.push(`the last gateway exited with ${result.exitCode}, not 0`);
  const pending = result.inbox.find((r) => r.state !== "answered");
  if (pending) problems.push(`inbox rows not answered: ${JSON.stringify(result.inbox)}`);
  const total = result.inbox.reduce((n, r) => n + r.count, 0);
  const sentCount = [...result.sent.values()].flat().length;
  if (total !== sentCount) problems.push(`the inbox has ${total} rows for ${sentCount} messages`);
  for (const user of result.users) {
    const mine = result.sent.get(user.id)!;
    const messages = result.chats.get(user.id)!;
    // A message the gateway never learnt the id of was accepted by Telegram in the instant the
    // process died (the send was on the wire): the one window a sender cannot close without the
    // platform's help. It must be a copy (whole or partial) of an answer the user has anyway.
    const known = messages.filter((m) => result.known.has(m.id));
    const orphans = messages.filter((m) => !result.known.has(m.id));
    const answered = new Map<string, number>();
    for (const { text } of known) {
      const tokens = tokensOfAnswer(text);
      if (!tokens) problems.push(`user ${user.id} sees an unfinished or foreign message: ${JSON.stringify(text)}`);
      for (const token of tokens ?? []) answered.set(token, (answered.get(token) ?? 0) + 1);
    }
    for (const token of mine) {
      const count = answered.get(token) ?? 0;
      if (count !== 1) problems.push(`user ${user.id}: message ${token} was answered ${count} times`);
    }
    for (const token of answered.keys()) if (!mine.includes(token)) problems.push(`user ${user.id} got the answer meant for ${token}`);
    for (const { text } of orphans) {
      if (!known.some((m) => m.text.startsWith(text))) problems.push(`user ${user.id} sees a stray message: ${JSON.stringify(text)}`);
    }
    if (orphans.length > result.kills) problems.push(`user ${user.id}: ${orphans.length} messages left by ${result.kills} kill(s)`);
  }
  for (const [token, count] of result.transcriptCounts) {
    if (count !== 1) problems.push(`the transcripts hold message ${token} ${count} times`);
  }
  return problems;
}

/** Runs the scenarios and fails with a report (seed, story, chats, and logs when it failed). */
async function runAndJudge(seed: number, turns?: number): Promise<void> {
  const result = await runKillScenario(seed, turns === undefined ? {} : { turns });
  const problems = judge(result);
  const repeat = turns === undefined ? `OPENCLAW_KILL9_SEED=${seed} OPENCLAW_KILL9_RUNS=1` : `OPENCLAW_KILL9_LONG_SEED=${seed}`;
  const report = [
    `seed ${seed} (repeat with ${repeat}): ${result.kills} kill(s); ${result.story.join("; ")}`,
    ...problems,
    ...[...result.chats].map(
      ([id, messages]) => `chat ${id}: ${JSON.stringify(messages.map((m) => (result.known.has(m.id) ? m.text : `(unknown) ${m.text}`)))}`,
    ),
    problems.length > 0 ? result.logs.join("\n----\n") : "",
  ].join("\n");
  if (process.env.OPENCLAW_KILL9_VERBOSE) console.log(report);
  expect(problems, report).toEqual([]);
}

describe("inbox: kill -9 at a random point of a turn", () => {
  it(
    `answers every message exactly once across ${RUNS} seeded runs (first seed ${FIRST_SEED})`,
    async () => {
      // The real CLI is what gets killed: a missing build fails the test rather than skipping it.
      expect(existsSync(CLI_ENTRY), `${CLI_ENTRY} is missing: run \`pnpm build\` first`).toBe(true);
      for (let i = 0; i < RUNS; i++) await runAndJudge(FIRST_SEED + i);
    },
    RUNS * 60_000,
  );

  it(`answers each of ${LONG_TURNS} messages from 5 users exactly once while the gateway is killed again and again (seed ${LONG_SEED})`, async () => {
    expect(existsSync(CLI_ENTRY), `${CLI_ENTRY} is missing: run \`pnpm build\` first`).toBe(true);
    await runAndJudge(LONG_SEED, LONG_TURNS);
  }, 300_000);
});
