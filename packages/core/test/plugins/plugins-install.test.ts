import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { coreCheckoutRoot, FIRST_PARTY_CHANNELS } from "../../src/plugins/first-party.js";
import { CLI_ENTRY, runCli } from "../helpers/cli.js";
import { type CliHome, makeCliHome } from "./cli-home.js";
import { authorFolder, fixture, HOST_SDK, HOST_ZOD, hostInstanceofHolds, resolvedFrom } from "./helpers.js";

let h: CliHome;
beforeEach(() => (h = makeCliHome()));
afterEach(() => h.cleanup());

/** The plugin's folder in the extensions prefix: a real folder, never a link to where it came from. */
function expectCopy(packageName: string): string {
  const dir = path.join(h.ext, "node_modules", packageName);
  const info = lstatSync(dir);
  expect(info.isSymbolicLink(), `${dir} is a link to ${info.isSymbolicLink() ? realpathSync(dir) : ""}`).toBe(false);
  expect(info.isDirectory()).toBe(true);
  return dir;
}

describe("installs are copies that use the host's @openclaw/plugin-sdk and zod", () => {
  it("a folder install stays a copy through later installs, refused installs and a reinstall", async () => {
    const author = authorFolder(h.home);
    const writeConfig = () => writeFileSync(h.configPath, JSON.stringify({ channels: { zodchat: { token: "t" } } }));

    const first = await h.cli("plugins", "install", author);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`Installed plugin "zodchat" (openclaw-zodchat@1.0.0) from ${author} into ${h.ext}.`);
    expectCopy("openclaw-zodchat");

    // A later install of another plugin (from a tarball) runs npm over the whole prefix.
    const later = await h.cli("plugins", "install", h.pack(fixture("fakechat")));
    expect(later.code, later.stderr).toBe(0);
    expectCopy("openclaw-zodchat");

    // A refused install undoes itself with npm too.
    const refused = await h.cli("plugins", "install", h.pack(fixture("futurechat")));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Nothing was installed (openclaw-futurechat was removed again).");
    expectCopy("openclaw-zodchat");
    expectCopy("openclaw-fakechat");

    const again = await h.cli("plugins", "install", author);
    expect(again.code, again.stderr).toBe(0);
    const installed = expectCopy("openclaw-zodchat");

    // One SDK and one zod: the host's, not the author's copies.
    expect(resolvedFrom(installed, "@openclaw/plugin-sdk")).toBe(realpathSync(HOST_SDK));
    expect(resolvedFrom(installed, "zod")).toBe(HOST_ZOD);
    expect(hostInstanceofHolds(installed, path.join(HOST_SDK, "dist", "index.js"))).toBe(true);

    // The plugin imports `z` from "zod" (a peer dependency): its config module loads.
    writeConfig();
    const validate = await h.cli("config", "validate");
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stderr).toBe("");

    // The packed copies are kept (npm never needs the author's folder again), one per plugin.
    expect(readdirSync(path.join(h.ext, "packages")).sort()).toEqual([
      expect.stringMatching(/^openclaw-fakechat-1\.0\.0-[0-9a-f]{12}\.tgz$/),
      expect.stringMatching(/^openclaw-zodchat-1\.0\.0-[0-9a-f]{12}\.tgz$/),
    ]);
    rmSync(author, { recursive: true });
    const afterAuthorLeft = await h.cli("plugins", "install", h.pack(fixture("fakechat")));
    expect(afterAuthorLeft.code, afterAuthorLeft.stderr).toBe(0);
    expectCopy("openclaw-zodchat");
    expect((await h.listJson()).plugins.map((p) => [p.id, p.status])).toEqual([
      ["fakechat", "enabled"],
      ["zodchat", "enabled"],
    ]);
  });
});

describe("the @openclaw npm scope", () => {
  it("is refused, saying whose scope it is and how our channels are installed", async () => {
    for (const spec of ["@openclaw/matrix", "@openclaw/telegram@0.1.0", "@openclaw/some-plugin", "npm:@openclaw/matrix@1"]) {
      const r = await h.cli("plugins", "install", spec);
      expect(r.code, spec).toBe(1);
      expect(r.stderr).toContain(`Refusing to install ${spec} from the npm registry: the @openclaw scope there belongs to another project`);
    }
    const matrix = await h.cli("plugins", "install", "@openclaw/matrix");
    expect(matrix.stderr).toContain("To install OpenClaw's own matrix channel, run `openclaw plugins install matrix`");
    const other = await h.cli("plugins", "install", "@openclaw/some-plugin");
    expect(other.stderr).toContain("OpenClaw's own channels are installed by short name (telegram, matrix, feishu, qqbot, whatsapp)");
    expect(other.stderr).toContain("from a folder or a .tgz tarball");
    expect(existsSync(h.ext)).toBe(false); // npm never ran
  });
});

describe("first-party channels by short name", () => {
  /**
   * A checkout of OpenClaw in a temporary folder: a copy of the built core (so it finds the
   * checkout from its own location) and a telegram channel folder, but no matrix folder.
   */
  function fakeCheckout(): { root: string; cli: (...args: string[]) => ReturnType<typeof runCli> } {
    const root = path.join(h.home, "openclaw-checkout");
    const realCore = path.resolve(path.dirname(CLI_ENTRY), "..", "..");
    const core = path.join(root, "packages", "core");
    mkdirSync(core, { recursive: true });
    cpSync(path.join(realCore, "dist"), path.join(core, "dist"), { recursive: true });
    cpSync(path.join(realCore, "package.json"), path.join(core, "package.json"));
    symlinkSync(path.join(realCore, "node_modules"), path.join(core, "node_modules"), "dir");
    const telegram = path.join(root, "extensions", "telegram");
    cpSync(fixture("fakechat"), telegram, { recursive: true });
    for (const file of readdirSync(telegram)) {
      const full = path.join(telegram, file);
      writeFileSync(
        full,
        readFileSync(full, "utf8").replaceAll("openclaw-fakechat", "@openclaw/telegram").replaceAll("fakechat", "telegram"),
      );
    }
    const entry = path.join(core, "dist", "cli", "main.js");
    return { root, cli: (...args) => runCli(args, { home: h.home, env: h.env, entry }) };
  }

  it("installs from extensions/<name> of the checkout core runs from; says how to get a missing one", async () => {
    const checkout = fakeCheckout();

    const notACheckout = await checkout.cli("plugins", "install", "matrix");
    expect(notACheckout.code).toBe(1);
    expect(notACheckout.stderr).toContain(
      `"matrix" is OpenClaw's own matrix channel (@openclaw/matrix); it is installed from the folder extensions/matrix of the OpenClaw checkout, never from the npm registry.`,
    );
    expect(notACheckout.stderr).toContain("this OpenClaw does not run from a checkout of the OpenClaw repository");

    writeFileSync(path.join(checkout.root, "pnpm-workspace.yaml"), "packages:\n  - packages/*\n  - extensions/*\n");
    const missing = await checkout.cli("plugins", "install", "matrix");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`${path.join(checkout.root, "extensions", "matrix")} does not exist`);
    expect(missing.stderr).toContain("Update it (`git pull`) and build it (`bash scripts/bootstrap.sh`)");
    expect(existsSync(h.ext)).toBe(false);

    // A folder that is there but not built yet.
    const whatsapp = path.join(checkout.root, "extensions", "whatsapp");
    cpSync(path.join(checkout.root, "extensions", "telegram"), whatsapp, { recursive: true });
    const manifest = JSON.parse(readFileSync(path.join(whatsapp, "package.json"), "utf8"));
    writeFileSync(path.join(whatsapp, "package.json"), JSON.stringify({ ...manifest, name: "@openclaw/whatsapp" }));
    rmSync(path.join(whatsapp, "index.js"));
    const unbuilt = await checkout.cli("plugins", "install", "whatsapp");
    expect(unbuilt.code).toBe(1);
    expect(unbuilt.stderr).toContain(`${whatsapp} cannot be installed:`);
    expect(unbuilt.stderr).toContain('openclaw.plugin.entry "./index.js" does not exist (is the plugin built?)');
    expect(unbuilt.stderr).toContain("Fix: build it with `pnpm --filter @openclaw/whatsapp build` in the checkout. Nothing was installed.");

    const install = await checkout.cli("plugins", "install", "telegram");
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout).toContain(
      `Installed plugin "telegram" (@openclaw/telegram@1.0.0) from this checkout's extensions/telegram into ${h.ext}.`,
    );
    // Progress on stderr: plain lines when piped, no spinner.
    expect(install.stderr).toContain("Installing telegram…\n");
    expect(install.stderr).toContain("Installed @openclaw/telegram@1.0.0\n");
    expect(install.stderr).not.toContain("\x1b[");
    expectCopy(path.join("@openclaw", "telegram"));
    const [listed] = (await h.listJson()).plugins;
    expect(listed).toMatchObject({
      id: "telegram",
      packageName: "@openclaw/telegram",
      source: "extensions",
      status: "enabled",
      installedFrom: { id: "telegram", kind: "first-party", from: "telegram" },
    });

    // The same folder by path, from the root of the clone, works as well.
    const byPath = await runCli(["plugins", "install", "./extensions/telegram"], { home: h.home, env: h.env, cwd: checkout.root });
    expect(byPath.code, byPath.stderr).toBe(0);
    expect(byPath.stdout).toContain(`from ${path.join(checkout.root, "extensions", "telegram")} into`);
    expectCopy(path.join("@openclaw", "telegram"));
  });

  it("the table matches this checkout: core finds it from its own location, and each existing folder holds the named package", () => {
    const root = fileURLToPath(new URL("../../../../", import.meta.url)).replace(/\/$/, "");
    expect(coreCheckoutRoot()).toBe(root);
    const present = FIRST_PARTY_CHANNELS.filter((c) => existsSync(path.join(root, c.folder, "package.json")));
    expect(present.map((c) => c.id)).toContain("telegram");
    for (const channel of present) {
      const pkg = JSON.parse(readFileSync(path.join(root, channel.folder, "package.json"), "utf8"));
      expect([pkg.name, pkg.openclaw?.plugin?.id]).toEqual([channel.packageName, channel.id]);
    }
  });
});
