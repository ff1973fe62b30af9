// Structured JSON-lines logger on stderr; callers pass fields, never secrets.
export type Level = "debug" | "info" | "warn" | "error" | "silent";
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * Lines go to stderr together, once per turn of the event loop: under load the request log wrote once per request
 * (a system call each, ~3% of a list request's CPU; docs/performance.md). A warning or an error goes out at once with
 * everything queued before it, in order, and whatever is queued is written when the process exits; only a kill that
 * gives no chance to run (SIGKILL, a power cut) can lose the info lines of the current turn.
 */
function stderrSink(): (line: string, lvl: Level) => void {
  let pending = "";
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === "") return;
    const out = pending;
    pending = "";
    process.stderr.write(out);
  };
  process.once("exit", flush);
  return (line, lvl) => {
    pending += line + "\n";
    if (ORDER[lvl] >= ORDER.warn) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}

// One queue for the process, made on first use: loggers that never write (tests, "silent") add no exit listener.
let stderrQueue: ((line: string, lvl: Level) => void) | null = null;
const toStderr = (line: string, lvl: Level) => (stderrQueue ??= stderrSink())(line, lvl);

export function createLogger(level: Level, sink: (line: string, lvl: Level) => void = toStderr): Logger {
  const emit = (lvl: Level) => (msg: string, fields: Record<string, unknown> = {}) => {
    if (ORDER[lvl] < ORDER[level]) return;
    sink(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields }), lvl);
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}
