// One kill -9 scenario: the real gateway process (`openclaw gateway`) with the Telegram plugin,
// the fake Bot API and a slow fake model; users write, the gateway is SIGKILLed at a random
// observable point of the turns, restarted, and finally stopped with SIGTERM. The scenario
// returns what the users see and what the stores hold; the test judges it.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startFakeOpenAI, startFakeTelegram, type FakeModelServer, type FakeTelegram, type RecordedRequest } from "@openclaw/testkit";
import Database from "better-sqlite3";
import { MAX_INBOX_ATTEMPTS } from "../../src/inbox/index.js";
import { openAgentStoreReadOnly } from "../../src/sessions/index.js";

export const CLI_ENTRY = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const TELEGRAM_PLUGIN_DIR = fileURLToPath(new URL("../../../../extensions/telegram/", import.meta.url));

/** A small seeded generator (mulberry32), so a failing run can be repeated from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKEN = /\bq\d+-\d+-t\d+\b/g;
const FILLER = "I looked at this carefully and here is a complete answer, written slowly so that the preview has time to show it in pieces";

/** The answer the fake model gives to the user texts it has not answered yet (deterministic). */
export function answerFor(tokens: readonly string[]): string {
  return `Answer to ${tokens.join("+")}. ${FILLER}. END`;
}

/** Parses a complete answer back into the tokens it answers; undefined for anything else. */
export function tokensOfAnswer(text: string): string[] | undefined {
  const match = /^Answer to (\S+)\. (.*) END$/s.exec(text);
  if (!match || match[2] !== `${FILLER}.`) return undefined;
  return match[1]!.split("+");
}

interface RequestMessage {
  role: string;
  content: unknown;
  tool_calls?: unknown[];
}

/** Tokens in the user messages since the model last answered (an assistant message without tool calls). */
function unansweredTokens(request: RecordedRequest): string[] {
  const messages = (request.body?.messages ?? []) as RequestMessage[];
  const answered = messages.findLastIndex((m) => m.role === "assistant" && !(m.tool_calls?.length ?? 0));
  const texts = messages.slice(answered + 1).filter((m) => m.role === "user");
  return texts.flatMap((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)).match(TOKEN) ?? []);
}

/** True when the request ends with a tool result (the model called a tool and gets its answer). */
const afterTool = (request: RecordedRequest) => ((request.body?.messages ?? []) as RequestMessage[]).at(-1)?.role === "tool";

export interface User {
  id: number;
  first_name: string;
}

export interface ScenarioResult {
  seed: number;
  /** Human-readable list of what happened (kill points), for failure messages. */
  story: string[];
  users: User[];
  /** Tokens each user sent. */
  sent: Map<number, string[]>;
  /** The bot's messages each user sees (id and current text), oldest first. */
  chats: Map<number, { id: string; text: string }[]>;
  /**
   * Ids of the bot messages the gateway recorded (reply journal and delivery ledger). A bot
   * message outside this set was accepted by Telegram in the instant the process died, before the
   * gateway learnt its id: no sender can know about it without the platform's help.
   */
  known: Set<string>;
  /** Inbox rows by state. */
  inbox: { state: string; count: number }[];
  /** Per token, how many user entries of the transcripts contain it. */
  transcriptCounts: Map<string, number>;
  kills: number;
  /** The gateway's stderr of every life, for failure messages. */
  logs: string[];
  exitCode: number | null;
}

interface Life {
  proc: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

function cleanEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("OPENCLAW_")) env[k] = v;
  env.HOME = home;
  return env;
}

/** Spawns `openclaw gateway --port 0`; resolves once its Telegram account is connected (signals are handled then). */
function startLife(home: string, timeoutMs: number): Promise<Life> {
  const proc = spawn(process.execPath, [CLI_ENTRY, "gateway", "--port", "0"], {
    env: cleanEnv(home),
    cwd: home,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error(`the gateway did not connect its Telegram account within ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    proc.stderr!.setEncoding("utf8").on("data", (d: string) => {
      const before = stderr;
      stderr += d;
      if (!/\] connected as @/.test(before) && /\] connected as @/.test(stderr)) {
        clearTimeout(timer);
        resolve({ proc, stderr: () => stderr, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the gateway exited (${code}) before it connected:\n${stderr}`));
    });
  });
}

/**
 * Runs one scenario with `seed`: 3 users, 4 messages at first (one user writes twice in a row)
 * and one more after the restart, with live previews or (a third of the seeds) final-only replies. The gateway is SIGKILLed once (sometimes twice) at a random
 * event, from inside the fake that observes it, so the kill lands exactly there: a model request
 * arriving (before the model answered), or a Bot API send or edit arriving at Telegram or being
 * answered by it (while the preview streams, during the final). When every message is answered
 * before the chosen event, the kill comes then. With `turns`, a long run instead: 5 users send
 * `turns` messages in small bursts, and the gateway is killed after about a third of the bursts
 * (at least once), each time at a random event of the turns under way.
 */
export async function runKillScenario(seed: number, options: { timeoutMs?: number; turns?: number } = {}): Promise<ScenarioResult> {
  const turns = options.turns;
  const random = seededRandom(seed);
  // The model's pauses draw from their own stream, so the scenario's choices do not depend on timing.
  const jitter = seededRandom(seed ^ 0x5bd1e995);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const home = mkdtempSync(path.join(tmpdir(), "openclaw-kill9-"));
  const stateDir = path.join(home, ".openclaw");
  const story: string[] = [];
  const logs: string[] = [];
  let llm: FakeModelServer | undefined;
  let tg: FakeTelegram | undefined;
  let life: Life | undefined;
  try {
    const trace = (m: string) => process.env.OPENCLAW_KILL9_VERBOSE && console.error(`[kill9 ${seed}] ${m}`);
    const fakeTg = (tg = await startFakeTelegram());
    let modelCalls = 0;
    let useTools = false;
    let onModelCall: () => void = () => undefined;
    llm = await startFakeOpenAI({
      chunkChars: 24,
      responder: (request) => {
        modelCalls += 1;
        onModelCall();
        // With tools, each answer first checks the session: a message arriving meanwhile joins
        // the run as steering after the tool, before the answer.
        if (useTools && !afterTool(request))
          return [{ delayMs: 100 + Math.floor(jitter() * 200) }, { toolCall: { name: "session_status" } }];
        const text = answerFor(unansweredTokens(request));
        const quarter = Math.ceil(text.length / 4);
        const steps = [];
        for (let i = 0; i < 4; i++) {
          if (i > 0) steps.push({ delayMs: 150 + Math.floor(jitter() * 200) });
          steps.push({ text: text.slice(i * quarter, (i + 1) * quarter) });
        }
        return steps;
      },
    });
    const users: User[] = Array.from({ length: turns === undefined ? 3 : 5 }, (_, i) => ({ id: 7001 + i, first_name: `User${i + 1}` }));
    // Mostly the default live preview (finished by editing); sometimes final-only replies (sent
    // whole, through the delivery ledger).
    const streamingMode = random() < 0.3 ? "off" : "partial";
    useTools = random() < 0.4;
    story.push(`streaming.mode ${streamingMode}${useTools ? ", a tool call before each answer" : ""}`);
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(
      path.join(stateDir, "openclaw.json"),
      JSON.stringify({
        agents: { defaults: { model: "local/llama", skipBootstrap: true, workspace: path.join(home, "ws") } },
        models: { providers: { local: { baseUrl: llm.baseUrl, apiKey: "sk-local", models: [{ id: "llama" }] } } },
        session: { dmScope: "per-channel-peer" },
        plugins: { load: { paths: [TELEGRAM_PLUGIN_DIR] } },
        channels: {
          telegram: {
            botToken: tg.token,
            apiRoot: tg.apiRoot,
            allowFrom: users.map((u) => String(u.id)),
            streaming: { mode: streamingMode },
          },
        },
      }),
    );

    const sent = new Map<number, string[]>(users.map((u) => [u.id, []]));
    let counter = 0;
    const say = (user: User) => {
      const token = `q${seed}-${user.id}-t${counter++}`;
      sent.get(user.id)!.push(token);
      fakeTg.sendUserMessage({ chat: { id: user.id, type: "private" }, from: user, text: `${token} please answer this one` });
    };
    const botMessages = (chatId: number) =>
      fakeTg
        .chat(chatId)
        .filter((m) => m.from?.id === fakeTg.botUser.id)
        .map((m) => ({ id: String(m.message_id), text: m.text ?? "" }));
    const unanswered = () =>
      users.flatMap((u) => {
        const answered = new Set(botMessages(u.id).flatMap((m) => tokensOfAnswer(m.text) ?? []));
        return sent.get(u.id)!.filter((t) => !answered.has(t));
      });
    const allAnswered = () => unanswered().length === 0;
    /** Waits until every message is answered; on timeout, names the unanswered ones with their inbox rows. */
    const waitAllAnswered = async () => {
      try {
        await fakeTg.waitFor(allAnswered, timeoutMs);
      } catch (err) {
        const db = new Database(path.join(stateDir, "state", "openclaw.sqlite"), { readonly: true, timeout: 5000 });
        try {
          const rows = unanswered().map((token) => ({
            token,
            inbox: db.prepare("SELECT id, state, reason, attempts, started_at FROM inbox WHERE message_json LIKE ?").all(`%${token} %`),
          }));
          (err as Error).message += `\nunanswered: ${JSON.stringify(rows)}`;
        } finally {
          db.close();
        }
        throw err;
      }
    };
    const sends = () => fakeTg.calls.filter((c) => c.method === "sendMessage" || c.method === "editMessageText");
    const events = () => modelCalls + sends().length + sends().filter((c) => c.outcome !== "pending").length;

    /** Kills `target` events from now (or once every message is answered), from inside the fake that saw it. */
    const killAt = (victim: Life, target: number, what: string): Promise<void> => {
      const start = events();
      let killed = false;
      const killNow = () => {
        if (killed) return true;
        if (!(events() - start >= target || allAnswered())) return false;
        killed = true;
        victim.proc.kill("SIGKILL");
        const last = sends().at(-1);
        story.push(
          `${what}: killed after ${events() - start} of ${target} events${allAnswered() ? " (all answered)" : ""}; ` +
            `model calls ${modelCalls}; last Bot API call ${last ? `${last.method} ${last.outcome} (${String(last.params.text ?? "").length} chars)` : "none"}`,
        );
        return true;
      };
      return new Promise<void>((resolve, reject) => {
        onModelCall = () => {
          if (killNow()) resolve();
        };
        fakeTg.waitFor(killNow, timeoutMs).then(() => resolve(), reject);
      }).then(async () => {
        onModelCall = () => undefined;
        await victim.exited;
        logs.push(victim.stderr());
      });
    };

    trace("fakes up");
    life = await startLife(home, timeoutMs);
    trace("life 1 connected");
    await tg.waitFor(() => fakeTg.isPolling, timeoutMs);
    trace("polling");
    let kills = 0;
    /** The most handlings of any message still unanswered (read from the running gateway's state database). */
    const mostAttempts = () => {
      const db = new Database(path.join(stateDir, "state", "openclaw.sqlite"), { readonly: true, timeout: 5000 });
      try {
        return (db.prepare("SELECT MAX(attempts) AS n FROM inbox WHERE state = 'pending'").get() as { n: number | null }).n ?? 0;
      } finally {
        db.close();
      }
    };
    const killAndRestart = async (maxEvents: number) => {
      kills += 1;
      await killAt(life!, 1 + Math.floor(random() * maxEvents), `life ${kills}`);
      trace(story.at(-1)!);
      life = await startLife(home, timeoutMs);
    };
    if (turns === undefined) {
      say(users[0]!);
      say(users[1]!);
      say(users[2]!);
      say(users[0]!);
      await killAndRestart(24);
      say(users[1]!);
      if (random() < 0.3) await killAndRestart(12);
    } else {
      // A long run: messages in small bursts from random users; after a burst the gateway is
      // killed at a random event of the next ones (a third of the time), or the users wait for
      // the answers (a third), or write again at once.
      let left = turns;
      while (left > 0) {
        const burst = Math.min(left, 1 + Math.floor(random() * 3));
        for (let i = 0; i < burst; i++) say(users[Math.floor(random() * users.length)]!);
        left -= burst;
        const next = random();
        // A message handled MAX_INBOX_ATTEMPTS times is given up at the next start (documented,
        // and tested on its own): the long run does not kill again while one is that far along.
        if (next < 0.34 && mostAttempts() < MAX_INBOX_ATTEMPTS) await killAndRestart(16);
        else if (next < 0.67) await waitAllAnswered();
      }
      if (kills === 0) await killAndRestart(16);
    }
    trace("waiting for all answers");
    await waitAllAnswered();
    trace("all answered");
    // Let the replay finish what it started (settling the messages it handled) before stopping.
    if (/handling \d+ message\(s\) again/.test(life.stderr())) {
      const current = life;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the replay did not finish within ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          if (!/inbox: done with the \d+ message\(s\) handled again/.test(current.stderr())) return;
          clearTimeout(timer);
          resolve();
        };
        current.proc.stderr!.on("data", check);
        void current.exited.then(() => reject(new Error("the gateway exited during its replay")));
        check();
      });
    }
    life.proc.kill("SIGTERM");
    const exitCode = await life.exited;
    trace(`stopped (${exitCode})`);
    logs.push(life.stderr());
    life = undefined;

    const db = new Database(path.join(stateDir, "state", "openclaw.sqlite"), { readonly: true });
    const inbox = db.prepare("SELECT state, COUNT(*) AS count FROM inbox GROUP BY state ORDER BY state").all() as {
      state: string;
      count: number;
    }[];
    const known = new Set(
      (
        db.prepare("SELECT message_id FROM inbox_reply_messages UNION SELECT message_id FROM delivery_ledger_parts").all() as {
          message_id: string;
        }[]
      ).map((r) => r.message_id),
    );
    db.close();
    const transcriptCounts = new Map<string, number>([...sent.values()].flat().map((t) => [t, 0]));
    const store = openAgentStoreReadOnly({ stateDir, agentId: "main" });
    for (const session of store?.listSessions() ?? []) {
      for (const { event } of store!.readEvents(session.sessionId)) {
        const message = (event as { message?: { role?: string; content?: unknown } }).message;
        if (event.type !== "message" || message?.role !== "user") continue;
        const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
        for (const token of text.match(TOKEN) ?? []) transcriptCounts.set(token, (transcriptCounts.get(token) ?? 0) + 1);
      }
    }
    store?.close();
    return {
      seed,
      story,
      users,
      sent,
      chats: new Map(users.map((u) => [u.id, botMessages(u.id)])),
      known,
      inbox,
      transcriptCounts,
      kills,
      logs,
      exitCode,
    };
  } catch (err) {
    if (life) logs.push(life.stderr());
    (err as Error).message += `\nseed ${seed}; ${story.join("; ")}\n${logs.join("\n----\n")}`;
    throw err;
  } finally {
    if (life && life.proc.exitCode === null && life.proc.signalCode === null) {
      life.proc.kill("SIGKILL");
      await life.exited;
    }
    await tg?.close();
    await llm?.close();
    rmSync(home, { recursive: true, force: true });
  }
}
