import { z } from "zod";

/** `gateway`: the long-running process and its control API. */
export const gatewaySchema = z
  .strictObject({
    mode: z
      .literal("local")
      .optional()
      .describe(
        'Accepted for configs written by the reference OpenClaw, which requires it: "local" is the only mode here (a remote gateway is not supported).',
      ),
    port: z.int().min(1).max(65535).default(18789).describe("Control API port (default 18789; --port and OPENCLAW_GATEWAY_PORT win)."),
    bind: z
      .enum(["loopback", "lan"])
      .default("loopback")
      .describe('"loopback" (default) listens on 127.0.0.1 only; "lan" on all interfaces and requires auth.'),
    auth: z
      .strictObject({
        mode: z
          .enum(["token", "none"])
          .default("token")
          .describe('"token" (default): clients authenticate with auth.token; "none" only on loopback.'),
        token: z
          .string()
          .min(16, "use at least 16 characters")
          .optional()
          .describe("Shared secret for the control API (default: generated and kept in <stateDir>/gateway.token)."),
      })
      .prefault({})
      .describe("How control API clients authenticate."),
    controlUi: z
      .strictObject({
        enabled: z
          .boolean()
          .default(true)
          .describe("Serve the Control UI (the browser app) over HTTP on the gateway's port (default true)."),
        basePath: z
          .string()
          .regex(/^\/[A-Za-z0-9._~/-]*$/, 'use a URL path such as "/" or "/openclaw"')
          .default("/")
          .describe('URL path the Control UI is served under (default "/"; e.g. "/openclaw" for a reverse proxy).'),
        allowedOrigins: z
          .array(z.url())
          .default([])
          .describe(
            'Browser origins (e.g. "https://admin.example.com") whose pages may open the control API, besides the gateway\'s own (http://127.0.0.1:<port>, http://localhost:<port>). Other origins are refused with 403 (default: none).',
          ),
      })
      .prefault({})
      .describe("The Control UI and browser access to the control API."),
  })
  .prefault({})
  .describe("The gateway process.");
