import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ProviderError } from "./index.js";
import { loadProviderPackage } from "./provider-package.js";

const request = {
  packageName: "@openclaw/provider-not-installed-anywhere",
  provider: "claude",
  api: "anthropic-messages",
  model: "claude-sonnet-4-5",
  configPath: "/home/me/.openclaw/openclaw.json",
};

describe("loadProviderPackage", () => {
  it("names the config key, the config file and the install command when the package is not installed", async () => {
    const error = await loadProviderPackage(request).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "unknown", provider: "claude", model: "claude-sonnet-4-5" });
    const message = (error as Error).message;
    expect(message).toContain("models.providers.claude");
    expect(message).toContain('api "anthropic-messages"');
    expect(message).toContain("/home/me/.openclaw/openclaw.json");
    expect(message).toContain("not installed");
    expect(message).toContain("`npm install -g @openclaw/provider-not-installed-anywhere`");
  });

  it("installs from this checkout's folder when it has the package", async () => {
    const error = await loadProviderPackage({ ...request, checkoutFolder: "packages/provider-anthropic" }).catch((err: unknown) => err);
    const root = path.resolve(fileURLToPath(new URL("../../../../", import.meta.url)));
    expect((error as Error).message).toContain(`\`npm install -g ${path.join(root, "packages/provider-anthropic")}\``);
  });

  it("imports an installed package once and shares it", async () => {
    const first = await loadProviderPackage<typeof import("node:path")>({ ...request, packageName: "node:path" });
    const second = await loadProviderPackage<typeof import("node:path")>({ ...request, packageName: "node:path" });
    expect(first.join("a", "b")).toBe(`a${first.sep}b`);
    expect(second).toBe(first);
  });
});
