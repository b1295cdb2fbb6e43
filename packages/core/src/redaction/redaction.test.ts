import { describe, expect, it } from "vitest";
import { collectSecretValues, redactSecrets, redactText, SecretScrubber } from "./index.js";

describe("redactText", () => {
  it("hides header values, bearer tokens and URL credentials in running text, and known secrets anywhere", () => {
    expect(redactText("request failed: Authorization: Basic dXNlcjpwYXNz\nnext line")).toBe(
      "request failed: Authorization: ***\nnext line",
    );
    expect(redactText('{"cookie":"sid=abc; theme=dark","x-api-key":"k-123"}')).toBe('{"cookie":"***","x-api-key":"***"}');
    expect(redactText("sent Bearer eyJhbGciOi.payload.sig to the proxy")).toBe("sent Bearer *** to the proxy");
    expect(redactText("could not reach https://u:p@10.0.0.5:8080/v1?key=abc (ECONNREFUSED)")).toBe(
      "could not reach https://***@10.0.0.5:8080/v1?key=*** (ECONNREFUSED)",
    );
    expect(redactText("token 123456:AAbbCCdd in a path /bot123456:AAbbCCdd/getMe", ["123456:AAbbCCdd"])).toBe(
      "token *** in a path /bot***/getMe",
    );
    const plain = "the run took 3 s; bearer tokens are hidden; see https://docs.example.com/a?page=2";
    expect(redactText(plain)).toBe(plain);
  });
});

describe("secrets of a config", () => {
  const config = {
    gateway: { auth: { mode: "token", token: "gateway-token-0001" } },
    models: {
      providers: {
        p: {
          apiKey: "short",
          headers: { Authorization: "Bearer header-token-0002", "X-Session": "session-0003", Accept: "application/json" },
        },
      },
    },
    channels: {
      c: { accounts: { a: { clientSecret: { value: "nested-secret-0004" } } } },
      feishu: { encryptKey: "feishu-encrypt-0005", verificationToken: "feishu-verify-0006" },
    },
  };

  it("collects every value under a secret key or header (8 characters or more), with a bearer's credential alone", () => {
    expect(collectSecretValues(config).sort()).toEqual(
      [
        "Bearer header-token-0002",
        "gateway-token-0001",
        "header-token-0002",
        "nested-secret-0004",
        "session-0003",
        "feishu-encrypt-0005",
        "feishu-verify-0006",
      ].sort(),
    );
  });

  it("redactSecrets hides headers by name and keeps the others; the scrubber cleans free text", () => {
    const out = redactSecrets(config);
    expect(out.models.providers.p.headers).toEqual({ Authorization: "***", "X-Session": "***", Accept: "application/json" });
    const scrubber = new SecretScrubber();
    scrubber.addConfig(config);
    scrubber.add("tiny");
    expect(scrubber.text("login with gateway-token-0001 and session-0003, not tiny")).toBe("login with *** and ***, not tiny");
  });
});
