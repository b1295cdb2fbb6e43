import type { InboundPipeline, PipelineDeps, PipelineFactory } from "./types.js";

// The inbound pipeline lives in ../channels-runtime/ (another concern). It is imported by a
// computed specifier so the gateway builds and runs before that module lands.
const CHANNELS_RUNTIME_MODULE = "../channels-runtime/index.js";

/** A pipeline that takes nothing: used when no channels runtime is available. */
function refusingPipeline(deps: PipelineDeps): InboundPipeline {
  let warned = false;
  return {
    async handleInbound(message, account) {
      if (!warned) {
        warned = true;
        deps.log.warn("inbound: this build has no inbound pipeline; channel messages are dropped");
      }
      account.log.warn(`dropped inbound message ${message.messageId}: no inbound pipeline`);
    },
  };
}

/**
 * Default pipeline factory: the channels runtime's `createInboundPipeline(deps)` (access gate,
 * pairing, routing, queue, delivery planner); without one, a pipeline that drops messages with a
 * warning.
 */
export const defaultPipelineFactory: PipelineFactory = async (deps) => {
  let mod: { createInboundPipeline?: PipelineFactory } | undefined;
  try {
    mod = (await import(/* @vite-ignore */ CHANNELS_RUNTIME_MODULE)) as { createInboundPipeline?: PipelineFactory };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ERR_MODULE_NOT_FOUND" && !/Cannot find module|Failed to load url/.test(String((err as Error).message))) throw err;
  }
  return mod?.createInboundPipeline ? mod.createInboundPipeline(deps) : refusingPipeline(deps);
};
