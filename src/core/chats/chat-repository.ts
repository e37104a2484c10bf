import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { z } from "zod";
import type { SupportedLocale } from "../../config.js";
import { createRecordStore } from "../store/record-store.js";
import type { StoreBackend } from "../store/types.js";
import type { Vault } from "../vault.js";
import { accountIdOf, keyAccountId, type ChatAccount } from "./account-id.js";
import { newRouteId } from "./route-id.js";
import { CHAT_RECORD_VERSION, chatRecordSchema, newChatRecord, type ChatRecord, type NotificationSettings } from "./chat-record.js";

/** The part of the vault the repository needs. */
export type ChatVault = Pick<Vault, "seal" | "open" | "fingerprint">;

export interface ChatRepositoryDeps {
  store: StoreBackend;
  vault: ChatVault;
  logger: Logger;
  now?: () => Date;
}

export interface LinkInput {
  apiKey: string;
  /** Undefined keeps no secret (webhooks are then only hints). */
  webhookSecret?: string | undefined;
  /** From GET /v1/balance: names the account (`account-id.ts`); null or absent when it has no wallet. */
  depositAddress?: string | null | undefined;
  /** The Telegram `language_code` of the user who linked (kept when absent). */
  languageCode?: string | undefined;
}

/** A chat with a key that opens for it: what the use cases that call the service need. */
export interface LinkedChat {
  chatId: number;
  apiKey: string;
  record: ChatRecord;
}

export interface ChatRepository {
  get(chatId: number): Promise<ChatRecord | undefined>;
  /** The record and its key, opened, from one read; undefined when the key is absent or does not open for this chat. */
  open(chatId: number): Promise<LinkedChat | undefined>;
  /** As `open`, for a record already read. */
  openRecord(record: ChatRecord): Promise<LinkedChat | undefined>;
  /** True only when the stored key opens for this chat (what getApiKey would return). */
  isLinked(chatId: number): Promise<boolean>;
  /** Stores the key (and secret) sealed; a re-link replaces both and keeps the route. */
  link(chatId: number, input: LinkInput): Promise<ChatRecord>;
  /** The linked account (history is kept per chat and account), undefined when unlinked. */
  account(chatId: number): Promise<ChatAccount | undefined>;
  /** Removes key, secret, route and the account; locale and settings stay. False when nothing was linked. */
  unlink(chatId: number): Promise<boolean>;
  /** The plaintext key, or undefined when unlinked or when the sealed value does not open for this chat. */
  getApiKey(chatId: number): Promise<string | undefined>;
  getWebhookSecret(chatId: number): Promise<string | undefined>;
  /** Undefined removes the secret. Throws when the chat is not linked. */
  setWebhookSecret(chatId: number, secret: string | undefined): Promise<void>;
  findChatByRouteId(routeId: string): Promise<number | undefined>;
  /** New routeId for a linked chat (the old one stops resolving), undefined when unlinked. */
  rotateRoute(chatId: number): Promise<string | undefined>;
  getLocale(chatId: number): Promise<SupportedLocale | undefined>;
  setLocale(chatId: number, locale: SupportedLocale): Promise<void>;
  /** Remembers the user's Telegram `language_code` on a chat that has a record; never creates one. */
  setLanguageCode(chatId: number, languageCode: string): Promise<void>;
  setNotifications(chatId: number, change: Partial<NotificationSettings>): Promise<NotificationSettings>;
  markInactive(chatId: number): Promise<void>;
  markActive(chatId: number): Promise<void>;
  list(): AsyncIterable<ChatRecord>;
  /**
   * Re-seals every stored key and secret not yet under the current vault key
   * and format (after a key rotation). Each value is written on its own, so a
   * run stopped half-way is finished by running it again. `onProgress` is
   * called after each value with the counts so far, and awaited.
   */
  resealAll(onProgress?: (progress: ResealTally) => void | Promise<void>): Promise<ResealTally>;
}

export interface ResealTally {
  /** Moved to the current key and format. */
  resealed: number;
  /** Already under the current key and format: left as they are. */
  current: number;
  /** Open under no configured key (or not for their chat): left as they are. */
  failed: number;
}

const routeSchema = z.object({ chatId: z.number().int() });

export type SealedField = "apiKeySealed" | "webhookSecretSealed";

/** What each sealed value is, bound into its associated data: a webhook secret never opens as an API key. */
export const VAULT_FIELD: Record<SealedField, string> = { apiKeySealed: "api-key", webhookSecretSealed: "webhook-secret" };
export const SEALED_FIELDS = ["apiKeySealed", "webhookSecretSealed"] as const satisfies readonly SealedField[];

export function createChatRepository(deps: ChatRepositoryDeps): ChatRepository {
  const logger = deps.logger.child({ component: "chats" });
  const now = deps.now ?? (() => new Date());
  const records = createRecordStore({ kv: deps.store.namespace("chats"), schema: chatRecordSchema, version: CHAT_RECORD_VERSION, logger, name: "chats" });
  const routes = createRecordStore({ kv: deps.store.namespace("routes"), schema: routeSchema, version: 1, logger, name: "routes" });
  const id = (chatId: number) => String(chatId);

  async function change(chatId: number, fn: (r: ChatRecord) => ChatRecord): Promise<ChatRecord> {
    const next = await records.update(id(chatId), (current) => ({ ...fn(current ?? newChatRecord(chatId, now())), updatedAt: now().toISOString() }));
    return next!;
  }

  async function openSealed(chatId: number, field: SealedField): Promise<string | undefined> {
    return openField(chatId, await records.get(id(chatId)), field);
  }

  async function openField(chatId: number, record: ChatRecord | undefined, field: SealedField): Promise<string | undefined> {
    const sealed = record?.[field];
    if (!sealed) return undefined;
    let opened: ReturnType<ChatVault["open"]>;
    try {
      opened = deps.vault.open(sealed, chatId, VAULT_FIELD[field]);
    } catch {
      // A value sealed for another chat (a copied row) or damaged: refuse it, never guess.
      logger.warn({ chatId, field }, "sealed value does not open for this chat; treated as absent");
      return undefined;
    }
    if (opened.stale) {
      // Under the current key and format (a v1 value did not bind its field).
      const resealed = deps.vault.seal(opened.plaintext, chatId, VAULT_FIELD[field]);
      await records.update(id(chatId), (current) => (current?.[field] === sealed ? { ...current, [field]: resealed } : current));
      logger.info({ chatId, field }, "re-sealed a value under the current vault key");
    }
    return opened.plaintext;
  }

  async function openRecord(record: ChatRecord): Promise<LinkedChat | undefined> {
    const apiKey = await openField(record.chatId, record, "apiKeySealed");
    return apiKey === undefined ? undefined : { chatId: record.chatId, apiKey, record };
  }

  return {
    get: (chatId) => records.get(id(chatId)),
    async open(chatId) {
      const record = await records.get(id(chatId));
      return record ? openRecord(record) : undefined;
    },
    openRecord,
    async isLinked(chatId) {
      // Honest: a key that does not open for this chat (copied row, lost vault key) cannot be used, so it does not count.
      return (await openSealed(chatId, "apiKeySealed")) !== undefined;
    },
    async link(chatId, input) {
      const apiKeySealed = deps.vault.seal(input.apiKey, chatId, VAULT_FIELD.apiKeySealed);
      const webhookSecretSealed = input.webhookSecret ? deps.vault.seal(input.webhookSecret, chatId, VAULT_FIELD.webhookSecretSealed) : undefined;
      const current = await records.get(id(chatId));
      const routeId = current?.routeId ?? newRouteId();
      if (!current?.routeId) await routes.set(routeId, { chatId });
      return change(chatId, (r) => {
        const { webhookSecretSealed: _old, ...rest } = r;
        return {
          ...rest,
          apiKeySealed,
          ...(webhookSecretSealed ? { webhookSecretSealed } : {}),
          routeId: r.routeId ?? routeId,
          accountId: accountIdOf(deps.vault, input.apiKey, input.depositAddress),
          ...(input.languageCode ? { languageCode: input.languageCode } : {}),
          linkId: randomBytes(8).toString("hex"),
          active: true,
          linkedAt: now().toISOString(),
        };
      });
    },
    async unlink(chatId) {
      const current = await records.get(id(chatId));
      if (!current?.apiKeySealed && !current?.routeId) return false;
      await change(chatId, (r) => {
        const { apiKeySealed: _k, webhookSecretSealed: _s, routeId: _r, linkedAt: _l, accountId: _a, linkId: _i, ...rest } = r;
        return rest;
      });
      if (current.routeId) await routes.delete(current.routeId);
      return true;
    },
    async account(chatId) {
      const apiKey = await openSealed(chatId, "apiKeySealed");
      if (apiKey === undefined) return undefined;
      const byKey = keyAccountId(deps.vault, apiKey);
      const stored = (await records.get(id(chatId)))?.accountId;
      if (stored === undefined) {
        // Linked before accounts were told apart: its key names it, fixed now so a vault key rotation cannot change it.
        await records.update(id(chatId), (r) => (r?.apiKeySealed && r.accountId === undefined ? { ...r, accountId: byKey } : r));
        return { id: byKey, aliases: [] };
      }
      return { id: stored, aliases: stored === byKey ? [] : [byKey] };
    },
    getApiKey: (chatId) => openSealed(chatId, "apiKeySealed"),
    getWebhookSecret: (chatId) => openSealed(chatId, "webhookSecretSealed"),
    async setWebhookSecret(chatId, secret) {
      const sealed = secret ? deps.vault.seal(secret, chatId, VAULT_FIELD.webhookSecretSealed) : undefined;
      await records.update(id(chatId), (r) => {
        if (!r?.apiKeySealed) throw new Error(`chat ${chatId} is not linked`);
        const { webhookSecretSealed: _old, ...rest } = r;
        return { ...rest, ...(sealed ? { webhookSecretSealed: sealed } : {}), updatedAt: now().toISOString() };
      });
    },
    async findChatByRouteId(routeId) {
      const route = await routes.get(routeId);
      if (!route) return undefined;
      // The record is the source of truth: a stale index entry must not route anywhere.
      const record = await records.get(id(route.chatId));
      return record?.routeId === routeId ? route.chatId : undefined;
    },
    async rotateRoute(chatId) {
      const current = await records.get(id(chatId));
      if (!current?.apiKeySealed) return undefined;
      const routeId = newRouteId();
      await routes.set(routeId, { chatId });
      await change(chatId, (r) => ({ ...r, routeId }));
      if (current.routeId) await routes.delete(current.routeId);
      return routeId;
    },
    async getLocale(chatId) {
      return (await records.get(id(chatId)))?.locale;
    },
    async setLocale(chatId, locale) {
      await change(chatId, (r) => ({ ...r, locale }));
    },
    async setLanguageCode(chatId, languageCode) {
      await records.update(id(chatId), (r) =>
        r === undefined || r.languageCode === languageCode ? r : { ...r, languageCode, updatedAt: now().toISOString() },
      );
    },
    async setNotifications(chatId, settings) {
      return (await change(chatId, (r) => ({ ...r, notifications: { ...r.notifications, ...settings } }))).notifications;
    },
    async markInactive(chatId) {
      await change(chatId, (r) => ({ ...r, active: false }));
    },
    async markActive(chatId) {
      const current = await records.get(id(chatId));
      if (current && !current.active) await change(chatId, (r) => ({ ...r, active: true }));
    },
    list(): AsyncIterable<ChatRecord> {
      return {
        async *[Symbol.asyncIterator]() {
          for await (const [, record] of records.list()) yield record;
        },
      };
    },
    async resealAll(onProgress) {
      const tally: ResealTally = { resealed: 0, current: 0, failed: 0 };
      for await (const [key, record] of records.list()) {
        for (const field of SEALED_FIELDS) {
          const sealed = record[field];
          if (!sealed) continue;
          let opened: ReturnType<ChatVault["open"]> | undefined;
          try {
            opened = deps.vault.open(sealed, record.chatId, VAULT_FIELD[field]);
          } catch (error) {
            tally.failed += 1;
            logger.warn({ chatId: record.chatId, field, reason: (error as { reason?: unknown }).reason }, "could not re-seal a value");
          }
          if (opened?.stale) {
            // A store failure is not a value that cannot be opened: it stops the run, and running again resumes.
            const fresh = deps.vault.seal(opened.plaintext, record.chatId, VAULT_FIELD[field]);
            await records.update(key, (r) => (r?.[field] === sealed ? { ...r, [field]: fresh } : r));
            tally.resealed += 1;
          } else if (opened) {
            tally.current += 1;
          }
          await onProgress?.({ ...tally });
        }
      }
      return tally;
    },
  };
}
