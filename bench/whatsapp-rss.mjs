// The gateway's memory with one WhatsApp account connected (to the fake WhatsApp of
// @openclaw/testkit through its relay and fixture plugin), beside the same gateway with no
// channel, measured side by side in one run: VmRSS 12 s after the account connected (V8's memory
// reducer has returned the startup garbage by then), and VmHWM (the peak). The account is linked
// first the way a user does it: `openclaw channels login whatsapp`, the fake phone scans the QR.
// Needs the built packages (`pnpm build`). Usage: node bench/whatsapp-rss.mjs [--idle-ms 12000]
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
const FIXTURE_PLUGIN = fileURLToPath(new URL("packages/testkit/whatsapp-fixture-plugin", root));
const { startFakeOpenAI } = await import(new URL("packages/testkit/dist/index.js", root).href);
const { startFakeWhatsAppServer } = await import(new URL("packages/testkit/dist/whatsapp/index.js", root).href);

const kib = (pid, field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
const mb = (k) => `${(k / 1024).toFixed(1)} MB`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function envFor(home, extra) {
  const env = { ...process.env, HOME: home, ...extra };
  for (const k of Object.keys(env)) if (k.startsWith("OPENCLAW_") && !(k in extra)) delete env[k];
  return env;
}

/** Runs `openclaw <args>` and resolves with its exit code; `onOutput` sees stdout as it comes. */
function cli(home, env, cliArgs, onOutput = () => undefined) {
  const child = spawn(process.execPath, [CLI, ...cliArgs], { env: envFor(home, env), cwd: home, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (d) => {
    out += d;
    onOutput(out);
  });
  child.stderr.setEncoding("utf8").on("data", (d) => (out += d));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, out })));
}

/** Starts `openclaw gateway`; resolves once its log has `ready` (a regex). */
function gateway(home, env, ready) {
  const child = spawn(process.execPath, [CLI, "gateway", "--port", "0"], {
    env: envFor(home, env),
    cwd: home,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway did not get ready:\n${log}`)), 30_000);
    child.stderr.setEncoding("utf8").on("data", (d) => {
      log += d;
      if (ready.test(log)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
  });
}

async function measure(withWhatsApp) {
  const home = mkdtempSync(path.join(tmpdir(), "openclaw-wa-rss-"));
  const wa = await startFakeWhatsAppServer({ linkedNumber: "+15550001111" });
  const model = await startFakeOpenAI();
  try {
    mkdirSync(path.join(home, ".openclaw"));
    const config = {
      agents: { defaults: { model: "local/llama", skipBootstrap: true } },
      models: { providers: { local: { baseUrl: model.baseUrl, apiKey: "sk-test", models: [{ id: "llama" }] } } },
      ...(withWhatsApp
        ? { plugins: { load: { paths: [FIXTURE_PLUGIN] } }, channels: { whatsapp: { dmPolicy: "open", allowFrom: ["*"] } } }
        : {}),
    };
    writeFileSync(path.join(home, ".openclaw", "openclaw.json"), JSON.stringify(config));
    const env = { OPENCLAW_FAKE_WHATSAPP_URL: wa.url };
    if (withWhatsApp) {
      let scanned = false;
      const login = await cli(home, env, ["channels", "login", "whatsapp"], (out) => {
        if (!scanned && /Scan this QR code/.test(out) && wa.fake.phone.currentQr !== undefined) {
          scanned = true;
          wa.fake.phone.scanQr();
        }
      });
      if (login.code !== 0) throw new Error(`channels login failed:\n${login.out}`);
    }
    const child = await gateway(home, env, withWhatsApp ? /account whatsapp:default connected/ : /listening on ws:/);
    await sleep(IDLE_MS);
    const result = { rss: kib(child.pid, "VmRSS"), peak: kib(child.pid, "VmHWM") };
    child.kill("SIGTERM");
    await new Promise((r) => child.on("exit", r));
    return result;
  } finally {
    await wa.close();
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const baseline = await measure(false);
const whatsapp = await measure(true);
console.log(`gateway, no channel:              RSS ${mb(baseline.rss)} (peak ${mb(baseline.peak)})`);
console.log(
  `gateway, one WhatsApp account:    RSS ${mb(whatsapp.rss)} (peak ${mb(whatsapp.peak)}); x${(whatsapp.rss / baseline.rss).toFixed(2)} the baseline, +${mb(whatsapp.rss - baseline.rss)}`,
);
