import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The Synapse version `scripts/install-synapse.sh` pins (kept in step with it). */
export const SYNAPSE_VERSION = "1.163.2";

const RELAXED = { per_second: 10_000, burst_count: 100_000 };

/**
 * Rate limits high enough that no test meets them. A test that wants Synapse's real limits
 * passes them back through `startSynapse({ config: { rc_message: { per_second: 0.2, burst_count: 3 } } })`.
 */
export const RELAXED_RATE_LIMITS: Record<string, unknown> = {
  rc_message: RELAXED,
  rc_registration: RELAXED,
  rc_registration_token_validity: RELAXED,
  rc_login: { address: RELAXED, account: RELAXED, failed_attempts: RELAXED },
  rc_admin_redaction: RELAXED,
  rc_joins: { local: RELAXED, remote: RELAXED },
  rc_joins_per_room: RELAXED,
  rc_key_requests: RELAXED,
  rc_3pid_validation: RELAXED,
  rc_invites: { per_room: RELAXED, per_user: RELAXED, per_issuer: RELAXED },
  rc_third_party_invite: RELAXED,
  rc_media_create: RELAXED,
  rc_presence: { per_user: RELAXED },
  rc_delayed_event_mgmt: RELAXED,
  rc_room_creation: RELAXED,
  rc_reports: RELAXED,
  rc_user_directory: RELAXED,
  rc_profile: RELAXED,
};

export interface SynapseConfigInput {
  dataDir: string;
  port: number;
  serverName: string;
  sharedSecret: string;
  signingKeyPath: string;
  overrides?: Record<string, unknown>;
}

/**
 * homeserver.yaml as JSON (YAML is a superset): HTTP client API on 127.0.0.1 only, SQLite,
 * no federation and no key servers, registration closed except through the shared secret,
 * media in `dataDir/media`, presence and URL previews off, relaxed rate limits.
 */
export function synapseConfig(input: SynapseConfigInput): Record<string, unknown> {
  const { dataDir } = input;
  return {
    server_name: input.serverName,
    public_baseurl: `http://127.0.0.1:${input.port}/`,
    pid_file: path.join(dataDir, "homeserver.pid"),
    listeners: [
      {
        port: input.port,
        bind_addresses: ["127.0.0.1"],
        type: "http",
        tls: false,
        x_forwarded: false,
        resources: [{ names: ["client"], compress: false }],
      },
    ],
    database: { name: "sqlite3", args: { database: path.join(dataDir, "homeserver.db") } },
    media_store_path: path.join(dataDir, "media"),
    max_upload_size: "50M",
    signing_key_path: input.signingKeyPath,
    registration_shared_secret: input.sharedSecret,
    enable_registration: false,
    macaroon_secret_key: randomBytes(24).toString("hex"),
    form_secret: randomBytes(24).toString("hex"),
    report_stats: false,
    enable_metrics: false,
    trusted_key_servers: [],
    suppress_key_server_warning: true,
    federation_domain_whitelist: [],
    presence: { enabled: false },
    url_preview_enabled: false,
    // One password prompt covers the next requests (cross-signing upload right after login).
    ui_auth: { session_timeout: "5m" },
    ...RELAXED_RATE_LIMITS,
    ...input.overrides,
  };
}

let signingKey: string | undefined;

/** An ed25519 signing key in Synapse's file format, made once per process (Synapse need not generate one). */
export function signingKeyFile(): string {
  if (!signingKey) {
    const { privateKey } = generateKeyPairSync("ed25519");
    const seed = Buffer.from(String(privateKey.export({ format: "jwk" }).d), "base64url");
    signingKey = `ed25519 a_test ${seed.toString("base64").replace(/=+$/, "")}\n`;
  }
  return signingKey;
}

/**
 * The Python that has Synapse: `SYNAPSE_PYTHON` when set (undefined when that file is missing), else `.synapse/venv/bin/python` in the
 * first folder upward from the working directory (then from this package) that has one.
 */
export function findSynapsePython(): string | undefined {
  const fromEnv = process.env.SYNAPSE_PYTHON;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  const starts = [process.cwd(), path.dirname(fileURLToPath(import.meta.url))];
  for (const start of starts) {
    let dir = path.resolve(start);
    for (;;) {
      const candidate = path.join(dir, ".synapse", "venv", "bin", "python");
      if (existsSync(candidate)) return candidate;
      const parent = path.dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return undefined;
}

/** The error every Synapse test shows when there is no Synapse to start. */
export function synapseMissingMessage(): string {
  const env = process.env.SYNAPSE_PYTHON;
  const where = env
    ? `SYNAPSE_PYTHON=${env} does not exist`
    : `no .synapse/venv/bin/python above ${process.cwd()} and SYNAPSE_PYTHON is not set`;
  return (
    `Synapse is not installed: ${where}. ` +
    `Run \`bash scripts/install-synapse.sh\` (installs matrix-synapse ${SYNAPSE_VERSION} from PyPI into .synapse/venv), ` +
    "or set SYNAPSE_PYTHON to a Python that has matrix-synapse."
  );
}

/**
 * For a test file's `describe.skipIf(!synapseInstalled())`: true when Synapse is installed. When it
 * is not, throws under CI (`CI` set), so CI fails instead of passing without these tests, and
 * elsewhere warns once, naming scripts/install-synapse.sh, and returns false.
 */
export function synapseInstalled(): boolean {
  if (findSynapsePython()) return true;
  if (process.env.CI) throw new Error(`${synapseMissingMessage()} (CI is set, so the Matrix tests cannot be skipped)`);
  console.warn(`skipping the Synapse tests: ${synapseMissingMessage()}`);
  return false;
}
