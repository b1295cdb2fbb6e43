import { describe, expect, it } from "vitest";
import { credentialFields, mergePlan, planOnboarding } from "./index.js";

const schema = {
  properties: {
    dmPolicy: { description: "Who may message the bot directly" },
    appId: { type: "string", description: "The app's App ID (default account: CHAT_APP_ID)." },
    botToken: { type: "string", description: "Bot token from the console (default account: CHAT_BOT_TOKEN)." },
    tokenFile: { type: "string", description: "File holding the bot token (instead of botToken)." },
    password: { type: "string", description: "The bot's password (default account: CHAT_PASSWORD): kept in the account folder." },
  },
};

describe("credentialFields", () => {
  it("takes the keys documented with a default-account variable; secrets get their file twin", () => {
    expect(credentialFields(schema)).toEqual([
      { key: "appId", description: schema.properties.appId.description, env: "CHAT_APP_ID", secret: false },
      { key: "botToken", description: schema.properties.botToken.description, env: "CHAT_BOT_TOKEN", secret: true, fileKey: "tokenFile" },
      { key: "password", description: schema.properties.password.description, env: "CHAT_PASSWORD", secret: true },
    ]);
    expect(credentialFields(undefined)).toEqual([]);
  });
});

describe("planOnboarding", () => {
  const provider = { id: "deepseek", preset: "deepseek", baseUrl: "https://api.deepseek.com/v1", model: "deepseek-chat" };

  it("stores each secret as asked: a 0600 file, a ${VAR} reference, or the value", () => {
    const plan = planOnboarding(
      {
        provider: { ...provider, apiKey: { value: "sk-1", env: "DEEPSEEK_API_KEY", storage: "env" } },
        channels: [
          {
            id: "chat",
            values: { appId: "app-1", botToken: "tok-1", password: "pw-1" },
            secrets: { botToken: { storage: "file", fileKey: "tokenFile" }, password: { storage: "env", env: "CHAT_PASSWORD" } },
            dmPolicy: "open",
            allowFrom: [],
          },
        ],
      },
      "/state",
    );
    expect(plan.patch).toEqual({
      models: { providers: { deepseek: { baseUrl: "https://api.deepseek.com/v1", apiKey: "${DEEPSEEK_API_KEY}" } } },
      agents: { defaults: { model: "deepseek/deepseek-chat" } },
      channels: {
        chat: {
          dmPolicy: "open",
          appId: "app-1",
          tokenFile: "/state/secrets/chat-botToken",
          password: "${CHAT_PASSWORD}",
          allowFrom: ["*"],
        },
      },
    });
    expect(plan.secretFiles).toEqual([{ path: "/state/secrets/chat-botToken", text: "tok-1\n" }]);
  });

  it("a built-in provider at its usual address gets no baseUrl; the current config keeps its other keys", () => {
    const plan = planOnboarding(
      {
        provider: { id: "openai", preset: "openai", baseUrl: "https://api.openai.com/v1", model: "gpt-4o-mini" },
        channels: [],
        extra: [{ path: "gateway.port", value: 19000 }],
      },
      "/state",
    );
    expect(plan.patch).toEqual({ agents: { defaults: { model: "openai/gpt-4o-mini" } }, gateway: { port: 19000 } });
    const anthropic = planOnboarding(
      {
        provider: {
          id: "anthropic",
          preset: "anthropic",
          baseUrl: "https://api.anthropic.com",
          apiKey: { value: "k", env: "ANTHROPIC_API_KEY", storage: "env" },
          model: "claude-x",
        },
        channels: [],
      },
      "/state",
    );
    expect(anthropic.patch.models).toEqual({ providers: { anthropic: { apiKey: "${ANTHROPIC_API_KEY}" } } });
    expect(mergePlan({ agents: { defaults: { workspace: "/w" } }, session: { dmScope: "main" } }, plan)).toEqual({
      agents: { defaults: { workspace: "/w", model: "openai/gpt-4o-mini" } },
      session: { dmScope: "main" },
      gateway: { port: 19000 },
    });
  });
});
