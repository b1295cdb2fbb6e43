/** Before/after fixtures for every doctor migration rule. */
export interface MigrationCase {
  name: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  /** Substrings expected among the change lines, in order. */
  changes?: string[];
  /** Substrings expected among the problems (invalid legacy values are reported, not guessed). */
  problems?: string[];
  /** Whether `after` must validate (false for cases that keep invalid legacy values). */
  valid?: boolean;
}

export const CASES: MigrationCase[] = [
  // ---- telegram: every row of the legacy table ----
  {
    name: "telegram streamMode -> streaming.mode",
    before: { channels: { telegram: { streamMode: "block" } } },
    after: { channels: { telegram: { streaming: { mode: "block" } } } },
    changes: ['channels.telegram.streamMode -> channels.telegram.streaming.mode: "block"'],
  },
  {
    name: "telegram string streaming -> streaming.mode (trimmed, lowercased)",
    before: { channels: { telegram: { streaming: " Progress " } } },
    after: { channels: { telegram: { streaming: { mode: "progress" } } } },
  },
  {
    name: "telegram boolean streaming true/false",
    before: { channels: { telegram: { streaming: true, accounts: { b: { streaming: false } } } } },
    after: { channels: { telegram: { streaming: { mode: "partial" }, accounts: { b: { streaming: { mode: "off" } } } } } },
  },
  {
    name: "telegram flat keys incl. draftChunk",
    before: {
      channels: {
        telegram: {
          chunkMode: "newline",
          blockStreaming: true,
          blockStreamingCoalesce: { minChars: 300, idleMs: 400 },
          draftChunk: { minChars: 100, maxChars: 600, breakPreference: "newline" },
        },
      },
    },
    after: {
      channels: {
        telegram: {
          streaming: {
            chunkMode: "newline",
            block: { enabled: true, coalesce: { minChars: 300, idleMs: 400 } },
            preview: { chunk: { minChars: 100, maxChars: 600, breakPreference: "newline" } },
          },
        },
      },
    },
    changes: [
      "channels.telegram.chunkMode -> channels.telegram.streaming.chunkMode",
      "channels.telegram.blockStreaming -> channels.telegram.streaming.block.enabled",
      "channels.telegram.blockStreamingCoalesce -> channels.telegram.streaming.block.coalesce",
      "channels.telegram.draftChunk -> channels.telegram.streaming.preview.chunk",
    ],
  },
  {
    name: "string streaming beats streamMode; streamMode always removed",
    before: { channels: { telegram: { streaming: "block", streamMode: "off" } } },
    after: { channels: { telegram: { streaming: { mode: "block" } } } },
    changes: ['channels.telegram.streaming: "block" -> channels.telegram.streaming.mode', "channels.telegram.streamMode removed"],
  },
  {
    name: "nested values win over flat ones (mixed legacy and nested)",
    before: {
      channels: {
        telegram: {
          streamMode: "off",
          blockStreaming: false,
          chunkMode: "length",
          streaming: { mode: "partial", block: { enabled: true }, chunkMode: "newline" },
        },
      },
    },
    after: { channels: { telegram: { streaming: { mode: "partial", block: { enabled: true }, chunkMode: "newline" } } } },
    changes: ["channels.telegram.streamMode removed", "channels.telegram.chunkMode removed", "channels.telegram.blockStreaming removed"],
  },
  {
    name: "telegram accounts migrate independently of the root",
    before: {
      channels: {
        telegram: {
          botToken: "1:a",
          streaming: { mode: "partial" },
          accounts: { alerts: { botToken: "2:b", streamMode: "off", blockStreaming: true }, ops: { draftChunk: { maxChars: 500 } } },
        },
      },
    },
    after: {
      channels: {
        telegram: {
          botToken: "1:a",
          streaming: { mode: "partial" },
          accounts: {
            alerts: { botToken: "2:b", streaming: { mode: "off", block: { enabled: true } } },
            ops: { streaming: { preview: { chunk: { maxChars: 500 } } } },
          },
        },
      },
    },
  },
  {
    name: "invalid streamMode is reported, not guessed",
    before: { channels: { telegram: { streamMode: "banana", blockStreaming: true } } },
    after: { channels: { telegram: { streamMode: "banana", streaming: { block: { enabled: true } } } } },
    problems: ['channels.telegram.streamMode has the invalid value "banana"'],
    valid: false,
  },
  {
    name: "invalid flat value is reported and left in place",
    before: { channels: { telegram: { blockStreaming: "yes", chunkMode: "words" } } },
    after: { channels: { telegram: { blockStreaming: "yes", chunkMode: "words" } } },
    problems: ["channels.telegram.chunkMode has the invalid value", "channels.telegram.blockStreaming has the invalid value"],
    valid: false,
  },
  // ---- matrix ----
  {
    name: "matrix keeps quiet",
    before: { channels: { matrix: { streamMode: "quiet" } } },
    after: { channels: { matrix: { streaming: { mode: "quiet" } } } },
  },
  {
    name: "matrix boolean and flat keys, root and accounts",
    before: {
      channels: {
        matrix: {
          streaming: false,
          blockStreaming: true,
          blockStreamingCoalesce: { idleMs: 200 },
          accounts: { work: { streaming: "quiet", chunkMode: "newline" } },
        },
      },
    },
    after: {
      channels: {
        matrix: {
          streaming: { mode: "off", block: { enabled: true, coalesce: { idleMs: 200 } } },
          accounts: { work: { streaming: { mode: "quiet", chunkMode: "newline" } } },
        },
      },
    },
  },
  {
    name: "matrix rejects a mode it does not have",
    before: { channels: { matrix: { streaming: "block" } } },
    after: { channels: { matrix: { streaming: "block" } } },
    problems: ['channels.matrix.streaming has the invalid value "block"'],
    valid: false,
  },
  // ---- feishu ----
  {
    name: "feishu boolean streaming and flat keys",
    before: { channels: { feishu: { appId: "cli_x", streaming: true, blockStreaming: true, chunkMode: "newline" } } },
    after: { channels: { feishu: { appId: "cli_x", streaming: { mode: "partial", block: { enabled: true }, chunkMode: "newline" } } } },
  },
  {
    name: "feishu streamMode and coalesce in an account",
    before: { channels: { feishu: { accounts: { lark: { streamMode: "off", blockStreamingCoalesce: { maxChars: 900 } } } } } },
    after: { channels: { feishu: { accounts: { lark: { streaming: { mode: "off", block: { coalesce: { maxChars: 900 } } } } } } } },
  },
  // ---- qqbot ----
  {
    name: "qqbot streaming true -> partial + nativeTransport",
    before: { channels: { qqbot: { appId: "1", streaming: true } } },
    after: { channels: { qqbot: { appId: "1", streaming: { mode: "partial", nativeTransport: true } } } },
    changes: ['channels.qqbot.streaming: true -> channels.qqbot.streaming.mode: "partial", channels.qqbot.streaming.nativeTransport: true'],
  },
  {
    name: "qqbot streaming false -> off",
    before: { channels: { qqbot: { streaming: false } } },
    after: { channels: { qqbot: { streaming: { mode: "off" } } } },
  },
  {
    name: "qqbot c2cStreamApi -> nativeTransport, in accounts too; nested wins",
    before: {
      channels: {
        qqbot: {
          streaming: { mode: "partial", c2cStreamApi: true },
          accounts: { two: { streaming: { c2cStreamApi: false, nativeTransport: true } } },
        },
      },
    },
    after: {
      channels: {
        qqbot: {
          streaming: { mode: "partial", nativeTransport: true },
          accounts: { two: { streaming: { nativeTransport: true } } },
        },
      },
    },
    changes: [
      "channels.qqbot.streaming.c2cStreamApi -> channels.qqbot.streaming.nativeTransport",
      "channels.qqbot.accounts.two.streaming.c2cStreamApi removed",
    ],
  },
  {
    name: "qqbot streamMode",
    before: { channels: { qqbot: { streamMode: "off" } } },
    after: { channels: { qqbot: { streaming: { mode: "off" } } } },
  },
  // ---- whatsapp (delivery only) ----
  {
    name: "whatsapp flat keys, mode keys dropped",
    before: {
      channels: {
        whatsapp: {
          streamMode: "partial",
          streaming: true,
          chunkMode: "newline",
          blockStreaming: true,
          blockStreamingCoalesce: { idleMs: 1500 },
          accounts: { personal: { blockStreaming: false } },
        },
      },
    },
    after: {
      channels: {
        whatsapp: {
          streaming: { chunkMode: "newline", block: { enabled: true, coalesce: { idleMs: 1500 } } },
          accounts: { personal: { streaming: { block: { enabled: false } } } },
        },
      },
    },
    changes: ["channels.whatsapp.streamMode removed", "channels.whatsapp.streaming: true removed"],
  },
  // ---- core rules ----
  {
    name: "agents.list -> agents.entries; the default stays the default",
    before: { agents: { defaults: { workspace: "~/w" }, list: [{ id: "Main" }, { id: "ops", default: true, model: "openai/gpt-4o" }] } },
    after: { agents: { defaults: { workspace: "~/w" }, entries: { main: {}, ops: { default: true, model: "openai/gpt-4o" } } } },
    changes: ["agents.list[0] -> agents.entries.main", "agents.list[1] -> agents.entries.ops (stays the default agent)"],
  },
  {
    name: "agents.list with duplicate ids is reported",
    before: { agents: { list: [{ id: "a" }, { id: "A" }] } },
    after: { agents: { list: [{ id: "a" }, { id: "A" }] } },
    problems: ['duplicates agent "a"'],
    valid: false,
  },
  {
    name: "session.idleMinutes -> session.reset.idleMinutes (+ idle mode)",
    before: { session: { idleMinutes: 45 } },
    after: { session: { reset: { idleMinutes: 45, mode: "idle" } } },
  },
  {
    name: "session.idleMinutes: existing nested value wins",
    before: { session: { idleMinutes: 45, reset: { mode: "daily", idleMinutes: 10 } } },
    after: { session: { reset: { mode: "daily", idleMinutes: 10 } } },
    changes: ["session.idleMinutes removed (session.reset.idleMinutes is already set)"],
  },
];
