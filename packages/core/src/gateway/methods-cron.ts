// Control API methods for cron jobs: cron.list, cron.add, cron.update, cron.remove, cron.run.
import { z } from "zod";
import type { AgentRuntime } from "../agent/index.js";
import { CronInputError, parseCronJobInput, parseCronJobPatch, type CronService } from "../scheduler/index.js";
import type { MethodHandler } from "./control-server.js";
import { ControlError } from "./protocol.js";

const scheduleFields = {
  at: z.string().min(1).optional(),
  every: z.string().min(1).optional(),
  cron: z.string().min(1).optional(),
  tz: z.string().min(1).optional(),
  session: z.enum(["isolated", "main"]).optional(),
  target: z.string().min(1).optional(),
  name: z.string().optional(),
  enabled: z.boolean().optional(),
};
const listParams = z.object({ agentId: z.string().min(1).optional() });
const addParams = z.object({ agentId: z.string().min(1).optional(), message: z.string(), ...scheduleFields });
const updateParams = z.object({ id: z.string().min(1), message: z.string().optional(), ...scheduleFields });
const idParams = z.object({ id: z.string().min(1) });

function parse<T extends z.ZodType>(schema: T, params: unknown, method: string): z.output<T> {
  const result = schema.safeParse(params ?? {});
  if (!result.success) throw new ControlError("invalid_params", `${method}: ${z.prettifyError(result.error).replace(/\n/g, "; ")}`);
  return result.data;
}

function checked<T>(method: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof CronInputError) throw new ControlError("invalid_params", `${method}: ${err.message}`);
    throw err;
  }
}

function existing(cron: CronService, id: string, method: string) {
  const job = cron.get(id);
  if (!job) throw new ControlError("not_found", `${method}: no cron job "${id}" (see cron.list)`);
  return job;
}

/**
 * The cron methods over the gateway's scheduler. `cron.add` defaults to the default agent;
 * `cron.run` resolves when the run has finished (its turn and delivery) with the run record.
 */
export function createCronMethods(deps: { runtime: AgentRuntime; cron: CronService }): Record<string, MethodHandler> {
  const { runtime, cron } = deps;
  const agentOf = (requested: string | undefined) => {
    try {
      return runtime.resolveAgent(requested);
    } catch (err) {
      throw new ControlError("not_found", (err as Error).message);
    }
  };
  return {
    "cron.list": (params) => {
      const { agentId } = parse(listParams, params, "cron.list");
      return { jobs: cron.list(agentId === undefined ? undefined : agentOf(agentId)) };
    },
    "cron.add": (params) => {
      const { agentId, ...input } = parse(addParams, params, "cron.add");
      const job = checked("cron.add", () => cron.add(parseCronJobInput(input, agentOf(agentId), Date.now())));
      return { job };
    },
    "cron.update": (params) => {
      const { id, ...input } = parse(updateParams, params, "cron.update");
      existing(cron, id, "cron.update");
      const job = checked("cron.update", () => cron.update(id, parseCronJobPatch(input, Date.now())));
      return { job };
    },
    "cron.remove": (params) => {
      const { id } = parse(idParams, params, "cron.remove");
      const job = existing(cron, id, "cron.remove");
      cron.remove(job.id);
      return { removed: job.id };
    },
    "cron.run": async (params) => {
      const { id } = parse(idParams, params, "cron.run");
      existing(cron, id, "cron.run");
      const run = await cron.runNow(id);
      return { run };
    },
  };
}
