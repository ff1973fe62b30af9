// The person's side of vaults: the folder state as Settings shows it, and choosing a folder under the operator's root
// (vaults_dir). Paths a person sees are relative to that root; a name can never reach outside it (.., absolute
// paths, symbolic links out). Binding itself is the vault service's connect/disconnect, as the CLI uses.
import { existsSync, lstatSync, mkdirSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import type { Deps } from "../../deps";
import { conflict, fieldError, forbidden } from "../../errors";
import { createVaultRepo } from "./repo";
import type { VaultState } from "../../contract/responses";
import { createVaultService } from "./service";

const NOT_ENABLED = "Choosing a folder is not enabled on this instance: the operator binds folders (idearepo vault connect)";
const MAX_NAME = 200;

const inside = (root: string, p: string) => {
  const r = relative(root, p);
  return r !== "" && !r.startsWith("..") && !isAbsolute(r);
};

export function createVaultFolders(deps: Deps) {
  const vault = createVaultService(deps);
  const repo = createVaultRepo(deps.store);
  const root = deps.config.vaults_dir;

  /** The root's real path, made when missing (the operator named it; an empty root is a valid start). */
  function realRoot(): string {
    mkdirSync(root!, { recursive: true });
    return realpathSync(root!);
  }

  /** The folder as the person sees it: under the root, its relative name; else the operator's path. */
  function shown(path: string): { folder: string; chosen_by: "person" | "operator" } {
    if (root !== null && existsSync(root)) {
      const r = realpathSync(root);
      if (inside(r, path)) return { folder: relative(r, path).split(sep).join("/"), chosen_by: "person" };
    }
    return { folder: path, chosen_by: "operator" };
  }

  /** Checks a chosen name and returns the folder's path under the root (not made yet). */
  function target(name: unknown, rootReal: string): string {
    if (typeof name !== "string" || name.trim() === "") throw fieldError("folder", "Name a folder, e.g. notes");
    const folder = name.trim();
    if (folder.length > MAX_NAME) throw fieldError("folder", `The folder name is longer than ${MAX_NAME} characters`);
    if (isAbsolute(folder) || folder.startsWith("~") || /^[A-Za-z]:/.test(folder)) throw fieldError("folder", "Name a folder under the vaults root, not an absolute path");
    if (/[\\\0-\x1f]/.test(folder)) throw fieldError("folder", "The folder name may not hold backslashes or control characters");
    const parts = folder.split("/").filter((p) => p !== "");
    if (parts.some((p) => p === ".." || p === ".")) throw fieldError("folder", "The folder name may not hold . or .. (it must stay under the vaults root)");
    if (parts.some((p) => p.startsWith("."))) throw fieldError("folder", "Hidden folders (a name starting with a dot) cannot be vaults");
    const path = join(rootReal, ...parts);
    // The deepest part that exists must resolve inside the root: a symbolic link out is refused before anything is made.
    let probe = path;
    while (!existsSync(probe)) probe = dirname(probe);
    const real = realpathSync(probe);
    if (real !== rootReal && !inside(rootReal, real)) throw fieldError("folder", "That folder leads outside the vaults root (a symbolic link)");
    if (probe === path && !lstatSync(path).isDirectory() && !lstatSync(path).isSymbolicLink()) throw fieldError("folder", "That name is a file, not a folder");
    return path;
  }

  async function state(userId: string): Promise<VaultState> {
    const s = await vault.status(userId);
    const base = { can_choose: root !== null };
    if (!s) {
      return { ...base, connected: false, folder: null, chosen_by: null, connected_at: null, initial_sync_at: null, last_sync_at: null, last_error: null, files: 0, progress: null, conflicts: [], skipped: [], errors: [] };
    }
    const where = shown(s.path);
    return {
      ...base,
      connected: true,
      ...where,
      connected_at: s.connected_at,
      initial_sync_at: s.initial_sync_at,
      last_sync_at: s.last_sync_at,
      // The server's own path never reaches the person when they chose the folder: it reads as their folder's name.
      last_error: s.last_error === null ? null : s.last_error.split(s.path).join(where.folder),
      files: s.files,
      progress: s.progress,
      conflicts: s.conflicts,
      skipped: s.skipped,
      errors: s.errors,
    };
  }

  async function emailOf(userId: string): Promise<string> {
    return (await repo.emailOf(userId))!;
  }

  return {
    state,

    /** Binds the account to `name` under the root (made when missing). The same folder again is a no-op. */
    async choose(userId: string, name: unknown): Promise<VaultState> {
      if (root === null) throw forbidden(NOT_ENABLED);
      const rootReal = realRoot();
      const path = target(name, rootReal);
      const current = await repo.binding(userId);
      if (current) {
        if (current.path === path || (existsSync(path) && current.path === realpathSync(path))) return state(userId);
        throw conflict(`Already connected to ${shown(current.path).folder}: disconnect it first`);
      }
      mkdirSync(path, { recursive: true });
      const real = realpathSync(path);
      if (!inside(rootReal, real)) throw fieldError("folder", "That folder leads outside the vaults root (a symbolic link)");
      try {
        await vault.connect(await emailOf(userId), real);
      } catch (e) {
        // The service names real paths (another account's folder among them): the person sees only their own name.
        const status = (e as { status?: number }).status;
        if (status === 409) throw conflict("That folder is taken, or holds or sits inside another account's folder: choose another name");
        if (status === 400) throw fieldError("folder", "That folder cannot be a vault (it holds or sits in the server's data)");
        throw e;
      }
      return state(userId);
    },

    /** Unbinds a folder the person chose; the operator's binding (outside the root) stays the operator's. */
    async disconnect(userId: string): Promise<VaultState> {
      if (root === null) throw forbidden(NOT_ENABLED);
      const current = await repo.binding(userId);
      if (current && shown(current.path).chosen_by === "operator") throw forbidden("This folder was bound by the operator; ask them to disconnect it (idearepo vault disconnect)");
      if (current) await vault.disconnect(await emailOf(userId));
      return state(userId);
    },
  };
}
