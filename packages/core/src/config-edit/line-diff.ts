/**
 * A unified-style diff of two texts, line by line: hunks headed `@@ -a,n +b,m @@` with `context`
 * unchanged lines (default 3) around each change, removed lines prefixed `-`, added `+`,
 * unchanged ` `. "" when the texts are equal. Quadratic in the line count: meant for config
 * files (a few hundred lines), not for large texts.
 */
export function lineDiff(before: string, after: string, context = 3): string {
  if (before === after) return "";
  const a = before.split("\n");
  const b = after.split("\n");
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  type Op = { kind: " " | "-" | "+"; text: string; ai: number; bi: number };
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push({ kind: " ", text: a[i]!, ai: i++, bi: j++ });
    else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) ops.push({ kind: "+", text: b[j]!, ai: i, bi: j++ });
    else ops.push({ kind: "-", text: a[i]!, ai: i++, bi: j });
  }
  const changed = ops.flatMap((o, n) => (o.kind === " " ? [] : [n]));
  const out: string[] = [];
  let g = 0;
  while (g < changed.length) {
    // A hunk takes every change whose unchanged gap to the previous one is at most 2 * context.
    let last = g;
    while (last + 1 < changed.length && changed[last + 1]! - changed[last]! - 1 <= 2 * context) last++;
    const hunk = ops.slice(Math.max(0, changed[g]! - context), Math.min(ops.length, changed[last]! + context + 1));
    const first = hunk[0]!;
    const removed = hunk.filter((o) => o.kind !== "+").length;
    const added = hunk.filter((o) => o.kind !== "-").length;
    out.push(`@@ -${first.ai + 1},${removed} +${first.bi + 1},${added} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.text}`);
    g = last + 1;
  }
  return `${out.join("\n")}\n`;
}
