import { describe, expect, it } from "vitest";
import { redactUrl } from "../index.js";

describe("redactUrl", () => {
  it("hides the userinfo and secret parameters, and keeps the rest as written", () => {
    expect(redactUrl("https://bot:hunter22@hooks.example.com/tg?token=abc&lang=en")).toBe(
      "https://***@hooks.example.com/tg?token=***&lang=en",
    );
    expect(redactUrl("https://ghp_personalToken@github.com/o/r.git")).toBe("https://***@github.com/o/r.git");
    expect(redactUrl("http://a:b@c@host:8080/p")).toBe("http://***@host:8080/p");
    expect(redactUrl("https://x.test/v1?api_key=k1&key=k2&access_token=k3&X-Amz-Signature=k4&page=2")).toBe(
      "https://x.test/v1?api_key=***&key=***&access_token=***&X-Amz-Signature=***&page=2",
    );
    expect(redactUrl("https://app.test/cb#access_token=k5&state=s")).toBe("https://app.test/cb#access_token=***&state=s");
  });

  it("leaves URLs without credentials, empty values and plain text unchanged", () => {
    for (const plain of ["https://api.example.com/v1/chat?model=gpt&maxTokens=10", "https://x.test/?token=", "not a url", "mailto:a@b.c"]) {
      expect(redactUrl(plain)).toBe(plain);
    }
  });
});
