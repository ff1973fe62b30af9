// `users` and `keys` operator commands: create and delete accounts, change plans, start trials, mint and revoke keys.
import { createUsersService } from "../modules/users/service";
import { createAccountDeletion } from "../modules/users/deletion";
import { knownBackupFiles } from "../modules/admin/scheduled-backups";
import { createApiKeysService } from "../modules/api-keys/service";
import { cliDeps, printJson } from "./context";
import { optionalFlag, parseArgs, rejectUnknown, requireFlag, UsageError } from "./args";

async function readStdin(): Promise<string> {
  const text = await new Response(Bun.stdin.stream()).text();
  return text.replace(/\r?\n$/, "");
}

/** One line typed at the terminal (the confirmation), without reading past it. */
async function readLine(): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of Bun.stdin.stream()) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes("\n")) break;
  }
  return text.split(/\r?\n/)[0];
}

/**
 * `users delete --email E [--yes]`: without --yes the operator types the e-mail again at the terminal; with no
 * terminal (a script, a pipe) --yes is required, so nothing is deleted by a command line that was not meant to.
 */
async function confirmDeletion(email: string, ideas: number, yes: boolean): Promise<void> {
  if (yes) return;
  if (!process.stdin.isTTY) throw new UsageError("users delete removes the account and everything it owns for good: add --yes to confirm (or run it in a terminal)");
  process.stderr.write(`Delete ${email} and everything it owns (${ideas} ideas, its keys, sessions and settings)? This cannot be undone.\nType the e-mail address to confirm: `);
  const typed = (await readLine()).trim();
  if (typed.toLowerCase() !== email.toLowerCase()) throw new UsageError("Not confirmed: nothing was deleted");
}

export async function usersCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  const p = parseArgs(rest, ["password-stdin", "operator", "yes"]);
  const deps = await cliDeps();
  const users = createUsersService(deps);
  try {
    switch (sub) {
      case "create": {
        rejectUnknown(p, ["email", "plan", "name", "password-stdin", "operator"]);
        const password = p.flags["password-stdin"] ? await readStdin() : null;
        const operator = p.flags.operator === true; // the account may use /api/v1/admin/* and the operator's page
        printJson(await users.createUser({ email: requireFlag(p, "email"), plan: optionalFlag(p, "plan"), name: optionalFlag(p, "name"), password, operator }));
        return;
      }
      case "set-plan":
        rejectUnknown(p, ["email", "plan"]);
        printJson({ user: await users.setPlan((await users.mustFindByEmail(requireFlag(p, "email"))).id, requireFlag(p, "plan")) });
        return;
      case "trial": {
        rejectUnknown(p, ["email", "days"]);
        const days = requireFlag(p, "days");
        if (!/^\d+$/.test(days)) throw new UsageError("--days must be a whole number");
        printJson({ user: await users.startTrial((await users.mustFindByEmail(requireFlag(p, "email"))).id, Number(days)) });
        return;
      }
      case "set-password":
        rejectUnknown(p, ["email", "password-stdin"]);
        if (!p.flags["password-stdin"]) throw new UsageError("users set-password needs --password-stdin");
        await users.setPassword((await users.mustFindByEmail(requireFlag(p, "email"))).id, await readStdin());
        printJson({ success: true });
        return;
      case "list":
        rejectUnknown(p, []);
        printJson({ users: await users.list() });
        return;
      case "delete": {
        rejectUnknown(p, ["email", "yes"]);
        const row = await users.mustFindByEmail(requireFlag(p, "email"));
        const ideas = (await users.list()).find((u) => u.id === row.id)?.active_idea_count ?? 0;
        await confirmDeletion(row.email, ideas, p.flags.yes === true);
        const deleted = await createAccountDeletion(deps).deleteAccount(row.id, "cli");
        // A paid subscription is the payment provider's: it is not cancelled here, so the operator is told which one.
        const left = row.subscription_id ? { subscription_id: row.subscription_id, note: "The account's subscription was not cancelled: cancel it at the payment provider" } : {};
        // Backups are copies of the whole database: the ones taken before still hold the account (docs/auth.md).
        const backups = {
          known: await knownBackupFiles(deps),
          note: "Backups taken before this deletion still hold the account (these files, and any other copy or download): docs/auth.md, Deleting an account",
        };
        printJson({ deleted: { ...deleted, email: row.email }, ...left, backups });
        return;
      }
      default:
        throw new UsageError(`Unknown users command "${sub ?? ""}". Use: create, set-plan, trial, set-password, list, delete`);
    }
  } finally {
    await deps.store.close();
  }
}

export async function keysCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  const p = parseArgs(rest);
  const deps = await cliDeps();
  const users = createUsersService(deps);
  const keys = createApiKeysService(deps);
  try {
    switch (sub) {
      case "create": {
        rejectUnknown(p, ["email", "label"]);
        const user = await users.mustFindByEmail(requireFlag(p, "email"));
        const label = optionalFlag(p, "label") ?? "default";
        if (label.length > 100) throw new UsageError("--label must be at most 100 characters");
        printJson(await keys.mint(user.id, label, null, "manual"));
        return;
      }
      case "revoke": {
        rejectUnknown(p, ["id"]);
        const id = requireFlag(p, "id");
        if (!(await keys.revokeAny(id))) throw new UsageError(`No API key with id ${id}`);
        printJson({ success: true });
        return;
      }
      default:
        throw new UsageError(`Unknown keys command "${sub ?? ""}". Use: create, revoke`);
    }
  } finally {
    await deps.store.close();
  }
}
