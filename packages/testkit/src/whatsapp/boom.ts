// Boom-like errors of the fake WhatsApp, shared by the fake and the relay's client (which must
// not load Baileys: it runs inside the plugin under test, next to the channel's own bundle).
import type { FakeBoomError } from "./types.js";

/** A Boom-like error, as Baileys builds them (`new Boom(message, { statusCode })`). */
export function fakeBoom(message: string, statusCode: number, data?: unknown): FakeBoomError {
  const error = new Error(message) as FakeBoomError;
  error.isBoom = true;
  error.output = { statusCode, payload: { statusCode, error: "Error", message } };
  if (data !== undefined) error.data = data;
  return error;
}
