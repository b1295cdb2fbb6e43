import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { startProgress, withProgress } from "./progress.js";

function sink(tty: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY: tty });
  let text = "";
  stream.setEncoding("utf8").on("data", (d: string) => (text += d));
  return { stream, text: () => text };
}

describe("progress", () => {
  it("piped: plain lines, one per step and update, no escape codes", async () => {
    const out = sink(false);
    const p = startProgress(out.stream, "Importing sessions");
    p.update("3/10");
    p.succeed("Imported 10 sessions");
    p.fail("ignored after the end");
    await new Promise((r) => setImmediate(r));
    expect(out.text()).toBe("Importing sessions…\n  3/10\nImported 10 sessions\n");
  });

  it("on a terminal: a spinner line rewritten in place, ended by a ✔ line and the cursor shown again", async () => {
    const out = sink(true);
    const p = startProgress(out.stream, "Checking");
    p.update("Checking again");
    p.succeed("Checked");
    await new Promise((r) => setImmediate(r));
    const text = out.text();
    expect(text.startsWith("\x1b[?25l\r\x1b[2K⠋ Checking")).toBe(true);
    expect(text).toContain("\r\x1b[2K⠙ Checking again");
    expect(text.endsWith("\r\x1b[2K✔ Checked\n\x1b[?25h")).toBe(true);
  });

  it("withProgress ends with the error's first line and rethrows", async () => {
    const out = sink(false);
    await expect(
      withProgress(out.stream, "Checking https://x/v1", async () => {
        throw new Error("refused the key\nmore");
      }),
    ).rejects.toThrow("refused the key");
    await new Promise((r) => setImmediate(r));
    expect(out.text()).toBe("Checking https://x/v1…\nrefused the key\n");
  });
});
