// Load benchmark: many strangers writing to the bot at once. The real gateway process
// (`openclaw gateway`) with the Telegram plugin against the fake Bot API (@openclaw/testkit) and a
// fake OpenAI-compatible model that streams each answer in 4 pieces (--model-delay ms apart).
// 300 users (--users) each send 3 messages (--messages) in a row, all at once, with:
// - `pairing`: the default config (dmPolicy "pairing", session.dmScope "main"); every user was
//   first approved the way an owner does it: the user writes, gets a pairing code in the chat, the
//   code is approved in the pairing store (what `openclaw pairing approve` does);
// - `open`: dmPolicy "open" with allowFrom ["*"] (the reference's load probe: 900 messages became
//   one turn answered in one chat there).
// Checks (a miss fails the run): every message answered exactly once, in its sender's own chat,
// no answer naming another user's message, one session per user. Reports p50/p99 latency (user
// message -> the whole answer visible in the chat) beside the model's own time for one answer,
// and the gateway's peak RSS (VmHWM) beside its RSS when idle after start. The floor for the wall
// time is Telegram's own limit: the plugin paces an account's sends at 30/s, as the Bot API asks.
// Needs the built packages (`pnpm build`). Usage:
//   node bench/telegram-load.mjs [--users 300] [--messages 3] [--policy pairing|open|both]
//                                [--model-delay 50] [--json] [--log (print the gateway's log)]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    users: { type: "string", default: "300" },
    messages: { type: "string", default: "3" },
    policy: { type: "string", default: "both" },
    "model-delay": { type: "string", default: "50" },
    json: { type: "boolean", default: false },
    log: { type: "boolean", default: false },
  },
});
const USERS = Number(args.users);
const MESSAGES = Number(args.messages);
const MODEL_DELAY_MS = Number(args["model-delay"]);
const POLICIES = args.policy === "both" ? ["pairing", "open"] : [args.policy];
const TIMEOUT_MS = 300_000;

const root = new URL("../", import.meta.url);
const CLI = fileURLToPath(new URL("packages/core/dist/cli/main.js", root));
const TELEGRAM_PLUGIN_DIR = fileURLToPath(new URL("extensions/telegram/", root));
const { startFakeOpenAI, startFakeTelegram } = await import(new URL("packages/testkit/dist/index.js", root).href);
const { createPairingStore } = await import(new URL("packages/core/dist/access/index.js", root).href);
const { withStateDb } = await import(new URL("packages/core/dist/state/index.js", root).href);
const { openAgentStoreReadOnly } = await import(new URL("packages/core/dist/sessions/index.js", root).href);

const TOKEN = /\bm\d+x\d+\b/g;
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const kib = (pid, field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);

/** The complete answer to `tokens`; `tokensOf` reads it back (undefined for anything else). */
const answerFor = (tokens) => `Answer to ${tokens.join("+")}. Done.`;
const tokensOf = (text) => /^Answer to (\S+)\. Done\.$/.exec(text)?.[1].split("+");

/** Tokens in the user messages since the model last answered (an assistant message without tool calls). */
function unansweredTokens(request) {
  const messages = request.body?.messages ?? [];
  const answered = messages.findLastIndex((m) => m.role === "assistant" && !(m.tool_calls?.length ?? 0));
  return messages
    .slice(answered + 1)
    .filter((m) => m.role === "user")
    .flatMap((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)).match(TOKEN) ?? []);
}

function startGateway(home) {
  const env = { ...process.env, HOME: home };
  for (const k of Object.keys(env)) if (k.startsWith("OPENCLAW_")) delete env[k];
  const proc = spawn(process.execPath, [CLI, "gateway", "--port", "0"], { env, cwd: home, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  const exited = new Promise((resolve) => proc.on("exit", (code) => resolve(code)));
  const connected = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway did not connect within 30 s:\n${stderr}`)), 30_000);
    proc.stderr.setEncoding("utf8").on("data", (d) => {
      stderr += d;
      if (/\] connected as @/.test(stderr)) {
        clearTimeout(timer);
        resolve();
      }
    });
    exited.then((code) => reject(new Error(`the gateway exited (${code}) before it connected:\n${stderr}`)));
  });
  return { proc, exited, connected, stderr: () => stderr };
}

async function runPolicy(policy) {
  const home = mkdtempSync(path.join(tmpdir(), "openclaw-load-"));
  const stateDir = path.join(home, ".openclaw");
  const tg = await startFakeTelegram();
  const llm = await startFakeOpenAI({
    responder: (request) => {
      const tokens = unansweredTokens(request);
      if (tokens.length === 0) return [{ text: "Hello." }];
      const text = answerFor(tokens);
      const quarter = Math.ceil(text.length / 4);
      const steps = [];
      for (let i = 0; i < 4; i++) {
        if (i > 0) steps.push({ delayMs: MODEL_DELAY_MS });
        steps.push({ text: text.slice(i * quarter, (i + 1) * quarter) });
      }
      return steps;
    },
  });
  let gateway;
  try {
    const users = Array.from({ length: USERS }, (_, i) => ({ id: 100_000 + i, first_name: `User${i}` }));
    const telegram = { botToken: tg.token, apiRoot: tg.apiRoot };
    if (policy === "open") Object.assign(telegram, { dmPolicy: "open", allowFrom: ["*"] });
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(
      path.join(stateDir, "openclaw.json"),
      JSON.stringify({
        agents: { defaults: { model: "local/llama", skipBootstrap: true, workspace: path.join(home, "ws") } },
        models: { providers: { local: { baseUrl: llm.baseUrl, apiKey: "sk-local", models: [{ id: "llama" }] } } },
        plugins: { load: { paths: [TELEGRAM_PLUGIN_DIR] } },
        channels: { telegram },
      }),
    );
    gateway = startGateway(home);
    await gateway.connected;
    await tg.waitFor(() => tg.isPolling, 30_000);
    const botMessages = (chatId) => tg.chat(chatId).filter((m) => m.from?.id === tg.botUser.id);

    if (policy === "pairing") {
      // Three at a time: the gateway keeps at most 3 pending codes per account.
      for (let i = 0; i < users.length; i += 3) {
        const group = users.slice(i, i + 3);
        for (const user of group) tg.sendUserMessage({ chat: { id: user.id, type: "private" }, from: user, text: "hello" });
        const codes = await tg.waitFor(() => {
          const found = group.map((u) => /approve telegram ([A-Z0-9]{8})/.exec(botMessages(u.id).at(-1)?.text ?? "")?.[1]);
          return found.every(Boolean) && found;
        }, 30_000);
        withStateDb(stateDir, (db) => {
          const store = createPairingStore(db);
          for (const code of codes) store.approve("telegram", code);
        });
      }
    }
    const idleRssKb = kib(gateway.proc.pid, "VmRSS");
    const before = new Map(users.map((u) => [u.id, botMessages(u.id).length]));

    // The load: every user sends all their messages at once.
    const sentAt = new Map();
    const owner = new Map();
    const started = performance.now();
    for (let n = 0; n < MESSAGES; n++) {
      for (const user of users) {
        const token = `m${user.id}x${n}`;
        owner.set(token, user.id);
        sentAt.set(token, performance.now());
        tg.sendUserMessage({ chat: { id: user.id, type: "private" }, from: user, text: `${token} please answer` });
      }
    }
    const answeredAt = new Map();
    const scan = () => {
      const now = performance.now();
      for (const user of users) {
        for (const m of botMessages(user.id).slice(before.get(user.id))) {
          for (const token of tokensOf(m.text ?? "") ?? []) if (!answeredAt.has(token)) answeredAt.set(token, now);
        }
      }
      return answeredAt.size >= sentAt.size;
    };
    await tg.waitFor(scan, TIMEOUT_MS);
    const wallMs = performance.now() - started;
    const peakRssKb = kib(gateway.proc.pid, "VmHWM");
    gateway.proc.kill("SIGTERM");
    const exitCode = await gateway.exited;
    if (args.log) console.error(gateway.stderr());

    // Judge what the users see and what the store holds.
    const problems = [];
    if (exitCode !== 0) problems.push(`the gateway exited with ${exitCode}`);
    for (const user of users) {
      const counts = new Map();
      for (const m of botMessages(user.id).slice(before.get(user.id))) {
        const tokens = tokensOf(m.text ?? "");
        if (!tokens) problems.push(`user ${user.id} sees an unexpected message: ${JSON.stringify(m.text)}`);
        for (const token of tokens ?? []) {
          if (owner.get(token) !== user.id) problems.push(`user ${user.id} got the answer to ${token} (user ${owner.get(token)})`);
          counts.set(token, (counts.get(token) ?? 0) + 1);
        }
      }
      for (let n = 0; n < MESSAGES; n++) {
        const count = counts.get(`m${user.id}x${n}`) ?? 0;
        if (count !== 1) problems.push(`user ${user.id}: message ${n} answered ${count} times`);
      }
    }
    const store = openAgentStoreReadOnly({ stateDir, agentId: "main" });
    const sessions = store?.listSessions() ?? [];
    store?.close();
    const perUser = users.filter((u) => sessions.some((s) => s.key.endsWith(`:${u.id}`))).length;
    if (perUser !== users.length) problems.push(`${perUser} of ${users.length} users have a session of their own`);
    if (sessions.some((s) => s.key === "agent:main:main")) problems.push("a stranger's message reached the owner's main session");

    const latencies = [...sentAt].map(([token, at]) => answeredAt.get(token) - at);
    return {
      policy,
      users: USERS,
      messages: sentAt.size,
      sessions: sessions.length,
      modelCalls: llm.requests.length,
      wallMs: Math.round(wallMs),
      p50Ms: Math.round(quantile(latencies, 0.5)),
      p99Ms: Math.round(quantile(latencies, 0.99)),
      modelAnswerMs: 3 * MODEL_DELAY_MS,
      idleRssMb: Math.round(idleRssKb / 1024),
      peakRssMb: Math.round(peakRssKb / 1024),
      problems,
    };
  } catch (err) {
    if (gateway) err.message += `\n${gateway.stderr().slice(-4000)}`;
    throw err;
  } finally {
    if (gateway && gateway.proc.exitCode === null && gateway.proc.signalCode === null) gateway.proc.kill("SIGKILL");
    await tg.close();
    await llm.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const results = [];
for (const policy of POLICIES) results.push(await runPolicy(policy));
if (args.json) console.log(JSON.stringify(results, null, 2));
else {
  for (const r of results) {
    console.log(
      `${r.policy.padEnd(8)} ${r.users} users x ${MESSAGES}: ${r.messages} messages answered in ${(r.wallMs / 1000).toFixed(1)} s ` +
        `(${r.modelCalls} model calls, ${r.sessions} sessions; at Telegram's 30 sends/s the answers alone need ${(r.modelCalls / 30).toFixed(1)} s); ` +
        `latency p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms ` +
        `(the model alone: ${r.modelAnswerMs} ms an answer); RSS idle ${r.idleRssMb} MB, peak ${r.peakRssMb} MB ` +
        `(x${(r.peakRssMb / r.idleRssMb).toFixed(2)})`,
    );
    for (const p of r.problems.slice(0, 20)) console.log(`  problem: ${p}`);
    if (r.problems.length > 20) console.log(`  ... and ${r.problems.length - 20} more problems`);
  }
}
if (results.some((r) => r.problems.length > 0)) process.exitCode = 1;
