// compose.yaml and the Containerfile agree: the same image, volume, port and health check (runs everywhere, no podman).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { ENV_NAMES } from "../../src/config";

const ROOT = join(import.meta.dir, "../..");
const containerfile = readFileSync(join(ROOT, "Containerfile"), "utf8");
const composeText = readFileSync(join(ROOT, "compose.yaml"), "utf8");
const compose = parse(composeText) as { services: Record<string, any>; volumes: Record<string, unknown>; networks: Record<string, any> };

describe("compose.yaml", () => {
  const svc = compose.services.idearepo;

  test("builds ./Containerfile, keeps /data in a named volume, restarts, and publishes 8787 on loopback", () => {
    expect(svc.build).toEqual({ context: ".", dockerfile: "Containerfile" });
    const [volume, mount] = String(svc.volumes[0]).split(":");
    expect(mount).toBe("/data");
    expect(compose.volumes).toHaveProperty(volume);
    expect(svc.restart).toBe("unless-stopped");
    expect(svc.ports).toEqual(["127.0.0.1:8787:8787"]);
    expect(containerfile).toMatch(/^EXPOSE 8787$/m);
    expect(containerfile).toMatch(/^VOLUME \["\/data"\]$/m);
  });

  test("its health check is the image's, and every variable it sets or suggests is a real setting", () => {
    const imageCheck = /^HEALTHCHECK .* CMD (\[.*\])$/m.exec(containerfile)?.[1];
    expect(svc.healthcheck.test).toEqual(["CMD", ...JSON.parse(imageCheck!)]);
    const named = new Set([...Object.keys(svc.environment), ...[...composeText.matchAll(/\b(IDEAREPO_[A-Z_]+)\b/g)].map((m) => m[1])]);
    const containerEnv = [...containerfile.matchAll(/\b(IDEAREPO_[A-Z_]+)=/g)].map((m) => m[1]);
    for (const name of [...named, ...containerEnv]) expect(ENV_NAMES[name], name).toBeDefined();
  });

  test("the trusted proxies it names are the fixed addresses of its own network", () => {
    const subnet = compose.networks.idearepo.ipam.config[0];
    const prefix = subnet.subnet.split(".").slice(0, 3).join(".");
    for (const ip of String(svc.environment.IDEAREPO_TRUSTED_PROXIES).split(",")) expect(ip.startsWith(`${prefix}.`), ip).toBe(true);
    expect(String(svc.environment.IDEAREPO_TRUSTED_PROXIES).split(",")).toContain(subnet.gateway);
    expect(composeText).toContain(`ipv4_address: ${prefix}.10`); // the (commented) Caddy service
  });
});
