/**
 * `npm run reencrypt [-- --progress-every N]`: re-seals every stored API key
 * and webhook secret not yet under ENCRYPTION_KEY. Run it after a rotation
 * (ENCRYPTION_KEY_PREVIOUS set to the old key); values are otherwise
 * re-sealed lazily when next read. Each value is written on its own, so a run
 * that is stopped (killed, a store outage) is finished by running it again
 * with the same keys; a line every N values (default 100) shows how far it got.
 * Conversation state waiting mid-flow is sealed too but lives at most 24 h:
 * keep ENCRYPTION_KEY_PREVIOUS that long after rotating so no flow is lost.
 */
import { once } from "node:events";
import { parseArgs } from "node:util";
import { createChatRepository, type ResealTally } from "../shared/chats/chat-repository.js";
import { openStore } from "../platform/store/open-store.js";
import { createVault } from "../shared/vault.js";
import { ConfigError, loadStorageConfig } from "../config.js";
import { createLogger } from "../platform/logger.js";

/** Waits while the reader is behind: a progress line is never buffered far ahead of the work it reports. */
async function say(line: string): Promise<void> {
  if (!process.stdout.write(`${line}\n`)) await once(process.stdout, "drain");
}

const counts = (t: ResealTally) => `${t.resealed} re-encrypted, ${t.current} already under the current key, ${t.failed} could not be opened`;

function progressEvery(args: string[]): number | undefined {
  const { values } = parseArgs({ args, options: { "progress-every": { type: "string" } } });
  const text = values["progress-every"] ?? "100";
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

async function reencrypt(): Promise<number> {
  let config;
  let every: number | undefined;
  try {
    config = loadStorageConfig();
    every = progressEvery(process.argv.slice(2));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`Usage: npm run reencrypt [-- --progress-every N] (${(error as Error).message})\n`);
    return 1;
  }
  if (every === undefined) {
    process.stderr.write("Usage: npm run reencrypt [-- --progress-every N] (N is a whole number of values, at least 1)\n");
    return 1;
  }
  const logger = createLogger({ level: config.logLevel });
  const store = await openStore(config.storageUrl, { logger, prefix: config.storagePrefix, purgeIntervalMs: 0 });
  try {
    const vault = createVault({ key: config.encryptionKey, previousKey: config.encryptionKeyPrevious });
    const chats = createChatRepository({ store, vault, logger });
    const tally = await chats.resealAll(async (t) => {
      const seen = t.resealed + t.current + t.failed;
      if (seen % every === 0) await say(`Progress: ${seen} value(s): ${counts(t)}`);
    });
    await say(`Re-encrypted ${tally.resealed} value(s); ${tally.failed} could not be opened; ${tally.current} already under the current key.`);
    if (tally.failed > 0) {
      await say(
        "Values that could not be opened are left as they were: set ENCRYPTION_KEY_PREVIOUS to the key they were sealed with and run this again " +
          "(the bot names the key ids it is missing when it starts).",
      );
    }
    return tally.failed === 0 ? 0 : 2;
  } finally {
    await store.close();
  }
}

process.exitCode = await reencrypt();
