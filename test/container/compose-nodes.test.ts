// compose.nodes.yaml (PostgreSQL, two nodes, Caddy) holds together: one image, one database and master key for every
// node, a data volume each, Caddy the only trusted proxy and sending to every node (runs everywhere, no podman).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { ENV_NAMES } from "../../src/config";
import { call, makeApp } from "../helpers";

const ROOT = join(import.meta.dir, "../..");
const containerfile = readFileSync(join(ROOT, "Containerfile"), "utf8");
const text = readFileSync(join(ROOT, "compose.nodes.yaml"), "utf8");
const compose = parse(text, { merge: true }) as { services: Record<string, any>; volumes: Record<string, unknown>; networks: Record<string, any> };
const single = parse(readFileSync(join(ROOT, "compose.yaml"), "utf8")) as { services: Record<string, any> };

const nodeNames = Object.keys(compose.services).filter((n) => n.startsWith("node-"));
const nodes = nodeNames.map((n) => compose.services[n]);
const caddy = compose.services.caddy;
const pg = compose.services.postgres;
const address = (svc: any) => svc.networks.idearepo.ipv4_address as string;

describe("compose.nodes.yaml", () => {
  test("two or more nodes of the single-node image, each with a /data volume of its own", () => {
    expect(nodeNames.length).toBeGreaterThanOrEqual(2);
    const volumes = nodes.map((n) => String(n.volumes[0]).split(":"));
    for (const [volume, mount] of volumes) {
      expect(mount).toBe("/data");
      expect(compose.volumes).toHaveProperty(volume);
    }
    expect(new Set(volumes.map(([v]) => v)).size).toBe(nodes.length);
    for (const n of nodes) {
      expect(n.image).toBe(single.services.idearepo.image);
      expect(n.restart).toBe("unless-stopped");
      const imageCheck = /^HEALTHCHECK .* CMD (\[.*\])$/m.exec(containerfile)?.[1];
      expect(n.healthcheck.test).toEqual(["CMD", ...JSON.parse(imageCheck!)]);
    }
  });

  test("every node has the same settings: the database service's URL, one master key, a role that serves and runs the pipeline", () => {
    for (const n of nodes) expect(n.environment).toEqual(nodes[0].environment);
    const env = nodes[0].environment;
    const url = new URL(env.IDEAREPO_DATABASE_URL.replace(/\$\{POSTGRES_PASSWORD[^}]*\}/, "secret"));
    expect(url.protocol).toBe("postgres:");
    expect(url.hostname).toBe("postgres");
    expect(url.username).toBe(pg.environment.POSTGRES_USER);
    expect(url.pathname).toBe(`/${pg.environment.POSTGRES_DB}`);
    expect(env.IDEAREPO_MASTER_KEY).toMatch(/^\$\{IDEAREPO_MASTER_KEY:\?/); // required: compose stops when it is not set
    const roles = nodes.map((n) => n.environment.IDEAREPO_ROLE);
    expect(roles.some((r) => r === "all" || r === "web")).toBe(true);
    expect(roles.some((r) => r === "all" || r === "worker")).toBe(true);
    for (const n of nodes) expect(Object.keys(n.depends_on)).toContain("postgres");
    expect(pg.healthcheck.test).toContain("pg_isready");
  });

  test("every variable it sets or names is a real setting", () => {
    const named = new Set([...Object.keys(nodes[0].environment), ...[...text.matchAll(/\b(IDEAREPO_[A-Z_]+)\b/g)].map((m) => m[1])]);
    named.delete("IDEAREPO_SITE"); // Caddy's site address, read by the Caddyfile, not by idearepo
    for (const name of named) expect(ENV_NAMES[name], name).toBeDefined();
  });

  test("Caddy is the one trusted proxy, and sends to every node (and to nothing else) with the health route as its check", async () => {
    expect(nodes[0].environment.IDEAREPO_TRUSTED_PROXIES).toBe(address(caddy));
    const caddyfile = String(caddy.environment.CADDYFILE);
    const upstreams = /reverse_proxy ([^{]+)\{/.exec(caddyfile)![1].trim().split(/\s+/);
    expect(upstreams.sort()).toEqual(nodeNames.map((n) => `${n}:8787`).sort());
    const healthUri = /health_uri (\S+)/.exec(caddyfile)![1];
    const t = makeApp();
    try {
      expect((await call(t, "GET", healthUri.replace(/^\/api\/v1/, ""))).status).toBe(200);
    } finally {
      await t.close();
    }
    expect(caddy.entrypoint.join(" ")).toContain("/etc/caddy/Caddyfile");
  });

  test("fixed addresses inside its own subnet, none shared", () => {
    const { subnet } = compose.networks.idearepo.ipam.config[0];
    const prefix = subnet.split(".").slice(0, 3).join(".");
    const all = Object.values(compose.services).map(address);
    for (const ip of all) expect(ip.startsWith(`${prefix}.`), ip).toBe(true);
    expect(new Set(all).size).toBe(all.length);
  });
});
