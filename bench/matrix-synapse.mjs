// A Matrix account with encryption on, through a real Synapse (scripts/install-synapse.sh): the
// gateway process with one account connected beside the same gateway with no channel (VmRSS after
// an idle period, VmHWM the peak), and, for a 4000-character reply streamed by the fake model in
// each streaming mode, the events and edits a person's client (an Element-like matrix-js-sdk
// client with Rust crypto) saw and the time from their message to the first visible text.
// Needs the built packages (`pnpm build`). Usage: node bench/matrix-synapse.mjs [--idle-ms 12000]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({ options: { "idle-ms": { type: "string", default: "12000" } } });
const IDLE_MS = Number(args["idle-ms"]);
const root = new URL("../", import.meta.url);
const CLI = fileURLToPath(new URL("packages/core/dist/cli/main.js", root));
const PLUGIN = fileURLToPath(new URL("extensions/matrix/", root));
const { startFakeOpenAI } = await import(new URL("packages/testkit/dist/index.js", root).href);
const { startSynapse, createMatrixHuman, quietMatrixSdkLogs } = await import(new URL("packages/testkit/dist/matrix/index.js", root).href);

const kib = (pid, field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
const mb = (k) => `${(k / 1024).toFixed(1)} MB`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** About 4000 characters of numbered sentences. */
function answer(tag) {
  const out = [];
  for (let i = 1, n = 0; n < 4000; i++) {
    const s = `${tag} sentence ${i} is one more part of a long answer that streams in.`;
    out.push(s);
    n += s.length + 1;
  }
  return out.join(" ").slice(0, 4000).trimEnd();
}

/** The fake model streams the answer in 100-character deltas, 40 ms apart (about 1.6 s). */
const model = await startFakeOpenAI({
  responder: (request) => {
    const user = (request.body?.messages ?? []).filter((m) => m.role === "user").at(-1);
    const tag = /REPLY (\w+)/.exec(typeof user?.content === "string" ? user.content : JSON.stringify(user?.content))?.[1] ?? "x";
    const text = answer(tag);
    const steps = [];
    for (let i = 0; i < text.length; i += 100) steps.push(...(i > 0 ? [{ delayMs: 40 }] : []), { text: text.slice(i, i + 100) });
    return steps;
  },
});

function env(home) {
  const out = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("OPENCLAW_") && !k.startsWith("MATRIX_")) out[k] = v;
  return { ...out, HOME: home };
}

/** Starts the gateway in a fresh home with `channels`; resolves once its log matches `ready`. */
async function gateway(channels, ready) {
  const home = mkdtempSync(path.join(tmpdir(), "openclaw-mx-bench-"));
  mkdirSync(path.join(home, ".openclaw"));
  const config = {
    agents: { defaults: { model: "local/llama", skipBootstrap: true, workspace: path.join(home, "ws") } },
    models: { providers: { local: { baseUrl: model.baseUrl, apiKey: "sk-local", models: [{ id: "llama" }] } } },
    ...(channels ? { plugins: { load: { paths: [PLUGIN] } }, channels } : {}),
  };
  writeFileSync(path.join(home, ".openclaw", "openclaw.json"), JSON.stringify(config));
  const child = spawn(process.execPath, [CLI, "gateway", "--port", "0"], {
    env: env(home),
    cwd: home,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway did not get ready:\n${log}`)), 120_000);
    child.stderr.setEncoding("utf8").on("data", (d) => {
      log += d;
      if (ready.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    child,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.on("exit", r));
      rmSync(home, { recursive: true, force: true });
    },
  };
}

// matrix-js-sdk logs through console.*: keep the results readable.
const print = console.log.bind(console);
for (const level of ["log", "info", "debug", "warn"]) console[level] = () => undefined;
await quietMatrixSdkLogs();
const synapse = await startSynapse();
try {
  const bot = await synapse.registerUser("claw", { displayName: "Claw" });
  const person = await synapse.registerUser("alice");
  const human = await createMatrixHuman({ baseUrl: synapse.baseUrl, ...person, encryption: true });

  const baseline = await gateway(undefined, /listening on ws:/);
  await sleep(IDLE_MS);
  const base = { rss: kib(baseline.child.pid, "VmRSS"), peak: kib(baseline.child.pid, "VmHWM") };
  await baseline.stop();

  const rows = [];
  let rss;
  for (const mode of ["off", "partial", "quiet", "progress"]) {
    const gw = await gateway(
      {
        matrix: {
          homeserver: synapse.baseUrl,
          userId: bot.userId,
          password: bot.password,
          encryption: true,
          streaming: { mode },
          dmPolicy: "allowlist",
          allowFrom: [person.userId],
          autoJoin: "always",
        },
      },
      /account matrix:default connected/,
    );
    if (rss === undefined) {
      await sleep(IDLE_MS);
      rss = { rss: kib(gw.child.pid, "VmRSS"), peak: kib(gw.child.pid, "VmHWM") };
    }
    const room = await human.createDm(bot.userId, { encrypted: true });
    await human.waitForMember(room, bot.userId, "join", 60_000);
    const tag = `m${mode}`;
    const sentAt = Date.now();
    await human.send(room, `REPLY ${tag}`);
    let firstAt;
    const expected = answer(tag).replace(/\s+/g, " ");
    for (;;) {
      const mine = human.timeline(room).filter((m) => m.sender === bot.userId && m.body !== "");
      if (firstAt === undefined && mine.length > 0) firstAt = Date.now();
      const shown = mine
        .map((m) => m.body)
        .join(" ")
        .replace(/\s+/g, " ")
        .trim();
      const live = mine.some((m) => m.content?.["org.matrix.msc4357.live"] !== undefined);
      if (shown === expected && !live) {
        rows.push({
          mode,
          events: mine.length,
          edits: mine.reduce((n, m) => n + m.edits, 0),
          firstMs: firstAt - sentAt,
          doneMs: Date.now() - sentAt,
        });
        break;
      }
      if (Date.now() - sentAt > 60_000)
        throw new Error(`mode ${mode}: the reply did not arrive whole within 60 s:\n${shown.slice(0, 400)}`);
      await sleep(20);
    }
    await human.leave(room);
    await gw.stop();
  }
  await human.stop();

  print(`gateway, no channel:                          RSS ${mb(base.rss)} (peak ${mb(base.peak)})`);
  print(
    `gateway, one Matrix account (encryption on):   RSS ${mb(rss.rss)} (peak ${mb(rss.peak)}); x${(rss.rss / base.rss).toFixed(2)} the baseline, +${mb(rss.rss - base.rss)}`,
  );
  print("4000-character reply (model streams it in ~1.6 s), as the person's client saw it:");
  print("mode      events  edits  first visible  complete");
  for (const r of rows) {
    print(
      `${r.mode.padEnd(9)} ${String(r.events).padStart(6)} ${String(r.edits).padStart(6)} ${`${r.firstMs} ms`.padStart(14)} ${`${r.doneMs} ms`.padStart(9)}`,
    );
  }
} finally {
  await synapse.stop();
  await model.close();
}
