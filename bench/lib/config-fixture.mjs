// The config fixture of bench/config-cli.mjs: five channels with two accounts each, three agents and
// three bindings, written the current (nested) way and the legacy (flat) way.

export const SECRETS = {
  TELEGRAM_BOT_TOKEN: "123456:bench-main",
  TELEGRAM_NEWS_BOT_TOKEN: "123456:bench-news",
  TELEGRAM_OPS_BOT_TOKEN: "123456:bench-ops",
  MATRIX_ACCESS_TOKEN: "syt_bench_main",
  MATRIX_WORK_TOKEN: "syt_bench_work",
  MATRIX_LAB_TOKEN: "syt_bench_lab",
  FEISHU_APP_SECRET: "bench-feishu-secret",
  QQBOT_CLIENT_SECRET: "bench-qq-secret",
};

const groups = (prefix) => ({
  "*": { requireMention: true },
  [`${prefix}-1001`]: { requireMention: false, systemPrompt: "Answer briefly." },
  [`${prefix}-1002`]: { allowFrom: ["111", "222"], systemPrompt: "Keep answers short in this group." },
});

/** Per channel: shared keys, then streaming for root and the two accounts, current and legacy. */
const CHANNELS = {
  telegram: {
    root: {
      botToken: "${TELEGRAM_BOT_TOKEN}",
      dmPolicy: "pairing",
      groupPolicy: "allowlist",
      groups: groups("-100"),
      replyToMode: "first",
    },
    accounts: {
      news: { botToken: "${TELEGRAM_NEWS_BOT_TOKEN}", name: "News digest" },
      ops: { botToken: "${TELEGRAM_OPS_BOT_TOKEN}", dmPolicy: "allowlist", allowFrom: ["42", "43"] },
    },
    current: {
      root: { mode: "partial", chunkMode: "newline", preview: { chunk: { minChars: 150, maxChars: 700 } } },
      news: { mode: "progress", block: { enabled: true, coalesce: { idleMs: 1500 } } },
      ops: { mode: "off" },
    },
    legacy: {
      root: { streamMode: "partial", chunkMode: "newline", draftChunk: { minChars: 150, maxChars: 700 } },
      news: { streaming: "progress", blockStreaming: true, blockStreamingCoalesce: { idleMs: 1500 } },
      ops: { streaming: false },
    },
  },
  matrix: {
    root: {
      homeserver: "https://matrix.example.org",
      userId: "@assistant:example.org",
      accessToken: "${MATRIX_ACCESS_TOKEN}",
      groups: groups("!room"),
    },
    accounts: {
      work: { userId: "@work:example.org", accessToken: "${MATRIX_WORK_TOKEN}", encryption: true },
      lab: { userId: "@lab:example.org", accessToken: "${MATRIX_LAB_TOKEN}", autoJoin: true },
    },
    current: { root: { mode: "quiet", block: { enabled: true } }, work: { mode: "partial" }, lab: { mode: "off", chunkMode: "newline" } },
    legacy: {
      root: { streaming: "quiet", blockStreaming: true },
      work: { streaming: true },
      lab: { streaming: false, chunkMode: "newline" },
    },
  },
  feishu: {
    root: { appId: "cli_bench_main", appSecret: "${FEISHU_APP_SECRET}", domain: "feishu", connectionMode: "websocket" },
    accounts: {
      intl: { appId: "cli_bench_intl", domain: "lark" },
      hooks: { appId: "cli_bench_hooks", connectionMode: "webhook", webhookPath: "/feishu/events", webhookPort: 8443 },
    },
    current: {
      root: { mode: "partial", block: { coalesce: { minChars: 300 } } },
      intl: { mode: "off" },
      hooks: { chunkMode: "newline", block: { enabled: true } },
    },
    legacy: {
      root: { streaming: true, blockStreamingCoalesce: { minChars: 300 } },
      intl: { streaming: false },
      hooks: { chunkMode: "newline", blockStreaming: true },
    },
  },
  qqbot: {
    root: { appId: "102030405", clientSecret: "${QQBOT_CLIENT_SECRET}", dmPolicy: "pairing" },
    accounts: {
      guild: { appId: "102030406", sandbox: true },
      c2c: { appId: "102030407" },
    },
    current: { root: { mode: "partial", nativeTransport: true }, guild: { mode: "off" }, c2c: { nativeTransport: true } },
    legacy: { root: { streaming: true }, guild: { streaming: false }, c2c: { streaming: { c2cStreamApi: true } } },
  },
  whatsapp: {
    root: { dmPolicy: "allowlist", allowFrom: ["+15550000001", "+15550000002"], sendReadReceipts: true },
    accounts: {
      personal: { selfChatMode: true, allowFrom: ["+15550000003"] },
      family: { groupPolicy: "open" },
    },
    current: { root: { chunkMode: "newline", block: { enabled: true } }, personal: { block: { enabled: false } }, family: {} },
    legacy: {
      root: { chunkMode: "newline", blockStreaming: true },
      personal: { blockStreaming: false },
      family: { streamMode: "partial" },
    },
  },
};

/** Current streaming objects go under `streaming`; legacy keys sit flat next to the others. */
function channelEntry(base, streaming, legacy) {
  if (legacy) return { ...base, ...streaming };
  return Object.keys(streaming).length > 0 ? { ...base, streaming } : { ...base };
}

export function buildConfig(legacy) {
  const channels = {};
  for (const [id, spec] of Object.entries(CHANNELS)) {
    const streaming = legacy ? spec.legacy : spec.current;
    const accounts = {};
    for (const [accountId, base] of Object.entries(spec.accounts)) {
      accounts[accountId] = channelEntry(base, streaming[accountId] ?? {}, legacy);
    }
    channels[id] = { ...channelEntry(spec.root, streaming.root, legacy), accounts };
  }
  const agents = [
    { id: "main", default: true, name: "Assistant", identity: { name: "Ada", emoji: "🦉" } },
    {
      id: "work",
      name: "Work",
      workspace: "~/work-agent",
      model: { primary: "anthropic/claude-sonnet-4-5", fallbacks: ["openai/gpt-4o"] },
      skills: ["notes", "calendar"],
    },
    { id: "family", name: "Family", tools: { profile: "messaging", deny: ["exec"] }, humanDelay: { mode: "natural" } },
  ];
  const entries = Object.fromEntries(agents.map(({ id, ...rest }) => [id, rest]));
  return {
    agents: {
      defaults: {
        model: "anthropic/claude-sonnet-4-5",
        models: { "anthropic/claude-sonnet-4-5": { alias: "sonnet" }, "openai/gpt-4o": { alias: "4o", params: { temperature: 0.3 } } },
        blockStreamingDefault: "off",
        blockStreamingChunk: { minChars: 600, maxChars: 1100, breakPreference: "paragraph" },
        blockStreamingCoalesce: { idleMs: 1200 },
        heartbeat: { every: "45m", activeHours: { start: "08:00", end: "22:00" } },
        userTimezone: "Europe/Berlin",
      },
      ...(legacy ? { list: agents } : { entries }),
    },
    bindings: [
      { agentId: "work", match: { channel: "matrix", accountId: "work" } },
      { agentId: "family", match: { channel: "whatsapp", accountId: "family" } },
      { agentId: "work", match: { channel: "telegram", peer: { kind: "group", id: "-100-1001" } } },
    ],
    session: legacy
      ? { dmScope: "per-channel-peer", idleMinutes: 240 }
      : { dmScope: "per-channel-peer", reset: { mode: "idle", idleMinutes: 240 } },
    messages: { queue: { mode: "steer", debounceMs: 400 } },
    channels,
  };
}

export const fixtureText = (config) => `// openclaw.json written by bench/config-cli.mjs\n${JSON.stringify(config, null, 2)}\n`;
