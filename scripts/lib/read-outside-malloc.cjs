// Shared by the channels' library loader (scripts/lib/code-cached-require.mjs, bundled into each
// channel) and the `openclaw` bin (packages/core/scripts/bin-loader.cjs; core's build copies this
// file beside it as dist/bundle/read-outside-malloc.cjs).
"use strict";
const { fstatSync, readSync } = require("node:fs");

/**
 * The bytes of the open file `fd`, in memory V8 maps for itself (a WebAssembly.Memory), not from
 * malloc. The files read this way are 0.1-1.8 MB (a bundle, a platform library, a V8 code cache);
 * glibc serves such a block with its own mmap and, when it is freed, raises its mmap threshold
 * (and its trim threshold, twice that) to the block's size for the rest of the process, after
 * which malloc's arenas keep more of what is freed: a gateway with the five channels idled ~3.5 MB
 * larger. Falls back to a Buffer when that memory cannot be reserved (a virtual memory limit).
 */
function readOutsideMalloc(fd) {
  const size = fstatSync(fd).size;
  let bytes;
  try {
    bytes = Buffer.from(new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(size / 65536)) }).buffer, 0, size);
  } catch {
    bytes = Buffer.allocUnsafeSlow(size);
  }
  let at = 0;
  for (let n; at < size && (n = readSync(fd, bytes, at, size - at, at)) > 0; ) at += n;
  return at === size ? bytes : bytes.subarray(0, at);
}

module.exports = { readOutsideMalloc };
