import type { AppEventEmitter } from "../events.js";
import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import { z } from "zod";
import type { SupportedLocale } from "../../config.js";
import type { ReadMemo } from "../../platform/store/read-memo.js";
import { createRecordStore } from "../../platform/store/record-store.js";
import type { StoreBackend } from "../../platform/store/types.js";
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
  /** The chat records read once per unit of work (an update, a tracked change): see `read-memo.ts`. */
  memo?: ReadMemo;
  /** Told `chat.linked` and `chat.unlinked` once the records say so. */
  events?: AppEventEmitter;
  /**
   * This process alone writes the store (the local queue mode): the chat records and the account index are kept
   * across units of work (written or read twice, the `CHAT_RECORDS_CACHED` used last), so a chat busy with several
   * updates, webhooks and notices reads its record from the store once or twice.
   */
  soleWriter?: boolean;
}

/** Chat records kept in memory by a sole writer: the chats active now, a few megabytes. */
export const CHAT_RECORDS_CACHED = 2_000;

export interface LinkInput {
  apiKey: string;
  /** Undefined keeps no secret (webhooks are then only hints). */
  webhookSecret?: string | undefined;
  /** From GET /v1/balance: names the account (`account-id.ts`); null or absent when it has no wallet. */
  depositAddress?: string | null | undefined;
  /** The Telegram `language_code` of the user who linked (kept when absent). */
  languageCode?: string | undefined;
  /** What the chat is called (kept when absent). */
  title?: string | undefined;
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
  /**
   * Stores the key (and secret) sealed; a re-link replaces both and keeps the route. A key whose account
   * another chat already linked takes that account's route: an API key holds one callback URL.
   */
  link(chatId: number, input: LinkInput): Promise<ChatRecord>;
  /** The linked account (history, caps and the webhook route are the account's), undefined when unlinked. */
  account(chatId: number): Promise<ChatAccount | undefined>;
  /**
   * Every chat linked to this account now, the given one included when it is; ascending ids. Read from an
   * index kept at link and unlink and checked against each chat's record, so a stale entry never counts.
   */
  accountChats(accountId: string): Promise<number[]>;
  /**
   * Removes key, secret, route and the account; locale and settings stay. False when nothing was linked.
   * A route other chats of the account still use stays, and resolves to one of them.
   */
  unlink(chatId: number): Promise<boolean>;
  /** The plaintext key, or undefined when unlinked or when the sealed value does not open for this chat. */
  getApiKey(chatId: number): Promise<string | undefined>;
  getWebhookSecret(chatId: number): Promise<string | undefined>;
  /** Undefined removes the secret. Throws when the chat is not linked. */
  setWebhookSecret(chatId: number, secret: string | undefined): Promise<void>;
  findChatByRouteId(routeId: string): Promise<number | undefined>;
  /** The chat a webhook route leads to and its webhook secret, from one read of its record (the webhook path). */
  findRoute(routeId: string): Promise<WebhookRoute | undefined>;
  /** New routeId for a linked chat and every chat sharing its route (the old one stops resolving), undefined when unlinked. */
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
   * The linked chats' ids, a page at a time, for a sweep over every chat: the ids are listed without their
   * records where the store can (SQLite, Redis), and a record is read only for an id `known` does not answer
   * for (a chat the caller watches already needs no second look). `read`: the records the page read.
   */
  linkedChatIds(known: (chatId: number) => boolean): AsyncIterable<{ linked: number[]; read: number }>;
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

/** Where a service webhook goes: the chat, and the secret its signature is checked with (undefined when none is set). */
export interface WebhookRoute {
  chatId: number;
  webhookSecret: string | undefined;
}

const routeSchema = z.object({ chatId: z.number().int() });
const accountChatsSchema = z.object({ chatIds: z.array(z.number().int()) });

export type SealedField = "apiKeySealed" | "webhookSecretSealed";

/** What each sealed value is, bound into its associated data: a webhook secret never opens as an API key. */
export const VAULT_FIELD: Record<SealedField, string> = { apiKeySealed: "api-key", webhookSecretSealed: "webhook-secret" };
export const SEALED_FIELDS = ["apiKeySealed", "webhookSecretSealed"] as const satisfies readonly SealedField[];

/** The ids of the linked chats among records read (its own function: the records end with it, not with the page's wait). */
function linkedAmong(found: readonly (ChatRecord | undefined)[]): number[] {
  return found.flatMap((record) => (record?.apiKeySealed === undefined ? [] : [record.chatId]));
}

export function createChatRepository(deps: ChatRepositoryDeps): ChatRepository {
  const logger = deps.logger.child({ component: "chats" });
  const now = deps.now ?? (() => new Date());
  const cache = deps.soleWriter === true ? { maxEntries: CHAT_RECORDS_CACHED } : undefined;
  const records = createRecordStore({
    kv: deps.store.namespace("chats"),
    schema: chatRecordSchema,
    version: CHAT_RECORD_VERSION,
    logger,
    name: "chats",
    ...(deps.memo ? { memo: deps.memo } : {}),
    ...(cache ? { cache } : {}),
  });
  const routes = createRecordStore({ kv: deps.store.namespace("routes"), schema: routeSchema, version: 1, logger, name: "routes" });
  const members = createRecordStore({
    kv: deps.store.namespace("account-chats"),
    schema: accountChatsSchema,
    version: 1,
    logger,
    name: "account-chats",
    ...(cache ? { cache } : {}),
  });
  const id = (chatId: number) => String(chatId);
  /** `${accountId}:${chatId}` already known to be in the index (this process): a read per use is saved. */
  const indexed = new Set<string>();

  async function join(accountId: string, chatId: number): Promise<void> {
    if (indexed.has(`${accountId}:${chatId}`)) return;
    await members.update(accountId, (r) => {
      const chatIds = r?.chatIds ?? [];
      return chatIds.includes(chatId) ? r : { chatIds: [...chatIds, chatId].sort((a, b) => a - b) };
    });
    indexed.add(`${accountId}:${chatId}`);
  }

  async function leave(accountId: string, chatId: number): Promise<void> {
    indexed.delete(`${accountId}:${chatId}`);
    const next = await members.update(accountId, (r) => (r?.chatIds.includes(chatId) ? { chatIds: r.chatIds.filter((c) => c !== chatId) } : r));
    if (next?.chatIds.length === 0) await members.delete(accountId);
  }

  /** The chats of the account whose records say they are linked to it now. */
  async function linkedOf(accountId: string): Promise<ChatRecord[]> {
    const listed = (await members.get(accountId))?.chatIds ?? [];
    const found: ChatRecord[] = [];
    for (const chatId of listed) {
      const record = await records.get(id(chatId));
      if (record?.apiKeySealed !== undefined && record.accountId === accountId) found.push(record);
    }
    return found;
  }

  async function change(chatId: number, fn: (r: ChatRecord) => ChatRecord): Promise<ChatRecord> {
    const next = await records.update(id(chatId), (current) => ({ ...fn(current ?? newChatRecord(chatId, now())), updatedAt: now().toISOString() }));
    return next!;
  }

  /** `chatId` no longer uses `routeId`: the route goes, or passes to a chat that still uses it. */
  async function releaseRoute(routeId: string, chatId: number, accountId: string | undefined): Promise<void> {
    const route = await routes.get(routeId);
    if (route !== undefined && route.chatId !== chatId) return;
    let heir: number | undefined;
    const listed = accountId === undefined ? [] : ((await members.get(accountId))?.chatIds ?? []);
    for (const candidate of listed) {
      if (candidate === chatId) continue;
      if ((await records.get(id(candidate)))?.routeId === routeId) heir = heir ?? candidate;
    }
    if (heir === undefined) await routes.delete(routeId);
    else await routes.set(routeId, { chatId: heir });
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
      const accountId = accountIdOf(deps.vault, input.apiKey, input.depositAddress);
      const current = await records.get(id(chatId));
      const shared = (await linkedOf(accountId)).find((r) => r.chatId !== chatId && r.routeId !== undefined)?.routeId;
      // The chat's own route stays on a re-link, unless other chats of its previous account still use it.
      const previous = current?.accountId === undefined || current.accountId === accountId ? [] : await linkedOf(current.accountId);
      const ownRoute = previous.some((r) => r.chatId !== chatId && r.routeId === current?.routeId) ? undefined : current?.routeId;
      const routeId = shared ?? ownRoute ?? newRouteId();
      // The route resolves to the chat linked last with a secret: its secret is the one the service signs with now.
      if (routeId !== current?.routeId || webhookSecretSealed !== undefined || shared === undefined) await routes.set(routeId, { chatId });
      if (current?.accountId !== undefined && current.accountId !== accountId) await leave(current.accountId, chatId);
      await join(accountId, chatId);
      const next = await change(chatId, (r) => {
        const { webhookSecretSealed: _old, ...rest } = r;
        return {
          ...rest,
          apiKeySealed,
          ...(webhookSecretSealed ? { webhookSecretSealed } : {}),
          routeId,
          accountId,
          ...(input.languageCode ? { languageCode: input.languageCode } : {}),
          ...(input.title ? { title: input.title.slice(0, 128) } : {}),
          linkId: randomBytes(8).toString("hex"),
          active: true,
          linkedAt: now().toISOString(),
        };
      });
      if (current?.routeId !== undefined && current.routeId !== routeId) await releaseRoute(current.routeId, chatId, current.accountId);
      await deps.events?.emit("chat.linked", { chatId });
      return next;
    },
    async unlink(chatId) {
      const current = await records.get(id(chatId));
      if (!current?.apiKeySealed && !current?.routeId) return false;
      await change(chatId, (r) => {
        const { apiKeySealed: _k, webhookSecretSealed: _s, routeId: _r, linkedAt: _l, accountId: _a, linkId: _i, ...rest } = r;
        return rest;
      });
      if (current.accountId !== undefined) await leave(current.accountId, chatId);
      if (current.routeId) await releaseRoute(current.routeId, chatId, current.accountId);
      await deps.events?.emit("chat.unlinked", { chatId });
      return true;
    },
    async account(chatId) {
      const record = await records.get(id(chatId));
      const apiKey = await openField(chatId, record, "apiKeySealed");
      if (apiKey === undefined) return undefined;
      const byKey = keyAccountId(deps.vault, apiKey);
      const stored = record?.accountId;
      if (stored === undefined) {
        // Linked before accounts were told apart: its key names it, fixed now so a vault key rotation cannot change it.
        await records.update(id(chatId), (r) => (r?.apiKeySealed && r.accountId === undefined ? { ...r, accountId: byKey } : r));
        await join(byKey, chatId);
        return { id: byKey, aliases: [] };
      }
      // Linked before the index of an account's chats: it joins at its first use.
      await join(stored, chatId);
      return { id: stored, aliases: stored === byKey ? [] : [byKey] };
    },
    async accountChats(accountId) {
      return (await linkedOf(accountId)).map((r) => r.chatId);
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
    async findRoute(routeId) {
      const route = await routes.get(routeId);
      if (!route) return undefined;
      const record = await records.get(id(route.chatId));
      if (record?.routeId !== routeId) return undefined;
      return { chatId: route.chatId, webhookSecret: await openField(route.chatId, record, "webhookSecretSealed") };
    },
    async rotateRoute(chatId) {
      const current = await records.get(id(chatId));
      if (!current?.apiKeySealed) return undefined;
      const routeId = newRouteId();
      await routes.set(routeId, { chatId });
      // The account's one callback URL moves for every chat that shares it.
      const sharing = current.accountId === undefined ? [] : (await linkedOf(current.accountId)).filter((r) => r.routeId === current.routeId);
      for (const other of new Set([chatId, ...sharing.map((r) => r.chatId)])) {
        await change(other, (r) => (other === chatId || r.routeId === current.routeId ? { ...r, routeId } : r));
      }
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
    linkedChatIds(known) {
      return {
        async *[Symbol.asyncIterator]() {
          for await (const ids of records.idPages()) {
            const unknown = ids.filter((key) => !known(Number(key)));
            yield { linked: unknown.length === 0 ? [] : linkedAmong(await records.getMany(unknown)), read: unknown.length };
          }
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
