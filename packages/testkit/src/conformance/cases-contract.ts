// Conformance cases: the plugin's shape and declarations, and inbound order.
import assert from "node:assert/strict";
import { SPECIFICATION_VERSION } from "@openclaw/plugin-sdk";
import { CHANNEL_MIGRATION_KINDS } from "@openclaw/plugin-sdk/config";
import type { ConformanceCase } from "./define.js";
import { resolveAsCore } from "./host.js";

const KINDS = ["direct", "group", "channel"];

export const contractShape: ConformanceCase = {
  id: "contract-shape",
  title: "the plugin, its config definition and its declared capabilities match what it does",
  async run(s) {
    const { plugin } = s;
    const env = s.harness.env ?? process.env;
    assert.equal(plugin.specificationVersion, SPECIFICATION_VERSION, `specificationVersion is ${SPECIFICATION_VERSION}`);
    assert.match(plugin.id, /^[a-z0-9][a-z0-9_-]{0,63}$/, "the id is a lowercase channel id");
    for (const key of ["label", "docsPath", "blurb"] as const) assert.equal(typeof plugin.meta[key], "string", `meta.${key} is a string`);
    assert.equal(plugin.config.id, plugin.id, "config.id is the plugin id");
    assert.equal(typeof plugin.config.packageName, "string", "config.packageName names the npm package");
    const parsed = plugin.config.schema.safeParse(s.harness.accountConfig);
    assert.ok(
      parsed.success,
      `the harness's channels.${plugin.id} config passes the plugin's own schema: ${parsed.success ? "" : parsed.error.message}`,
    );
    const delivery = plugin.config.delivery;
    assert.ok(["inherit", "explicit", "unless-off"].includes(delivery.blockReplies), "delivery.blockReplies is valid");
    assert.ok(
      delivery.defaultMode === null || delivery.defaultMode === "off" || delivery.previewModes.includes(delivery.defaultMode),
      "delivery.defaultMode is null, off, or one of delivery.previewModes",
    );
    if (delivery.nativeStream !== undefined) {
      assert.ok(plugin.config.capabilities.nativeStream !== undefined, "a delivery.nativeStream policy needs capabilities.nativeStream");
    }
    assert.doesNotThrow(() => JSON.stringify(plugin.config.migrations), "config.migrations is plain data");
    for (const m of plugin.config.migrations) {
      assert.ok(CHANNEL_MIGRATION_KINDS.includes(m.kind), `migration kind ${String((m as { kind?: unknown }).kind)} is known`);
    }
    assert.ok(plugin.listAccounts(s.harness.accountConfig, env).includes(s.accountId), "listAccounts lists the account");

    const caps = plugin.config.capabilities;
    assert.ok(caps.chatTypes.length > 0 && caps.chatTypes.every((k) => KINDS.includes(k)), "capabilities.chatTypes lists chat kinds");
    assert.ok(Number.isInteger(caps.textLimit) && caps.textLimit > 0, "capabilities.textLimit is a positive integer");
    if (caps.editLimit !== undefined) assert.ok(caps.editLimit > 0, "capabilities.editLimit is positive");
    const o = s.outbound;
    assert.equal(typeof o.editText === "function", caps.edit, "capabilities.edit is true exactly when the outbound has editText");
    assert.equal(
      typeof o.deleteMessage === "function",
      caps.delete,
      "capabilities.delete is true exactly when the outbound has deleteMessage",
    );
    assert.equal(typeof o.typing === "function", caps.typing, "capabilities.typing is true exactly when the outbound has typing");
    if (caps.media) assert.equal(typeof o.sendMedia, "function", "capabilities.media needs sendMedia");
    if (caps.nativeStream !== undefined) assert.equal(typeof o.openStream, "function", "capabilities.nativeStream needs openStream");

    const broken = s.harness.brokenAccountConfig;
    if (broken !== undefined) {
      let error: unknown;
      try {
        // brokenAccountConfig must pass the schema and fail in resolveAccount.
        resolveAsCore(plugin, broken, s.accountId, env);
      } catch (e) {
        error = e;
      }
      assert.ok(
        error instanceof Error && error.name === "AccountConfigError",
        `resolveAccount throws AccountConfigError for brokenAccountConfig (got ${String(error)})`,
      );
      const path = (error as Error & { path?: unknown }).path;
      assert.ok(
        typeof path === "string" && path.startsWith(`channels.${plugin.id}`),
        `the error's path names the config key (got ${String(path)})`,
      );
      assert.ok((error as Error).message.includes(`channels.${plugin.id}`), "the message names the config key");
    }
  },
};

export const inboundInOrder: ConformanceCase = {
  id: "inbound-in-order",
  title: "messages of one chat reach receive() in the order they were sent, each once",
  async run(s) {
    const user = s.newUser();
    const first = await s.directMessage(user, "first of three");
    const from = s.received.length;
    const texts = ["second of three", "third of three"];
    for (const text of texts) await s.harness.platform.userSays({ senderId: user, text, kind: "direct" });
    await s.waitForInbound((m) => m.text === texts[1], "the third message", from);
    const got = s.received
      .slice(from)
      .filter((m) => m.chat.id === first.chat.id)
      .map((m) => m.text);
    assert.deepEqual(got, texts, "in order, once each");
    const ids = new Set([first.messageId, ...s.received.slice(from).map((m) => m.messageId)]);
    assert.equal(ids.size, 3, "every message has its own messageId");
  },
};
