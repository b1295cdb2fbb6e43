/** A piece of a memory file with its 1-based inclusive line range. */
export interface MemoryChunk {
  startLine: number;
  endLine: number;
  text: string;
}

/** Characters per chunk before a new one is started (at a block boundary when possible). */
export const MEMORY_CHUNK_MAX_CHARS = 1200;

/**
 * Splits Markdown into search chunks: a heading always starts a new chunk, blank lines separate
 * blocks, blocks are packed up to `maxChars`, a block longer than that is cut between lines, and
 * blank lines inside a code fence do not split it. Blank-only chunks are dropped.
 */
export function chunkMarkdown(text: string, maxChars = MEMORY_CHUNK_MAX_CHARS): MemoryChunk[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  // 1. Blocks: runs of non-blank lines (fences kept whole), each with its line range.
  const blocks: Array<{ start: number; end: number; heading: boolean }> = [];
  let inFence = false;
  let current: { start: number; end: number; heading: boolean } | undefined;
  lines.forEach((line, i) => {
    const n = i + 1;
    const isFence = /^\s*(```|~~~)/.test(line);
    const blank = line.trim() === "";
    const heading = !inFence && /^#{1,6}\s/.test(line);
    if (!inFence && (blank || heading)) {
      if (current) blocks.push(current);
      current = blank ? undefined : { start: n, end: n, heading: true };
    } else if (current) current.end = n;
    else current = { start: n, end: n, heading: false };
    if (isFence) inFence = !inFence;
  });
  if (current) blocks.push(current);

  // 2. Pack blocks into chunks.
  const chunks: MemoryChunk[] = [];
  let start = 0;
  let end = 0;
  let size = 0;
  const flush = () => {
    if (start === 0) return;
    const body = lines
      .slice(start - 1, end)
      .join("\n")
      .trim();
    if (body !== "") chunks.push({ startLine: start, endLine: end, text: body });
    start = 0;
    size = 0;
  };
  for (const block of blocks) {
    const blockSize = lines.slice(block.start - 1, block.end).reduce((s, l) => s + l.length + 1, 0);
    if (start !== 0 && (block.heading || size + blockSize > maxChars)) flush();
    if (blockSize > maxChars) {
      for (let n = block.start; n <= block.end; n++) {
        const len = lines[n - 1]!.length + 1;
        if (start !== 0 && size + len > maxChars) flush();
        if (start === 0) start = n;
        end = n;
        size += len;
      }
      continue;
    }
    if (start === 0) start = block.start;
    end = block.end;
    size += blockSize;
  }
  flush();
  return chunks;
}
