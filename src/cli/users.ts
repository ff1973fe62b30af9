// `users` and `keys` operator commands: create accounts, change plans, start trials, mint and revoke keys.
import { createUsersService } from "../modules/users/service";
import { createApiKeysService } from "../modules/api-keys/service";
import { cliDeps, printJson } from "./context";
import { optionalFlag, parseArgs, rejectUnknown, requireFlag, UsageError } from "./args";

async function readStdin(): Promise<string> {
  const text = await new Response(Bun.stdin.stream()).text();
  return text.replace(/\r?\n$/, "");
}

export async function usersCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  const p = parseArgs(rest, ["password-stdin", "operator"]);
  const deps = cliDeps();
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
        printJson({ user: users.setPlan(users.mustFindByEmail(requireFlag(p, "email")).id, requireFlag(p, "plan")) });
        return;
      case "trial": {
        rejectUnknown(p, ["email", "days"]);
        const days = requireFlag(p, "days");
        if (!/^\d+$/.test(days)) throw new UsageError("--days must be a whole number");
        printJson({ user: users.startTrial(users.mustFindByEmail(requireFlag(p, "email")).id, Number(days)) });
        return;
      }
      case "set-password":
        rejectUnknown(p, ["email", "password-stdin"]);
        if (!p.flags["password-stdin"]) throw new UsageError("users set-password needs --password-stdin");
        await users.setPassword(users.mustFindByEmail(requireFlag(p, "email")).id, await readStdin());
        printJson({ success: true });
        return;
      case "list":
        rejectUnknown(p, []);
        printJson({ users: users.list() });
        return;
      default:
        throw new UsageError(`Unknown users command "${sub ?? ""}". Use: create, set-plan, trial, set-password, list`);
    }
  } finally {
    deps.db.close();
  }
}

export async function keysCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  const p = parseArgs(rest);
  const deps = cliDeps();
  const users = createUsersService(deps);
  const keys = createApiKeysService(deps);
  try {
    switch (sub) {
      case "create": {
        rejectUnknown(p, ["email", "label"]);
        const user = users.mustFindByEmail(requireFlag(p, "email"));
        const label = optionalFlag(p, "label") ?? "default";
        if (label.length > 100) throw new UsageError("--label must be at most 100 characters");
        printJson(keys.mint(user.id, label, null, "manual"));
        return;
      }
      case "revoke": {
        rejectUnknown(p, ["id"]);
        const id = requireFlag(p, "id");
        if (!keys.revokeAny(id)) throw new UsageError(`No API key with id ${id}`);
        printJson({ success: true });
        return;
      }
      default:
        throw new UsageError(`Unknown keys command "${sub ?? ""}". Use: create, revoke`);
    }
  } finally {
    deps.db.close();
  }
}
