import { z } from "zod";
import { ConfigFileError, UserError } from "../config/index.js";
import { ControlError, type ErrorCode } from "./protocol.js";

/** Parses a request's params with `schema`; failures are `invalid_params` naming the method and the field. */
export function parseParams<T extends z.ZodType>(schema: T, params: unknown, method: string): z.output<T> {
  const result = schema.safeParse(params ?? {});
  if (!result.success) throw new ControlError("invalid_params", `${method}: ${z.prettifyError(result.error).replace(/\n/g, "; ")}`);
  return result.data;
}

/**
 * A failure meant for a person (a UserError or ConfigFileError, which name the file, the key and
 * the fix) as a client error with `code`, keeping its message; anything else is returned as is
 * (the server answers it as `internal`). Use as `catch (err) { throw clientError(err) }`.
 */
export function clientError(err: unknown, code: ErrorCode = "invalid_params"): unknown {
  if (err instanceof UserError || err instanceof ConfigFileError) return new ControlError(code, err.message);
  return err;
}
