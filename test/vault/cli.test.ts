// Black box: `idearepo vault connect | status | disconnect` against a running server, which picks each change up by
// itself; the folder and the ideas then move together through real files and HTTP.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, createUser, runCommand, startServer, type ServerProcess } from "../ops/harness";
import { tempDir } from "../cli";
import { until } from "./support";

const dataDir = tempDir("idearepo-vault-cli-");
const folder = mkdtempSync(join(tmpdir(), "idearepo-vault-cli-folder-"));
const email = "gardener@example.com";
let key = "";
let server: ServerProcess;

beforeAll(async () => {
  key = createUser(dataDir, email, "pro");
  server = await startServer({ dataDir, timeoutMs: 60_000 });
}, 90_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCommand(args, { dataDir });
const live = async () => (await api(server.base, key, "GET", "/ideas?limit=100")).body.ideas as Array<{ id: number; title: string }>;
const idea = async (id: number) => (await api(server.base, key, "GET", `/ideas/${id}`)).body;

describe("vault commands against a running server", () => {
  test("connect: the server syncs the folder within seconds; the issue's list, end to end", async () => {
    const connected = cli("vault", "connect", "--email", email, "--path", folder);
    expect(connected.code).toBe(0);
    expect(JSON.parse(connected.stdout).vault).toMatchObject({ email, files: 0 });

    // A new note becomes an idea (the server picks the binding up within 10 s, then a file within 5 s).
    writeFileSync(join(folder, "Compost bin.md"), "Three bays, pallets.\n");
    const found = await until("Compost bin", async () => (await live()).find((i) => i.title === "Compost bin"), 15_000);
    expect((await idea(found.id)).body).toBe("Three bays, pallets.");

    // Its body edited in the file changes the idea.
    await until("the id in the file", () => readFileSync(join(folder, "Compost bin.md"), "utf8").includes(`id: ${found.id}`));
    const text = readFileSync(join(folder, "Compost bin.md"), "utf8");
    writeFileSync(join(folder, "Compost bin.md"), text.replace("Three bays, pallets.", "Three bays, pallets, a lid."));
    await until("the edit", async () => (await idea(found.id)).body === "Three bays, pallets, a lid.");

    // A PATCH of the body rewrites the file.
    await api(server.base, key, "PATCH", `/ideas/${found.id}`, { body: "Three bays, pallets, a lid, a thermometer." });
    await until("the rewrite", () => readFileSync(join(folder, "Compost bin.md"), "utf8").includes("a lid, a thermometer."));

    // Renaming the file retitles the same idea.
    renameSync(join(folder, "Compost bin.md"), join(folder, "Compost bays.md"));
    await until("the new title", async () => (await idea(found.id)).title === "Compost bays");

    // Deleting it archives the idea.
    rmSync(join(folder, "Compost bays.md"));
    await until("archived", async () => !(await live()).some((i) => i.id === found.id));
    expect((await idea(found.id)).body).toBe("Three bays, pallets, a lid, a thermometer.");

    const status = cli("vault", "status", "--email", email);
    expect(status.code).toBe(0);
    const s = JSON.parse(status.stdout).vault;
    expect(s.path).toBe(JSON.parse(connected.stdout).vault.path);
    expect(s.initial_sync_at).not.toBeNull();
    expect(s.last_sync_at).not.toBeNull();
  }, 90_000);

  test("a second account cannot take the same folder; unknown accounts and options are one-line errors", () => {
    createUser(dataDir, "other@example.com", "pro");
    const taken = cli("vault", "connect", "--email", "other@example.com", "--path", join(folder, "inner"));
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain("overlaps the folder of another account");
    const nobody = cli("vault", "status", "--email", "nobody@example.com");
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toContain("No account with e-mail nobody@example.com");
    expect(cli("vault", "connect", "--email", email).code).toBe(2);
    expect(cli("vault", "sync").code).toBe(2);
  });

  test("disconnect: the server stops syncing within seconds; files and ideas stay", async () => {
    writeFileSync(join(folder, "Kept.md"), "Stays.");
    await until("Kept", async () => (await live()).some((i) => i.title === "Kept"), 10_000);
    const out = cli("vault", "disconnect", "--email", email);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ disconnected: true });
    await until("the server dropped the folder", () => server.logs.some((l) => l.includes('"vault disconnected"')), 10_000);
    writeFileSync(join(folder, "After.md"), "Not synced.");
    await Bun.sleep(1_500);
    expect((await live()).map((i) => i.title)).not.toContain("After");
    expect(existsSync(join(folder, "Kept.md"))).toBe(true);
    expect(JSON.parse(cli("vault", "status").stdout)).toEqual({ vaults: [] });
  }, 60_000);
});
