import { AccountConfigError, PermanentSendError, RateLimitedError, type ChannelPlugin, type InboundMessage } from "@openclaw/plugin-sdk";
import { describe, expect, it } from "vitest";
import { parseUpdate } from "../loopback/inbound.js";
import type { LoopbackAccount } from "../loopback/plugin.js";
import { defineChannelConformance, type ConformanceCase } from "./define.js";
import { loopbackConformanceHarness } from "./loopback-harness.js";
import { runChannelConformance } from "./vitest.js";

// The suite against the reference channel, and against the same channel without edits.
runChannelConformance({ name: "loopback", createHarness: () => loopbackConformanceHarness() });
runChannelConformance({
  name: "loopback without edit or delete",
  createHarness: () => loopbackConformanceHarness({ capabilities: { edit: false, delete: false } }),
});
runChannelConformance({
  name: "loopback that needs a name (brokenAccountConfig)",
  createHarness: () => {
    const harness = loopbackConformanceHarness({ accountConfig: { name: "Conformance bot" } });
    const resolve = harness.plugin.resolveAccount.bind(harness.plugin);
    harness.plugin.resolveAccount = (input) => {
      if (typeof (input.config as { name?: unknown }).name !== "string")
        throw new AccountConfigError("channels.loopback.name is not set; give the bot a name", "channels.loopback.name");
      return resolve(input);
    };
    return { ...harness, brokenAccountConfig: {} };
  },
});
runChannelConformance({
  name: "loopback with a replace native stream and files",
  createHarness: () => loopbackConformanceHarness({ capabilities: { nativeStream: "replace", media: true } }),
});
runChannelConformance({
  name: "loopback with an append native stream, without typing",
  createHarness: () => loopbackConformanceHarness({ capabilities: { nativeStream: "append", typing: false } }),
});
runChannelConformance({
  name: "loopback with a 700-character edit limit and slow calls",
  createHarness: () => {
    const harness = loopbackConformanceHarness({ platform: { textLimit: 1000, editLimit: 700 } });
    harness.loopback.setLatency(3);
    return harness;
  },
});

/** Runs one case against a loopback harness whose plugin `mutate` broke; resolves with the failure. */
async function failureOf(
  caseId: ConformanceCase["id"],
  mutate: (plugin: ChannelPlugin<LoopbackAccount>, harness: ReturnType<typeof loopbackConformanceHarness>) => void,
  options: Parameters<typeof loopbackConformanceHarness>[0] = {},
): Promise<Error> {
  const suite = defineChannelConformance({
    name: "broken",
    timeoutMs: 3000,
    createHarness: () => {
      const harness = loopbackConformanceHarness(options);
      mutate(harness.plugin, harness);
      return harness;
    },
  });
  const session = await suite.start();
  try {
    await suite.cases.find((c) => c.id === caseId)!.run(session);
  } catch (error) {
    return error as Error;
  } finally {
    await session.stop().catch(() => undefined);
  }
  throw new Error(`case ${caseId} passed against a broken plugin`);
}

describe("the conformance suite catches broken channels", () => {
  it("a plugin that reports a 429 as an ordinary error", async () => {
    const error = await failureOf("rate-limit-honoured", (plugin) => {
      const connect = plugin.connect.bind(plugin);
      plugin.connect = async (ctx) => {
        const outbound = await connect(ctx);
        const wrap =
          <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
          async (...args: A): Promise<R> => {
            try {
              return await fn(...args);
            } catch (err) {
              if (err instanceof RateLimitedError) throw new PermanentSendError("HTTP 429");
              throw err;
            }
          };
        return { ...outbound, sendText: wrap(outbound.sendText), editText: wrap(outbound.editText!) };
      };
    });
    expect(error.message).toContain("must surface as RateLimitedError");
  });

  it("a plugin that hands malformed messages to receive", async () => {
    const error = await failureOf("bad-inbound-rejected", (plugin, harness) => {
      // Forwards whatever the platform pushes, unvalidated.
      const connect = plugin.connect.bind(plugin);
      plugin.connect = async (ctx) => {
        const session = await connect({ ...ctx, receive: async () => undefined });
        const disconnect = harness.loopback.bot(ctx.accountId).connect(async (payload) => {
          const parsed = parseUpdate(payload, plugin.id, ctx.accountId);
          await ctx.receive(parsed.kind === "message" ? parsed.message : (payload as InboundMessage));
        });
        return { ...session, closed: session.closed.then(() => disconnect()) };
      };
    });
    expect(error.message).toMatch(/well-formed|messageId/);
  });

  it("a plugin that declares edits it cannot make", async () => {
    const error = await failureOf("contract-shape", (plugin) => {
      const connect = plugin.connect.bind(plugin);
      plugin.connect = async (ctx) => {
        const session = await connect(ctx);
        return { sendText: session.sendText, closed: session.closed };
      };
    });
    expect(error.message).toContain("capabilities.edit is true exactly when the outbound has editText");
  });

  it("a plugin that declares an append stream but shows each update as the whole text", async () => {
    const error = await failureOf(
      "native-stream",
      (plugin) => {
        plugin.config = { ...plugin.config, capabilities: { ...plugin.config.capabilities, nativeStream: "replace" } };
      },
      { capabilities: { nativeStream: "append" } },
    );
    expect(error.message).toMatch(/exactly once|the whole final/);
  });

  it("a plugin whose sends ignore the text limit", async () => {
    const error = await failureOf("long-reply-chunked", (plugin) => {
      plugin.config = { ...plugin.config, capabilities: { ...plugin.config.capabilities, textLimit: 100_000 } };
    });
    expect(error.message).toMatch(/too long|limit|at least 3/);
  });
});
