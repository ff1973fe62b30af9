// `idearepo capture`: a client command, files an idea on an idearepo server through POST /api/v1/ideas (source "cli").
// It never loads the configuration or opens the data dir: it runs on a laptop as well as beside the server.
import type { CliCommand } from "./command";
import { parseArgs, rejectUnknown, UsageError, type Parsed } from "./args";
import { RemoteFailure } from "./failure";
import { DEFAULT_PORT } from "../lib/default-port";

/** A capture is one insert (processing is queued): a server that has not answered by then is not going to. */
const TIMEOUT_MS = 15_000;
const DEFAULT_SERVER = `http://127.0.0.1:${DEFAULT_PORT}`;

interface Idea { id: number; number: number; title: string; [k: string]: unknown }

/** `--tag` may repeat, which parseArgs (one value per flag) does not keep: take them out first. */
function takeTags(argv: string[]): { rest: string[]; tags: string[] } {
  const rest: string[] = [];
  const tags: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith("--tag=")) tags.push(a.slice(6));
    else if (a === "--tag") {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new UsageError("--tag needs a value");
      tags.push(v);
    } else rest.push(a);
  }
  return { rest, tags: tags.map((t) => t.trim()).filter((t) => t !== "") };
}

function stringFlag(p: Parsed, name: string): string | undefined {
  const v = p.flags[name];
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

/** The server's base URL, e.g. `https://ideas.example.com` or `https://host/idearepo`: http(s), no trailing slash. */
function serverBase(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--server / IDEAREPO_SERVER must be a URL like https://ideas.example.com, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--server / IDEAREPO_SERVER must be http:// or https://, got "${url.protocol}"`);
  // A password in the URL would be printed back in every line that names the server.
  if (url.username || url.password) throw new UsageError("--server / IDEAREPO_SERVER takes no user:password; the API key comes from IDEAREPO_API_KEY");
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/** The server's JSON error, in the words a person acts on (the spec's Errors table); never echoes the key. */
export function describeRefusal(status: number, body: unknown): string {
  const b = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const error = b.error;
  if (status === 401) return "API key invalid (the server answered 401): check IDEAREPO_API_KEY, or create a key with `idearepo keys create` or in Settings";
  if (status === 429) return "Rate limit exceeded: this account's daily request quota is spent (it resets at 00:00 UTC)";
  if (error === "idea_limit_reached") {
    const upgrade = typeof b.upgradeUrl === "string" ? ` Upgrade: ${b.upgradeUrl}` : "";
    return `${typeof b.message === "string" ? b.message : "The Free plan's idea limit is reached."}${upgrade}`;
  }
  if (error && typeof error === "object") {
    const fields = Object.entries(error as Record<string, unknown>).map(([f, m]) => `${f}: ${Array.isArray(m) ? m.join(", ") : String(m)}`);
    return `capture refused: ${fields.join("; ")}`;
  }
  if (typeof error === "string") {
    const upgrade = b.pro_required === true && typeof b.upgrade_url === "string" ? ` Upgrade: ${b.upgrade_url}` : "";
    return `capture refused (${status}): ${error}${upgrade}`;
  }
  return `the server answered ${status} without idearepo's JSON error: is --server / IDEAREPO_SERVER an idearepo server?`;
}

async function readStdin(): Promise<string> {
  return await new Response(Bun.stdin.stream()).text();
}

export const captureCommand: CliCommand = {
  async run(argv) {
    const { rest, tags } = takeTags(argv);
    const p = parseArgs(rest, ["body-stdin", "stdin", "key-stdin", "json"]);
    rejectUnknown(p, ["body", "body-stdin", "stdin", "url", "server", "key-stdin", "json"]);
    const fromStdin = ["body-stdin", "stdin", "key-stdin"].filter((f) => p.flags[f] === true);
    if (fromStdin.length > 1) throw new UsageError(`stdin can feed only one of ${fromStdin.map((f) => `--${f}`).join(", ")}`);
    let title = p.positionals.join(" ");
    let body = stringFlag(p, "body");
    if (body !== undefined && (p.flags["body-stdin"] || p.flags.stdin)) throw new UsageError("give the body once: --body or --body-stdin / --stdin");
    const sourceUrl = stringFlag(p, "url");
    const server = serverBase(stringFlag(p, "server") ?? (process.env.IDEAREPO_SERVER || DEFAULT_SERVER));

    // The key comes from the environment or stdin only: a flag's value is visible to every user of the machine (ps).
    let key = p.flags["key-stdin"] ? (await readStdin()).split("\n")[0] : process.env.IDEAREPO_API_KEY ?? "";
    key = key.trim();
    if (!key) throw new UsageError("no API key: set IDEAREPO_API_KEY (or pipe it with --key-stdin); create one with `idearepo keys create` or in Settings");

    if (p.flags.stdin) {
      if (title) throw new UsageError("with --stdin the title is stdin's first line: give no TITLE argument");
      const text = (await readStdin()).replace(/\r\n?/g, "\n");
      const nl = text.indexOf("\n");
      title = nl === -1 ? text : text.slice(0, nl);
      const restText = nl === -1 ? "" : text.slice(nl + 1).replace(/^\n+/, "").trimEnd();
      if (restText) body = restText;
    } else if (p.flags["body-stdin"]) {
      body = (await readStdin()).replace(/\r\n?/g, "\n").trimEnd();
    }
    title = title.trim();
    if (!title) throw new UsageError('a title is required: idearepo capture "TITLE" (or --stdin, its first line)');

    const payload: Record<string, unknown> = { title, source: "cli" };
    if (body) payload.body = body;
    if (tags.length) payload.tags = tags;
    if (sourceUrl !== undefined) payload.source_url = sourceUrl;

    const endpoint = `${server}/api/v1/ideas`;
    let res: Response;
    try {
      res = await fetch(endpoint, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (e) {
      const err = e as Error & { code?: string };
      const why = err.name === "TimeoutError" ? `no answer within ${TIMEOUT_MS / 1000} s`
        : err.code === "ECONNREFUSED" ? "connection refused: is `idearepo serve` running there?"
        : err.code === "ENOTFOUND" ? "no such host"
        : err.message;
      throw new RemoteFailure(`cannot reach the idearepo server at ${server} (${why}); set --server or IDEAREPO_SERVER`);
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: said below
    }
    if (res.status !== 201) throw new RemoteFailure(describeRefusal(res.status, json));
    const idea = json as Idea | null;
    if (!idea || typeof idea.id !== "number") throw new RemoteFailure(`${endpoint} answered 201 without an idea: is --server / IDEAREPO_SERVER an idearepo server?`);
    const webUrl = `${server}/ideas/${idea.id}`;
    process.stdout.write(p.flags.json ? JSON.stringify({ ...idea, web_url: webUrl }) + "\n" : `Captured #${idea.number} ${idea.title} — ${webUrl}\n`);
  },
};
