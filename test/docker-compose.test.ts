/**
 * docker-compose.yml (README "Scaling out"): Redis, two webhook replicas
 * behind a proxy, one worker, each with a healthcheck. Docker is not needed:
 * the file is read, and what it sets is parsed by the bot's own config.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../src/config.js";
import { parseComposeYaml, type YamlValue } from "./support/compose-yaml.js";

const root = join(import.meta.dirname, "..");
const compose = parseComposeYaml(readFileSync(join(root, "docker-compose.yml"), "utf8"));
const services = compose["services"] as Record<string, Record<string, YamlValue>>;
const configSource = readFileSync(join(root, "src", "config.ts"), "utf8");
/** The keys of envSchema, as written in src/config.ts. */
const schemaKeys = new Set(
  [...configSource.slice(configSource.indexOf("const envSchema"), configSource.indexOf("export type Config")).matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map(
    (m) => m[1]!,
  ),
);
/** What .env must hold at least (values that pass the schema). */
const dotEnv = {
  BOT_TOKEN: "123456789:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  SERVICE_BASE_URL: "https://energy.service.internal",
  ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
  PUBLIC_URL: "https://bot.example.com",
  TELEGRAM_WEBHOOK_SECRET: "s3cret",
};
const bots = ["bot-1", "bot-2", "worker"];

function environmentOf(name: string): Record<string, string> {
  return (services[name]?.["environment"] ?? {}) as Record<string, string>;
}

describe("docker-compose.yml", () => {
  it("runs Redis, two webhook replicas, one worker and a proxy", () => {
    expect(Object.keys(services).sort()).toEqual(["bot-1", "bot-2", "proxy", "redis", "worker"]);
    expect(environmentOf("bot-1")["BOT_MODE"]).toBe("webhook");
    expect(environmentOf("bot-2")["BOT_MODE"]).toBe("webhook");
    expect(environmentOf("worker")["BOT_MODE"]).toBe("worker");
  });

  it("gives every service a healthcheck, the bots' on /healthz", () => {
    for (const [name, service] of Object.entries(services)) expect(service["healthcheck"], name).toMatchObject({ test: expect.any(Array) });
    for (const name of bots) expect(JSON.stringify(services[name]!["healthcheck"])).toContain("/healthz");
  });

  it("builds the bots from the Dockerfile, reads .env, and starts them once Redis is healthy", () => {
    for (const name of bots) {
      expect(services[name]).toMatchObject({ build: ".", env_file: ".env", depends_on: { redis: { condition: "service_healthy" } } });
    }
  });

  it("sets only variables the config knows, and the config accepts them with .env's required ones", () => {
    for (const name of bots) {
      const env = environmentOf(name);
      for (const key of Object.keys(env)) expect(schemaKeys, `${name}: ${key}`).toContain(key);
      const config = parseConfig({ ...dotEnv, ...env });
      expect(config.storageUrl).toMatch(/^redis:\/\/redis:/);
      expect(config.httpPort).toBe(8080);
    }
  });

  it("points the proxy at both replicas' port, as the bots listen on it", () => {
    const caddyfile = readFileSync(join(root, "deploy", "Caddyfile"), "utf8");
    expect(caddyfile).toMatch(/reverse_proxy bot-1:8080 bot-2:8080/);
    expect(services["proxy"]!["volumes"]).toContain("./deploy/Caddyfile:/etc/caddy/Caddyfile:ro");
  });
});
