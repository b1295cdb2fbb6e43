// The composition root: the one place that wires the gateway to the channels runtime (and to
// plugin discovery), so neither imports the other. `openclaw gateway` and the tests start a
// gateway through here.
import type { Gateway, GatewayOptions } from "../gateway/index.js";

/** Gateway options with the inbound pipeline optional (default: the channels runtime's). */
export type GatewayProcessOptions = Omit<GatewayOptions, "pipelineFactory"> & Partial<Pick<GatewayOptions, "pipelineFactory">>;

/**
 * Starts a gateway with the channels runtime's inbound pipeline (access gate, pairing, routing,
 * queue, delivery) unless `options.pipelineFactory` replaces it. Loads the runtime on demand so
 * control API clients importing this module stay light.
 */
export async function startGatewayProcess(options: GatewayProcessOptions): Promise<Gateway> {
  const [{ startGateway }, { createInboundPipeline }] = await Promise.all([
    import("../gateway/index.js"),
    import("../channels-runtime/index.js"),
  ]);
  return startGateway({ ...options, pipelineFactory: options.pipelineFactory ?? createInboundPipeline });
}
