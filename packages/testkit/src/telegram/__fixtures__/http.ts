import type { FakeTelegram } from "../types.js";

/** A Bot API answer as a test sees it. */
export interface ApiAnswer {
  status: number;
  body: any;
}

/** POSTs a JSON Bot API call to the fake with plain fetch. */
export async function api(
  fake: FakeTelegram,
  method: string,
  params: Record<string, unknown> = {},
  token = fake.token,
): Promise<ApiAnswer> {
  const res = await fetch(`${fake.apiRoot}/bot${token}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(params),
  });
  return { status: res.status, body: await res.json() };
}

/** A private chat with user 42 ("Ann"), for `sendUserMessage`. */
export const ann = {
  chat: { id: 42, type: "private" as const },
  from: { id: 42, first_name: "Ann", username: "ann_user" },
};
