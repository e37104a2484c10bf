/**
 * `npm run reencrypt`: re-seals every stored API key and webhook secret under
 * ENCRYPTION_KEY. Run it after a rotation (ENCRYPTION_KEY_PREVIOUS set to the
 * old key); values are otherwise re-sealed lazily when next read.
 * Conversation state waiting mid-flow is sealed too but lives at most 24 h:
 * keep ENCRYPTION_KEY_PREVIOUS that long after rotating so no flow is lost.
 */
import { createChatRepository } from "../core/chats/chat-repository.js";
import { openStore } from "../core/store/open-store.js";
import { createVault } from "../core/vault.js";
import { ConfigError, loadStorageConfig } from "../config.js";
import { createLogger } from "../logger.js";

async function reencrypt(): Promise<number> {
  let config;
  try {
    config = loadStorageConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel });
  const store = await openStore(config.storageUrl, { logger, prefix: config.storagePrefix, purgeIntervalMs: 0 });
  try {
    const vault = createVault({ key: config.encryptionKey, previousKey: config.encryptionKeyPrevious });
    const chats = createChatRepository({ store, vault, logger });
    const { resealed, failed } = await chats.resealAll();
    process.stdout.write(`Re-encrypted ${resealed} value(s); ${failed} could not be opened.\n`);
    return failed === 0 ? 0 : 2;
  } finally {
    await store.close();
  }
}

process.exitCode = await reencrypt();
