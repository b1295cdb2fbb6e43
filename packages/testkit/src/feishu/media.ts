import { type FeishuAnswer, feishuError, ok } from "./envelope.js";
import type { RequestBody } from "./http-body.js";
import type { FeishuStore } from "./store.js";

const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
const FILE_MAX_BYTES = 30 * 1024 * 1024;
const FILE_TYPES = new Set(["opus", "mp4", "pdf", "doc", "xls", "ppt", "stream"]);

/** POST /open-apis/im/v1/images (multipart: image_type, image). Not empty, at most 10 MB. */
export function uploadImage(store: FeishuStore, body: RequestBody): FeishuAnswer {
  const image = body.files.image;
  const imageType = body.fields.image_type;
  if (imageType !== "message" && imageType !== "avatar") return feishuError("invalidParam", "image_type");
  if (!image || image.bytes.byteLength === 0 || image.bytes.byteLength > IMAGE_MAX_BYTES) return feishuError("invalidParam", "image");
  const upload = store.addUpload("image", image.bytes, { image_type: imageType });
  return ok({ image_key: upload.key });
}

/** POST /open-apis/im/v1/files (multipart: file_type, file_name, duration?, file). Not empty, at most 30 MB. */
export function uploadFile(store: FeishuStore, body: RequestBody): FeishuAnswer {
  const file = body.files.file;
  const { file_type: fileType, file_name: fileName } = body.fields;
  if (!fileType || !FILE_TYPES.has(fileType)) return feishuError("invalidParam", "file_type");
  if (!fileName) return feishuError("invalidParam", "file_name");
  if (!file || file.bytes.byteLength === 0 || file.bytes.byteLength > FILE_MAX_BYTES) return feishuError("invalidParam", "file");
  const upload = store.addUpload("file", file.bytes, { ...body.fields });
  return ok({ file_key: upload.key });
}

/** GET /open-apis/im/v1/images/:image_key: an image the bot uploaded. */
export function downloadImage(store: FeishuStore, key: string): FeishuAnswer {
  const upload = store.uploads.find((u) => u.kind === "image" && u.key === key);
  if (!upload) return feishuError("resourceNotFound");
  return { status: 200, body: undefined, bytes: upload.bytes, headers: { "content-type": "application/octet-stream" } };
}
