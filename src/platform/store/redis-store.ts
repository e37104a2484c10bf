import { createHash } from "node:crypto";
import KeyvRedis, { createClient } from "@keyv/redis";
import type { KeyListing, RawCas } from "./raw-cas.js";

export interface RedisClientOptions {
  url: string;
  /** Connection attempts before the first successful connect gives up. */
  initialAttempts?: number;
}

/**
 * One client shared by every namespace of a backend. A failing first
 * connection gives up quickly (a wrong URL should fail start-up); once it has
 * been up, the client reconnects forever with capped backoff.
 */
export function createRedisClient({ url, initialAttempts = 3 }: RedisClientOptions) {
  let everReady = false;
  const client = createClient({
    url,
    // While disconnected, fail commands at once instead of queueing them:
    // a handler waiting for an outage to end holds its chat's update queue.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5_000,
      reconnectStrategy: (retries: number, cause: Error) => {
        if (!everReady && retries + 1 >= initialAttempts) return cause;
        return Math.min(100 * 2 ** retries, 5_000);
      },
    },
  });
  client.on("ready", () => {
    everReady = true;
  });
  return client;
}

export type RedisClient = ReturnType<typeof createRedisClient>;

/** Keys a SCAN call looks at (Redis's default is 10: a listing of thousands would take hundreds of round trips). */
const SCAN_COUNT = 1_000;

/**
 * KeyvRedis with failures surfaced. It prefixes keys itself (`ns::key`),
 * so the Keyv over it must use `useKeyPrefix: false`. The client must be
 * connected before use: KeyvRedis calls `connect()` on a closed client from
 * every store at once, which node-redis refuses ("Socket already opened").
 */
export class RedisStore extends KeyvRedis<string> implements RawCas, KeyListing {
  constructor(private readonly shared: RedisClient) {
    super(shared, { throwOnErrors: true, throwOnConnectError: true, useUnlink: true });
  }

  /** The base version only emits clear failures; callers must see them. */
  override async clear(): Promise<void> {
    let failure: unknown;
    const capture = (error: unknown) => {
      failure ??= error;
    };
    this.on("error", capture);
    try {
      await super.clear();
    } finally {
      this.off("error", capture);
    }
    if (failure !== undefined) {
      throw failure instanceof Error ? failure : new Error("redis clear failed", { cause: failure });
    }
  }

  /**
   * A key can expire between SCAN and MGET; the base yields it with an
   * undefined value, which keyv's iterator then dereferences and throws on.
   * SCAN returns a key twice when Redis grows its table during the listing
   * (other writers on the server): each entry is listed once, as on the
   * other stores.
   */
  override async *iterator<U = string>(namespace?: string): AsyncGenerator<[string, U | undefined], void, unknown> {
    const listed = new Set<string>();
    for await (const [key, value] of super.iterator<U>(namespace)) {
      if (value === undefined || listed.has(key)) continue;
      listed.add(key);
      yield [key, value];
    }
  }

  /**
   * The keys of this namespace, a SCAN page at a time, without reading their values (KeyListing). SCAN may
   * return a key twice (the entries' listing leaves the second out; pages are not remembered); an expired one
   * Redis leaves out.
   */
  async *keyPages(): AsyncGenerator<string[], void> {
    const namespace = this.namespace;
    if (namespace === undefined) throw new Error("a Redis namespace is needed to list its keys");
    const match = `${namespace}${this.keyPrefixSeparator}*`;
    let cursor = "0";
    do {
      const result = await this.shared.scan(cursor, { MATCH: match, TYPE: "string", COUNT: SCAN_COUNT });
      cursor = result.cursor;
      if (result.keys.length > 0) yield result.keys.map((key) => this.getKeyWithoutPrefix(key, namespace));
    } while (cursor !== "0");
  }

  /** The backend owns the shared client and closes it once. */
  override async disconnect(): Promise<void> {}

  async readRaw(key: string): Promise<string | undefined> {
    return (await this.shared.get(this.createKeyPrefix(key, this.namespace))) ?? undefined;
  }

  /** One Lua script: compared and written with nothing in between. The text travels once, its SHA-1 stands in for it. */
  async swapRaw(key: string, expected: string | undefined, next: string | undefined, ttlMs: number | undefined): Promise<boolean> {
    const args = [
      expected === undefined ? "" : createHash("sha1").update(expected, "utf8").digest("hex"),
      next === undefined ? "0" : "1",
      next ?? "",
      ttlMs === undefined ? "" : String(ttlMs),
    ];
    return (await this.shared.eval(SWAP_SCRIPT, { keys: [this.createKeyPrefix(key, this.namespace)], arguments: args })) === 1;
  }
}

/** ARGV: SHA-1 of the expected text ("" = no entry), write or delete, the new text, PX ("" = none). */
const SWAP_SCRIPT = `local cur = redis.call('GET', KEYS[1])
if ARGV[1] == '' then
  if cur ~= false then return 0 end
elseif cur == false or redis.sha1hex(cur) ~= ARGV[1] then return 0 end
if ARGV[2] == '0' then redis.call('DEL', KEYS[1])
elseif ARGV[4] == '' then redis.call('SET', KEYS[1], ARGV[3])
else redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4]) end
return 1`;

/** Free, expired (Redis dropped it) or mine: take or extend it, in one script. */
const CLAIM_SCRIPT = `local v = redis.call('GET', KEYS[1])
if v == false or v == ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * `redisKey` is the lease's whole Redis key (`[<prefix>/]lease:<key>`): no
 * namespace has a `:` so it never meets keyv's `ns::key` keys.
 */
export async function claimRedisLease(client: RedisClient, redisKey: string, owner: string, ttlMs: number): Promise<boolean> {
  const result = await client.eval(CLAIM_SCRIPT, { keys: [redisKey], arguments: [owner, String(Math.max(1, Math.trunc(ttlMs)))] });
  return result === 1;
}

/** CLAIM_SCRIPT over every key: a list of 1/0 in the order of KEYS. */
const CLAIM_MANY_SCRIPT = `local out = {}
for i, k in ipairs(KEYS) do
  local v = redis.call('GET', k)
  if v == false or v == ARGV[1] then redis.call('SET', k, ARGV[1], 'PX', ARGV[2]) out[i] = 1 else out[i] = 0 end
end
return out`;

/** Keys per script call: one call of this size holds Redis for about a millisecond. */
const CLAIM_CHUNK = 1_000;

/** `claimRedisLease` for many keys: one script per `CLAIM_CHUNK` keys, each atomic. */
export async function claimRedisLeases(client: RedisClient, redisKeys: readonly string[], owner: string, ttlMs: number): Promise<boolean[]> {
  const results: boolean[] = [];
  for (let i = 0; i < redisKeys.length; i += CLAIM_CHUNK) {
    const keys = redisKeys.slice(i, i + CLAIM_CHUNK);
    const reply = (await client.eval(CLAIM_MANY_SCRIPT, { keys, arguments: [owner, String(Math.max(1, Math.trunc(ttlMs)))] })) as unknown[];
    for (const r of reply) results.push(r === 1);
  }
  return results;
}

export async function releaseRedisLease(client: RedisClient, redisKey: string, owner: string): Promise<void> {
  await client.eval(RELEASE_SCRIPT, { keys: [redisKey], arguments: [owner] });
}

/** RELEASE_SCRIPT over every key. */
const RELEASE_MANY_SCRIPT = `for _, k in ipairs(KEYS) do
  if redis.call('GET', k) == ARGV[1] then redis.call('DEL', k) end
end
return 0`;

/** `releaseRedisLease` for many keys: one script per `CLAIM_CHUNK` keys. */
export async function releaseRedisLeases(client: RedisClient, redisKeys: readonly string[], owner: string): Promise<void> {
  for (let i = 0; i < redisKeys.length; i += CLAIM_CHUNK) {
    await client.eval(RELEASE_MANY_SCRIPT, { keys: redisKeys.slice(i, i + CLAIM_CHUNK), arguments: [owner] });
  }
}
