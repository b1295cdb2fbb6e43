// A deliberately naive block chunker for differential tests: the same rules as BlockChunker,
// but every decision re-parses the whole buffer (quadratic, obviously correct). Paren-aware
// outbound mode is not modelled.
const OPEN = /^( {0,3})(`{3,}|~{3,})([\s\S]*)$/;
const CLOSE = /^( {0,3})(`{3,}|~{3,})[ \t\r]*$/;
const UNDECIDED = /^ {0,3}(`{0,2}|~{0,2})$/;

interface Span {
  start: number;
  end: number;
  openLineEnd: number;
  openLine: string;
  close: string;
}

interface Analysis {
  spans: Span[];
  /** Positions that are never candidates although fence-safe (held back or opener indent). */
  held: Set<number>;
  undecidedLineStart: number;
  tentativeCloser: boolean;
}

function analyze(buf: string, finalized: boolean): Analysis {
  const spans: Span[] = [];
  const held = new Set<number>();
  let open: (Span & { char: string; len: number }) | null = null;
  let undecidedLineStart = -1;
  let tentativeCloser = false;
  let s = 0;
  while (s < buf.length) {
    const nl = buf.indexOf("\n", s);
    const terminated = nl !== -1;
    const e = terminated ? nl : buf.length;
    const line = buf.slice(s, e);
    if (open === null) {
      const m = OPEN.exec(line);
      if (m) {
        open = {
          start: s,
          end: Infinity,
          openLineEnd: terminated ? e : -1,
          openLine: terminated ? line.replace(/\r$/, "") : "",
          close: m[1]! + m[2]!,
          char: m[2]![0]!,
          len: m[2]!.length,
        };
        if (line[0] === " ") held.add(s);
      } else if (!terminated && !finalized && UNDECIDED.test(line)) {
        undecidedLineStart = s;
        for (let k = s; k < e; k++) held.add(k);
      }
    } else {
      const m = CLOSE.exec(line);
      if (m && m[2]![0] === open.char && m[2]!.length >= open.len) {
        if (terminated || finalized) {
          spans.push({ start: open.start, end: e, openLineEnd: open.openLineEnd, openLine: open.openLine, close: open.close });
          open = null;
        } else tentativeCloser = true;
      }
    }
    if (!terminated) break;
    s = nl + 1;
  }
  if (open !== null)
    spans.push({ start: open.start, end: Infinity, openLineEnd: open.openLineEnd, openLine: open.openLine, close: open.close });
  return { spans, held, undecidedLineStart, tentativeCloser };
}

const isWs = (ch: string | undefined): boolean => ch !== undefined && /\s/.test(ch);
/** While more text may come, a pick waits for maxChars plus this many characters (the full window). */
const LOOKAHEAD = 8;

export class NaiveChunker {
  readonly min: number;
  readonly max: number;
  buf = "";
  afterBreak = false;

  readonly fill: boolean;

  constructor(
    options: { minChars: number; maxChars: number; textChunkLimit?: number; fill?: boolean },
    readonly preference: "paragraph" | "newline" | "sentence",
    readonly paragraphMode: boolean,
  ) {
    this.max = Math.min(Math.floor(options.maxChars), options.textChunkLimit ?? Infinity);
    this.min = Math.min(Math.floor(options.minChars), this.max);
    this.fill = options.fill === true;
  }

  push(delta: string): string[] {
    if (this.afterBreak) {
      delta = delta.replace(/^\n+/, "");
      this.afterBreak = delta === "";
    }
    this.buf += delta;
    return this.drain(false);
  }

  flush(): string[] {
    return this.drain(true);
  }

  private drain(force: boolean): string[] {
    const out: string[] = [];
    if (this.paragraphMode && !force) {
      while (this.buf.length > 0) {
        const a = analyze(this.buf, false);
        const b = this.firstBoundary(a);
        if (b !== null && b.at <= this.max) {
          const block = this.buf.slice(0, b.at);
          const rest = this.buf.slice(b.end).replace(/^(?:[ \t]*\n)+/, "");
          if (block.trim()) out.push(block);
          this.buf = rest;
          this.afterBreak = rest === "";
          continue;
        }
        if (this.buf.length < this.max + LOOKAHEAD) break;
        const choice = this.pick(false, 1);
        if (choice === null) break;
        this.emit(choice, out);
      }
      return out;
    }
    while (this.buf.length > 0) {
      if (force && this.buf.length <= this.max) {
        if (this.buf.trim()) out.push(this.buf);
        this.buf = "";
        this.afterBreak = false;
        break;
      }
      const windowFull = force || this.buf.length >= this.max + LOOKAHEAD;
      const choice = (this.fill || this.paragraphMode ? null : this.firstPreferred()) ?? (windowFull ? this.pick(force) : null);
      if (choice === null) break;
      this.emit(choice, out);
    }
    return out;
  }

  private safe(a: Analysis, i: number): boolean {
    return !a.spans.some((s) => s.start < i && i < s.end) && !a.held.has(i);
  }

  private firstBoundary(a: Analysis): { at: number; end: number } | null {
    const buf = this.buf;
    // Blank lines at the very start are a separator kept for the next paragraph.
    const leading = /^(?:[ \t]*\n)*/.exec(buf)![0].length;
    for (let b = leading; b < buf.length; b++) {
      if (buf[b] !== "\n" || !this.safe(a, b)) continue;
      let e = b + 1;
      while (e < buf.length && (buf[e] === " " || buf[e] === "\t")) e++;
      if (buf[e] === "\n" && this.safe(a, e)) return { at: b, end: e + 1 };
    }
    return null;
  }

  /** The first break of the preferred kind at or after min, complete and fence-safe. */
  private firstPreferred(): { index: number } | null {
    const buf = this.buf;
    const a = analyze(buf, false);
    const ok = (i: number) => this.safe(a, i);
    const { min, max } = this;
    let at: number;
    if (this.preference === "paragraph")
      at = this.firstWhere(min, max - 2, (i) => buf[i] === "\n" && buf[i + 1] === "\n" && ok(i) && ok(i + 1));
    else if (this.preference === "newline") at = this.firstWhere(min, max - 1, (i) => buf[i] === "\n" && ok(i));
    else at = this.firstWhere(min + 1, max, (i) => isWs(buf[i]) && /[.!?]/.test(buf[i - 1] ?? "") && ok(i));
    return at >= 0 ? { index: at } : null;
  }

  private firstWhere(from: number, to: number, test: (i: number) => boolean): number {
    for (let i = from; i <= Math.min(to, this.buf.length - 1); i++) if (test(i)) return i;
    return -1;
  }

  private lastWhere(from: number, to: number, test: (i: number) => boolean): number {
    for (let i = Math.min(to, this.buf.length - 1); i >= from; i--) if (test(i)) return i;
    return -1;
  }

  private pick(force: boolean, min = this.min): { index: number; fence?: Span } | null {
    const buf = this.buf;
    const a = analyze(buf, force);
    const { max } = this;
    const ok = (i: number) => this.safe(a, i);
    let at: number;
    if (this.preference === "paragraph") {
      at = this.lastWhere(min, max - 2, (i) => buf[i] === "\n" && buf[i + 1] === "\n" && ok(i) && ok(i + 1));
      if (at >= 0) return { index: at };
    }
    if (this.preference !== "sentence") {
      at = this.lastWhere(min, max - 1, (i) => buf[i] === "\n" && ok(i));
      if (at >= 0) return { index: at };
    }
    if (this.preference !== "newline") {
      at = this.lastWhere(min + 1, max, (i) => isWs(buf[i]) && /[.!?]/.test(buf[i - 1] ?? "") && ok(i));
      if (at >= 0) return { index: at };
    }
    if (this.preference === "newline" && buf.length < max) return null;
    at = this.lastWhere(min, max - 1, (i) => isWs(buf[i]) && ok(i));
    if (at >= 0) return { index: at };
    if (buf.length < max) return null;
    if (!force && a.undecidedLineStart >= 0 && a.undecidedLineStart < max) return null;
    if (!force && a.tentativeCloser && buf.length === max) return null;
    const span = a.spans.find((s) => s.start < max && max < s.end);
    const cut = (x: number, floor: number) => (x - 1 >= floor && /[\uD800-\uDBFF]/.test(buf[x - 1]!) ? x - 1 : x);
    if (!span) return { index: cut(max, 1) };
    if (span.openLineEnd >= 0) {
      const contentStart = span.openLineEnd + 1;
      const last = max - 1 - span.close.length;
      const lf = this.lastWhere(Math.max(contentStart, min - 1 - span.close.length), last, (i) => buf[i] === "\n");
      if (lf >= 0) return { index: lf + 1, fence: span };
      if (last > contentStart) return { index: cut(last, contentStart + 1), fence: span };
    }
    if (span.start > 0) return { index: span.start };
    return { index: cut(max, 1) };
  }

  private emit(choice: { index: number; fence?: Span }, out: string[]): void {
    const buf = this.buf;
    const block = buf.slice(0, choice.index);
    if (choice.fence) {
      out.push(block + (block.endsWith("\n") ? "" : "\n") + choice.fence.close);
      this.buf = `${choice.fence.openLine}\n${buf.slice(choice.index)}`;
      return;
    }
    if (block.trim()) out.push(block);
    const next = isWs(buf[choice.index]) ? choice.index + 1 : choice.index;
    this.buf = buf.slice(next).replace(/^\n+/, "");
    this.afterBreak = this.buf === "";
  }
}
