import { ok, type QQAnswer, qqError } from "./errors.js";
import { newId, type QQStore, type TargetKey } from "./store.js";

/** Seconds a file_info stays usable, as the platform reports it. */
const FILE_TTL_SECONDS = 3600;

async function fetchBytes(url: string): Promise<number | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) return undefined;
    return (await res.arrayBuffer()).byteLength;
  } catch {
    return undefined;
  }
}

/**
 * `POST /v2/{users|groups}/{id}/files` `{file_type: 1 image|2 video|3 voice|4 file, url | file_data
 * (base64), srv_send_msg, file_name?}` -> `{file_uuid, file_info, ttl}`. A `url` is fetched (it
 * must answer 2xx within 5 s) to learn the size. With `srv_send_msg: true` the platform sends the
 * file at once as a proactive media message and adds its `id`.
 */
export async function uploadFile(store: QQStore, target: TargetKey, body: unknown): Promise<QQAnswer> {
  const b = (body ?? {}) as Record<string, any>;
  if (![1, 2, 3, 4].includes(b.file_type)) return qqError("requestInvalid", "file_type must be 1, 2, 3 or 4");
  let bytes: number | undefined;
  if (typeof b.file_data === "string" && b.file_data) bytes = Buffer.from(b.file_data, "base64").length;
  else if (typeof b.url === "string" && b.url) {
    bytes = await fetchBytes(b.url);
    if (bytes === undefined) return qqError("fetchFailed", b.url);
  } else return qqError("requestInvalid", "url or file_data is required");
  const fileInfo = newId("FILEINFO_");
  const file = { target, fileType: b.file_type as number, bytes, ...(typeof b.file_name === "string" ? { fileName: b.file_name } : {}) };
  store.addFile(fileInfo, file);
  const answer: Record<string, unknown> = { file_uuid: newId(""), file_info: fileInfo, ttl: FILE_TTL_SECONDS };
  if (b.srv_send_msg === true) {
    const id = newId();
    const { target: _target, ...media } = file;
    store.addSent(target, { id, kind: "media", content: "", media });
    answer.id = id;
  }
  return ok(answer);
}
