// The real @larksuiteoapi/node-sdk pointed at a fake, with its logging silenced.
import * as Lark from "@larksuiteoapi/node-sdk";
import type { FakeFeishu } from "../index.js";

export const quiet = { error() {}, warn() {}, info() {}, debug() {}, trace() {} };

export function sdkClient(fake: FakeFeishu): Lark.Client {
  return new Lark.Client({
    appId: fake.appId,
    appSecret: fake.appSecret,
    domain: fake.baseUrl,
    logger: quiet,
    loggerLevel: Lark.LoggerLevel.error,
  });
}

/** A started WSClient whose `im.message.receive_v1` events land in `received` after `handler` ran; `more` handles other events. */
export function sdkLongConnection(
  fake: FakeFeishu,
  handler?: (event: Record<string, unknown>) => unknown,
  more: Record<string, (event: Record<string, unknown>) => unknown> = {},
) {
  const received: Array<Record<string, unknown>> = [];
  const dispatcher = new Lark.EventDispatcher({ logger: quiet, loggerLevel: Lark.LoggerLevel.error }).register({
    "im.message.receive_v1": async (data: Record<string, unknown>) => {
      received.push(data);
      return handler?.(data);
    },
    ...more,
  });
  const ws = new Lark.WSClient({
    appId: fake.appId,
    appSecret: fake.appSecret,
    domain: fake.baseUrl,
    logger: quiet,
    loggerLevel: Lark.LoggerLevel.error,
  });
  void ws.start({ eventDispatcher: dispatcher });
  return { ws, received, close: () => ws.close({ force: true }) };
}

/** The HTTP status, headers and envelope code of a rejected SDK call (an axios error). */
export async function errorResponse(
  call: Promise<unknown>,
): Promise<{ status: number; headers: Record<string, string>; code: number | undefined }> {
  try {
    await call;
  } catch (error) {
    const response = (error as { response?: { status: number; headers: Record<string, string>; data?: { code?: number } } }).response;
    if (!response) throw error;
    return { status: response.status, headers: response.headers, code: response.data?.code };
  }
  throw new Error("expected the call to fail");
}

/** The platform's error code carried by a rejected SDK call. */
export async function errorCode(call: Promise<unknown>): Promise<number | undefined> {
  return (await errorResponse(call)).code;
}

export { Lark };
