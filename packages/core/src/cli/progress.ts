// Progress for long work (checks, plugin installs, imports, re-indexing): a spinner on a
// terminal, plain lines when the output is piped or captured, so logs stay readable.

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_MS = 80;

/** One piece of long work being shown. */
export interface Progress {
  /** Replaces the text after the spinner (on a terminal); printed as its own line when piped. */
  update(text: string): void;
  /** Ends with a success line (`✔ text`, or `text` when piped). */
  succeed(text: string): void;
  /** Ends with a failure line (`✖ text`, or `text` when piped). */
  fail(text: string): void;
}

export interface ProgressOptions {
  /** Spinner when true; default: the stream's own `isTTY`. */
  tty?: boolean;
}

function isTty(stream: NodeJS.WritableStream, options: ProgressOptions): boolean {
  return options.tty ?? (stream as { isTTY?: boolean }).isTTY === true;
}

/**
 * Starts showing `text` on `stream`. On a terminal a spinner turns beside it until `succeed` or
 * `fail` replaces the line; when piped, `text…` is printed once, each `update` as its own line,
 * and the end as a last line. The spinner's timer never keeps the process alive.
 */
export function startProgress(stream: NodeJS.WritableStream, text: string, options: ProgressOptions = {}): Progress {
  const tty = isTty(stream, options);
  let current = text;
  let done = false;
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;
  const draw = () => stream.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${current}`);
  if (tty) {
    stream.write("\x1b[?25l");
    draw();
    timer = setInterval(draw, FRAME_MS);
    timer.unref();
  } else {
    stream.write(`${text}…\n`);
  }
  const end = (mark: string, line: string) => {
    if (done) return;
    done = true;
    if (timer) clearInterval(timer);
    stream.write(tty ? `\r\x1b[2K${mark} ${line}\n\x1b[?25h` : `${line}\n`);
  };
  return {
    update(next) {
      if (done) return;
      current = next;
      if (tty) draw();
      else stream.write(`  ${next}\n`);
    },
    succeed: (line) => end("✔", line),
    fail: (line) => end("✖", line),
  };
}

/**
 * Runs `work` while showing `text`; ends with `done(result)` (default: `text` again) or, when
 * `work` throws, with the error's first line, and rethrows.
 */
export async function withProgress<T>(
  stream: NodeJS.WritableStream,
  text: string,
  work: (progress: Progress) => Promise<T>,
  options: ProgressOptions & { done?: (result: T) => string } = {},
): Promise<T> {
  const progress = startProgress(stream, text, options);
  try {
    const result = await work(progress);
    progress.succeed(options.done ? options.done(result) : text);
    return result;
  } catch (err) {
    progress.fail(err instanceof Error ? (err.message.split("\n")[0] ?? text) : String(err));
    throw err;
  }
}
