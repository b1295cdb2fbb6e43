import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigFileError, readConfigSource, resolveConfigSource } from "./index.js";

let dir: string;
let mainFile: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "oc-env-"));
  mainFile = path.join(dir, "openclaw.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(text: string, env: NodeJS.ProcessEnv): Promise<unknown> {
  await writeFile(mainFile, text);
  const { raw } = await readConfigSource(mainFile);
  return resolveConfigSource(raw, { file: mainFile, env });
}

describe("${VAR} substitution", () => {
  it("replaces variables in every string value, including arrays and included files", async () => {
    await writeFile(path.join(dir, "tg.json5"), `{ botToken: "\${TG_TOKEN}" }`);
    const env = { TG_TOKEN: "123:abc", HOST: "example.org", PORT: "8080" };
    expect(
      await load(
        `{ channels: { telegram: { $include: "tg.json5" } }, urls: ["https://\${HOST}:\${PORT}/x"], n: 3, b: true, "\${KEY}": "k" }`,
        env,
      ),
    ).toEqual({
      channels: { telegram: { botToken: "123:abc" } },
      urls: ["https://example.org:8080/x"],
      n: 3,
      b: true,
      "${KEY}": "k",
    });
  });

  it("turns $${VAR} into a literal ${VAR} without needing the variable", async () => {
    expect(await load(`{ a: "$\${SECRET}", b: "cost: $5 \${lower} \${X}" }`, { X: "x" })).toEqual({
      a: "${SECRET}",
      b: "cost: $5 ${lower} x",
    });
  });

  it("substitutes only effective values: an overridden include value needs no variable", async () => {
    await writeFile(path.join(dir, "base.json5"), `{ token: "\${UNSET_IN_BASE}", mode: "partial" }`);
    expect(await load(`{ t: { $include: "base.json5", token: "literal" } }`, {})).toEqual({
      t: { token: "literal", mode: "partial" },
    });
  });

  it("lists every missing or empty variable with its config path and file", async () => {
    await mkdir(path.join(dir, "parts"));
    const partFile = path.join(dir, "parts", "matrix.json5");
    await writeFile(partFile, `{ accessToken: "\${MATRIX_TOKEN}" }`);
    const err = await load(
      `{
        channels: {
          telegram: { botToken: "\${TG_TOKEN}" },
          matrix: { $include: "parts/matrix.json5" },
        },
        bindings: [{ agentId: "\${AGENT}" }],
        agents: { entries: { "my.agent": { model: "\${EMPTY}/\${SET}" } } },
      }`,
      { EMPTY: "", SET: "ok" },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigFileError);
    const problems = (err as ConfigFileError).problems;
    expect(problems.map((p) => [p.file, p.path])).toEqual([
      [mainFile, "channels.telegram.botToken"],
      [partFile, "channels.matrix.accessToken"],
      [mainFile, "bindings[0].agentId"],
      [mainFile, 'agents.entries["my.agent"].model'],
    ]);
    const message = (err as Error).message;
    for (const name of ["TG_TOKEN", "MATRIX_TOKEN", "AGENT", "EMPTY"]) expect(message).toContain(`variable ${name} is not set`);
    expect(message).not.toContain("variable SET");
    expect(message).toContain(`${mainFile}: channels.telegram.botToken: environment variable TG_TOKEN`);
    expect(message).toContain("$${TG_TOKEN}");
  });

  it("reports include problems and missing variables together", async () => {
    const err = (await load(`{ a: { $include: "nope.json5" }, b: "\${NOPE}" }`, {}).catch((e: unknown) => e)) as ConfigFileError;
    expect(err.problems).toHaveLength(2);
    expect(err.message).toMatch(/2 problems/);
  });

  it("defaults env to process.env", async () => {
    process.env.OPENCLAW_IO_TEST_VAR = "from-process";
    try {
      await writeFile(mainFile, `{ a: "\${OPENCLAW_IO_TEST_VAR}" }`);
      const { raw } = await readConfigSource(mainFile);
      expect(await resolveConfigSource(raw, { file: mainFile })).toEqual({ a: "from-process" });
    } finally {
      delete process.env.OPENCLAW_IO_TEST_VAR;
    }
  });
});
