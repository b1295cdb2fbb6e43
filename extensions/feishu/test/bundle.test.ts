// The published bundle (dist/bundle, what `openclaw plugins install feishu` installs): the long
// connection runs on the Lark SDK's WSClient, bundled alone (dist/bundle/lark-sdk.cjs) and loaded
// with the fetch API's globals hidden, so connecting an account in a fresh node loads no undici
// (axios, inside the SDK, only feature-detects fetch and sends over node:http).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { type FakeFeishu, startFakeFeishu } from "@openclaw/testkit/feishu";
import { afterEach, expect, it } from "vitest";

const ENTRY = new URL("../dist/bundle/index.js", import.meta.url).href;
let fake: FakeFeishu | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

it("connects over the long connection without loading undici, and takes a message", async () => {
  fake = await startFakeFeishu();
  const script = `
    const { runLongConnection } = await import(${JSON.stringify(ENTRY)});
    const stop = new AbortController();
    const log = { debug() {}, info() {}, warn: (m) => console.error(m), error: (m) => console.error(m) };
    const running = runLongConnection({
      appId: process.env.APP_ID, appSecret: process.env.APP_SECRET, domain: process.env.DOMAIN, log, signal: stop.signal,
      onMessage: async (event) => {
        const undici = process.moduleLoadList.some((m) => m.includes("undici"));
        console.log(JSON.stringify({ text: JSON.parse(event.message.content).text, undici }));
        stop.abort();
      },
      onState: (state) => { if (state.connected) console.log(JSON.stringify({ connected: true })); },
    });
    await running;`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    env: { ...process.env, OPENCLAW_CODE_CACHE: "off", APP_ID: fake.appId, APP_SECRET: fake.appSecret, DOMAIN: fake.baseUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: unknown[] = [];
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    for (const line of chunk.split("\n").filter(Boolean)) {
      lines.push(JSON.parse(line));
      if ((JSON.parse(line) as { connected?: boolean }).connected) void fake?.userSends({ openId: "ou_bundle_user", text: "hello bundle" });
    }
  });
  const [code] = await once(child, "exit");
  expect(code, stderr).toBe(0);
  expect(lines).toEqual([{ connected: true }, { text: "hello bundle", undici: false }]);
});
