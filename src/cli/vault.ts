// `vault connect | disconnect | status`: binds an account to a folder of Markdown kept in step with its ideas by a
// running server (which picks a change up within seconds), and shows each folder's state.
import { createVaultService } from "../modules/vault/service";
import { AppError } from "../errors";
import { cliDeps, printJson } from "./context";
import { optionalFlag, parseArgs, rejectUnknown, requireFlag, UsageError } from "./args";

export async function vaultCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  const p = parseArgs(rest);
  if (p.positionals.length > 0) throw new UsageError(`Unexpected argument "${p.positionals[0]}"`);
  const deps = await cliDeps();
  const vault = createVaultService(deps);
  try {
    switch (sub) {
      case "connect":
        rejectUnknown(p, ["email", "path"]);
        printJson({ vault: await vault.connect(requireFlag(p, "email"), requireFlag(p, "path")) });
        return;
      case "disconnect":
        rejectUnknown(p, ["email"]);
        printJson(await vault.disconnect(requireFlag(p, "email")));
        return;
      case "status": {
        rejectUnknown(p, ["email"]);
        const email = optionalFlag(p, "email");
        if (email === undefined) printJson({ vaults: await vault.statusAll() });
        else {
          const one = await vault.statusByEmail(email);
          if (!one) throw new UsageError(`${email} is not connected to a folder (idearepo vault connect --email E --path P)`);
          printJson({ vault: one });
        }
        return;
      }
      default:
        throw new UsageError(`Unknown vault command "${sub ?? ""}". Use: connect, disconnect, status`);
    }
  } catch (e) {
    // The service's refusals (no such account, a folder taken) are the operator's to fix: one line, exit 2.
    if (e instanceof AppError) throw new UsageError(e.message === "validation" ? JSON.stringify(e.body.error) : e.message);
    throw e;
  } finally {
    await deps.store.close();
  }
}
