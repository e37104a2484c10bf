import { existsSync } from "node:fs";
import { z } from "zod";
import { isValidTimeZone } from "./shared/limits/spend-window.js";
import { DEFAULT_ENERGY_BURN_PRICE_SUN } from "./shared/burn-saving.js";
import { isValidTronAddress } from "./shared/tron/address.js";
import { NETWORKS, TRON_NETWORKS, type TronNetwork } from "./shared/tron/network.js";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export const SUPPORTED_LOCALES = ["en", "ru", "zh"] as const;
export type SupportedLocale = (typeof SUPPORTED_LOCALES)[number];
/** `worker`: no Telegram intake; runs the shared queues, the tracker and the HTTP server (scale-out on Redis). */
export const BOT_MODES = ["polling", "webhook", "worker"] as const;
export type BotMode = (typeof BOT_MODES)[number];

const base64Key = z
  .string()
  .refine((s) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(s) && Buffer.from(s, "base64").length === 32, {
    message: "must be 32 random bytes encoded as base64 (e.g. `openssl rand -base64 32`)",
  })
  .transform((s) => Buffer.from(s, "base64"));

const httpUrl = z.url({ protocol: /^https?$/ }).transform((s) => s.replace(/\/+$/, ""));

/**
 * Words of a placeholder (`.env.example` says "replace-with-the-token-from-BotFather"),
 * each long enough that a real token's 35 random characters contain it by chance
 * about once in a billion tokens.
 */
const PLACEHOLDER_WORDS = /replace|example|botfather|placeholder|changeme|your[-_]?token/i;

/** A token copied from a template: it would only ever loop on "Telegram unreachable". */
export function isPlaceholderToken(token: string): boolean {
  return PLACEHOLDER_WORDS.test(token);
}

/**
 * A host reserved for examples (RFC 2606: example.com/.net/.org, the .example
 * and .invalid TLDs) or named like one (`api.example-energy-service.com`).
 */
export function isExampleHost(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  const labels = host.split(".");
  const tld = labels.at(-1) ?? "";
  return tld === "example" || tld === "invalid" || labels.some((l) => l === "example" || l.startsWith("example-"));
}

/** A URL the bot connects to: an example host there would only ever time out. */
const reachableUrl = httpUrl.refine((s) => !isExampleHost(s), {
  message: "is an example address (as in .env.example); set the real one",
});

/** Tronscan (mainnet); a TRON_NETWORK's own Tronscan when EXPLORER_URL is unset. */
export const DEFAULT_EXPLORER_URL = NETWORKS.mainnet.explorerUrl;

/** No `/`, `:` or glob/LIKE wildcards: it is joined to store namespaces, lease keys and the BullMQ prefix with `/`. */
const STORAGE_PREFIX = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

const storageUrl = z.string().refine((s) => /^(sqlite|redis|rediss|postgres|postgresql):\/\//.test(s), {
  message: "must start with sqlite://, redis://, rediss://, postgres:// or postgresql://",
});

/**
 * Environment variables, mapped to camelCase in the schema itself.
 * Secrets are parsed here but their values never appear in an error.
 */
const envSchema = z.object({
  BOT_TOKEN: z
    .string()
    .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, { message: "must look like 123456:ABC-DEF… (from @BotFather)" })
    .refine((s) => !isPlaceholderToken(s), { message: "is the placeholder of .env.example; set the token @BotFather gave you" }),
  TELEGRAM_API_ROOT: reachableUrl.default("https://api.telegram.org"),
  SERVICE_BASE_URL: reachableUrl,
  ENCRYPTION_KEY: base64Key,
  ENCRYPTION_KEY_PREVIOUS: base64Key.optional(),
  STORAGE_URL: storageUrl.default("sqlite://data/bot.sqlite"),
  STORAGE_PREFIX: z
    .string()
    .regex(STORAGE_PREFIX, { message: "must be 1 to 40 letters, digits, _ or -, starting with a letter or digit (e.g. bot-a)" })
    .optional(),
  HTTP_PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HTTP_HOST: z.string().min(1).default("0.0.0.0"),
  PUBLIC_URL: httpUrl.optional(),
  SERVICE_HEADER_PREFIX: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9-]*$/, { message: "must be a header name prefix such as X-Service" })
    .default("X-Service"),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  DEFAULT_LOCALE: z.enum(SUPPORTED_LOCALES).default("en"),
  BOT_MODE: z.enum(BOT_MODES).default("polling"),
  TELEGRAM_WEBHOOK_SECRET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,256}$/)
    .optional(),
  WEBHOOK_UPDATE_LEASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,256}$/, { message: "must be 16 to 256 printable characters (e.g. `openssl rand -hex 32`)" })
    .optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  KEEP_TICK_MS: z.coerce.number().int().min(10).max(3_600_000).default(5_000),
  KEEP_RENEWAL_LEAD_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  KEEP_LEAD_MAX_FRACTION: z.coerce.number().min(0).max(0.99).default(0.5),
  KEEP_LEASE_TTL_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  KEEP_BALANCE_RECHECK_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  TRACKING_LEASE_TTL_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  TRACKING_SCAN_MS: z.coerce.number().int().min(10).max(3_600_000).default(5_000),
  TRACKING_SPREAD_MAX_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  TRACKING_MAX_READS_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(100),
  TRACKING_NOT_FOUND_GRACE_MS: z.coerce.number().int().min(0).max(86_400_000).default(600_000),
  TRACKING_NOT_FOUND_READS: z.coerce.number().int().min(1).max(1_000).default(5),
  BALANCE_WATCH_INTERVAL_MS: z.coerce.number().int().min(10).max(86_400_000).default(180_000),
  BALANCE_WATCH_SETTLE_MS: z.coerce.number().int().min(10).max(3_600_000).default(5_000),
  BALANCE_WATCH_MAX_BACKOFF_MS: z.coerce.number().int().min(10).max(86_400_000).default(1_800_000),
  TOPUP_WATCH_FIRST_DELAY_MS: z.coerce.number().int().min(10).max(3_600_000).default(3_000),
  TOPUP_WATCH_MAX_DELAY_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  EXPIRY_REMINDER_LEAD_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  EXPIRY_REMINDER_MAX_LEAD_PERCENT: z.coerce.number().int().min(1).max(99).default(50),
  EXPIRY_REMINDER_RESCAN_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  LIMITS_TIME_ZONE: z.string().refine(isValidTimeZone, { message: "must be an IANA time zone such as UTC or Europe/Moscow" }).default("UTC"),
  ENERGY_BURN_PRICE_SUN: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_ENERGY_BURN_PRICE_SUN),
  TRON_NETWORK: z.enum(TRON_NETWORKS).default("mainnet"),
  USDT_CONTRACT: z.string().refine(isValidTronAddress, { message: "must be a base58 TRON address (T…)" }).optional(),
  EXPLORER_URL: httpUrl.optional(),
  DASHBOARD_URL: httpUrl.optional(),
  SUPPORT_URL: httpUrl.optional(),
});

export type Config = {
  botToken: string;
  telegramApiRoot: string;
  serviceBaseUrl: string;
  encryptionKey: Buffer;
  encryptionKeyPrevious: Buffer | undefined;
  storageUrl: string;
  /** Put before every key, namespace and queue of this deployment in the store ("" = none, the keys as before). */
  storagePrefix: string;
  httpPort: number;
  httpHost: string;
  publicUrl: string | undefined;
  serviceHeaderPrefix: string;
  logLevel: (typeof LOG_LEVELS)[number];
  defaultLocale: SupportedLocale;
  botMode: BotMode;
  telegramWebhookSecret: string | undefined;
  /** BOT_MODE=webhook: an update being handled is claimed this long (renewed meanwhile); a dead process's updates move after it. */
  webhookUpdateLeaseMs: number;
  /** When set, /metrics answers only `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** When set, /metrics is served on its own listener (METRICS_HOST:METRICS_PORT) and not on HTTP_PORT. */
  metricsPort: number | undefined;
  metricsHost: string;
  /** Keep-charged plans: how often plans are looked at, how early the next slot is bought, and the plans' lease. */
  keep: {
    tickMs: number;
    /** Bought this long before the current delegation ends… */
    leadMs: number;
    /** …but never earlier than this fraction of the duration before it (a slot is never bought twice). */
    leadMaxFraction: number;
    leaseTtlMs: number;
    /** While a plan waits for a top-up, how often the balance is read. */
    balanceRecheckMs: number;
  };
  /**
   * Tracking shared by every process on the store (docs/tracking.md): an item's lease, how often
   * leases are renewed and free items adopted, and over how long a pile of overdue first reads is spread.
   */
  tracking: { leaseTtlMs: number; scanIntervalMs: number; spreadMaxMs: number; maxReadsPerSecond: number; notFoundGraceMs: number; notFoundReads: number };
  /** The balance watch of linked chats (docs/balance-watch.md): idle read interval, re-read while a charge of the bot's own is in flight, backoff cap. */
  balanceWatch: { intervalMs: number; settleMs: number; maxBackoffMs: number };
  /** Backoff of the reads while a quote or a 402 waits for a top-up: first read, cap. */
  topUpWatch: { firstDelayMs: number; maxDelayMs: number };
  /** How long before a delegation ends an opted-in chat is reminded (docs/expiry.md). */
  expiryReminderLeadMs: number;
  /** The lead never exceeds this share of the order's duration (a 1m order is still reminded). */
  expiryReminderMaxLeadPercent: number;
  /** How often each process reads the reminder schedule again (reminders another process scheduled). */
  expiryReminderRescanMs: number;
  /** The zone of the spend limits' days and months for a chat that set none in /limits. */
  limitsTimeZone: string;
  /** Sun per unit of energy when TRX is burnt for it: the statements' saving estimate (docs/statements.md). */
  energyBurnPriceSun: number;
  /** Block explorer base: `<base>/transaction/<txId>` and `<base>/address/<address>` (Tronscan's paths). */
  explorerUrl: string;
  /** The chain /send transfers on: its USDT contract (USDT_CONTRACT overrides it) and the genesis a wallet must be on. */
  network: TronNetwork;
  /** The account dashboard: a button wherever a text sends the user there; none when unset. */
  dashboardUrl: string | undefined;
  /** Where users reach support: a button wherever a text says "contact support"; none when unset. */
  supportUrl: string | undefined;
};

/** Every bad or missing variable at once, each named, never with its value. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(readonly problems: readonly string[]) {
    super(problems.join("; "));
  }
}

type Env = Record<string, string | undefined>;

/** Unset and empty variables are the same: `FOO=` in a .env file means "not set". */
function cleanEnv(env: Env): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ""));
}

/** One problem per variable (the first zod reports), in the schema's order. */
function schemaProblems(error: z.ZodError, cleaned: Record<string, string>): Map<string, string> {
  const problems = new Map<string, string>();
  for (const issue of error.issues) {
    const variable = String(issue.path[0] ?? "environment");
    if (problems.has(variable)) continue;
    const reason = issue.code === "invalid_type" && cleaned[variable] === undefined ? "is required" : issue.message;
    problems.set(variable, `${variable} ${reason || "is invalid"}`);
  }
  return problems;
}

/** Validates with `schema`; the error lists every bad variable, never a value. */
function parseEnv<S extends z.ZodType>(schema: S, env: Env, crossChecks: (e: Record<string, string>) => [string, string][] = () => []): z.infer<S> {
  const cleaned = cleanEnv(env);
  const result = schema.safeParse(cleaned);
  const problems = result.success ? new Map<string, string>() : schemaProblems(result.error, cleaned);
  // Checks across variables run on the raw values, so they are reported together with the rest.
  for (const [variable, problem] of crossChecks(cleaned)) {
    if (!problems.has(variable)) problems.set(variable, problem);
  }
  if (problems.size > 0 || !result.success) throw new ConfigError([...problems.values()]);
  return result.data;
}

function modeChecks(e: Record<string, string>): [string, string][] {
  const problems: [string, string][] = [];
  if (e["BOT_MODE"] === "webhook" && !e["PUBLIC_URL"]) {
    problems.push(["PUBLIC_URL", "PUBLIC_URL is required when BOT_MODE=webhook"]);
  }
  // Without it anyone who can reach /telegram could post updates as any chat.
  if (e["BOT_MODE"] === "webhook" && !e["TELEGRAM_WEBHOOK_SECRET"]) {
    problems.push(["TELEGRAM_WEBHOOK_SECRET", "TELEGRAM_WEBHOOK_SECRET is required when BOT_MODE=webhook (e.g. `openssl rand -hex 32`)"]);
  }
  // Only BullMQ queues can be shared: a worker on a local queue would resend another process's jobs.
  if (e["BOT_MODE"] === "worker" && !/^rediss?:\/\//.test(e["STORAGE_URL"] ?? "")) {
    problems.push(["STORAGE_URL", "STORAGE_URL must be redis:// or rediss:// when BOT_MODE=worker"]);
  }
  // Renewed every scan: a lease shorter than two scans would lapse while its holder is alive.
  const ttl = Number(e["TRACKING_LEASE_TTL_MS"] ?? 15_000);
  const scan = Number(e["TRACKING_SCAN_MS"] ?? 5_000);
  if (Number.isFinite(ttl) && Number.isFinite(scan) && ttl < 2 * scan) {
    problems.push(["TRACKING_LEASE_TTL_MS", "TRACKING_LEASE_TTL_MS must be at least twice TRACKING_SCAN_MS"]);
  }
  return problems;
}

/** Pure: validates an environment object. Throws one ConfigError listing every bad variable. */
export function parseConfig(env: Env): Config {
  const e = parseEnv(envSchema, env, modeChecks);
  return {
    botToken: e.BOT_TOKEN,
    telegramApiRoot: e.TELEGRAM_API_ROOT,
    serviceBaseUrl: e.SERVICE_BASE_URL,
    encryptionKey: e.ENCRYPTION_KEY,
    encryptionKeyPrevious: e.ENCRYPTION_KEY_PREVIOUS,
    storageUrl: e.STORAGE_URL,
    storagePrefix: e.STORAGE_PREFIX ?? "",
    httpPort: e.HTTP_PORT,
    httpHost: e.HTTP_HOST,
    publicUrl: e.PUBLIC_URL,
    serviceHeaderPrefix: e.SERVICE_HEADER_PREFIX,
    logLevel: e.LOG_LEVEL,
    defaultLocale: e.DEFAULT_LOCALE,
    botMode: e.BOT_MODE,
    telegramWebhookSecret: e.TELEGRAM_WEBHOOK_SECRET,
    webhookUpdateLeaseMs: e.WEBHOOK_UPDATE_LEASE_MS,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    keep: {
      tickMs: e.KEEP_TICK_MS,
      leadMs: e.KEEP_RENEWAL_LEAD_MS,
      leadMaxFraction: e.KEEP_LEAD_MAX_FRACTION,
      leaseTtlMs: e.KEEP_LEASE_TTL_MS,
      balanceRecheckMs: e.KEEP_BALANCE_RECHECK_MS,
    },
    tracking: {
      leaseTtlMs: e.TRACKING_LEASE_TTL_MS,
      scanIntervalMs: e.TRACKING_SCAN_MS,
      spreadMaxMs: e.TRACKING_SPREAD_MAX_MS,
      maxReadsPerSecond: e.TRACKING_MAX_READS_PER_SECOND,
      notFoundGraceMs: e.TRACKING_NOT_FOUND_GRACE_MS,
      notFoundReads: e.TRACKING_NOT_FOUND_READS,
    },
    balanceWatch: { intervalMs: e.BALANCE_WATCH_INTERVAL_MS, settleMs: e.BALANCE_WATCH_SETTLE_MS, maxBackoffMs: e.BALANCE_WATCH_MAX_BACKOFF_MS },
    topUpWatch: { firstDelayMs: e.TOPUP_WATCH_FIRST_DELAY_MS, maxDelayMs: e.TOPUP_WATCH_MAX_DELAY_MS },
    expiryReminderLeadMs: e.EXPIRY_REMINDER_LEAD_SECONDS * 1000,
    expiryReminderMaxLeadPercent: e.EXPIRY_REMINDER_MAX_LEAD_PERCENT,
    expiryReminderRescanMs: e.EXPIRY_REMINDER_RESCAN_SECONDS * 1000,
    limitsTimeZone: e.LIMITS_TIME_ZONE,
    energyBurnPriceSun: e.ENERGY_BURN_PRICE_SUN,
    explorerUrl: e.EXPLORER_URL ?? NETWORKS[e.TRON_NETWORK].explorerUrl,
    network: { ...NETWORKS[e.TRON_NETWORK], ...(e.USDT_CONTRACT === undefined ? {} : { usdtContract: e.USDT_CONTRACT }) },
    dashboardUrl: e.DASHBOARD_URL,
    supportUrl: e.SUPPORT_URL,
  };
}

const storageEnvSchema = envSchema.pick({
  ENCRYPTION_KEY: true,
  ENCRYPTION_KEY_PREVIOUS: true,
  STORAGE_URL: true,
  STORAGE_PREFIX: true,
  LOG_LEVEL: true,
});

/** The subset maintenance commands need (re-encryption): no bot token or service URL. */
export type StorageConfig = Pick<Config, "encryptionKey" | "encryptionKeyPrevious" | "storageUrl" | "storagePrefix" | "logLevel">;

export function parseStorageConfig(env: Env): StorageConfig {
  const e = parseEnv(storageEnvSchema, env);
  return {
    encryptionKey: e.ENCRYPTION_KEY,
    encryptionKeyPrevious: e.ENCRYPTION_KEY_PREVIOUS,
    storageUrl: e.STORAGE_URL,
    storagePrefix: e.STORAGE_PREFIX ?? "",
    logLevel: e.LOG_LEVEL,
  };
}

function readEnvFile(path: string): Env {
  if (existsSync(path)) {
    // Node >= 20.12: does not override variables already set in the environment.
    process.loadEnvFile(path);
  }
  return process.env;
}

/** Reads `.env` when present (process env wins), then parses. */
export function loadConfig(path = ".env"): Config {
  return parseConfig(readEnvFile(path));
}

export function loadStorageConfig(path = ".env"): StorageConfig {
  return parseStorageConfig(readEnvFile(path));
}
