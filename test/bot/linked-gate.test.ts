import { describe, expect, it } from "vitest";
import type { KeyValue, StoreBackend } from "../../src/platform/store/types.js";
import { createChatRepository } from "../../src/shared/chats/chat-repository.js";
import type { Vault } from "../../src/shared/vault.js";
import { useBotHarness } from "../support/bot-harness.js";
import { TEST_KEYS } from "../../testkit/tron-sign.js";

/** How often one update opened a chat's sealed key and read a chat record. */
const seen = { keyOpens: 0, recordReads: 0 };

function countingReads(kv: KeyValue): KeyValue {
  return {
    get: (key) => {
      seen.recordReads += 1;
      return kv.get(key);
    },
    set: (key, value, ttlMs) => kv.set(key, value, ttlMs),
    delete: (key) => kv.delete(key),
    entries: () => kv.entries(),
    keyPages: () => kv.keyPages(),
    clear: () => kv.clear(),
    getVersioned: (key) => {
      seen.recordReads += 1;
      return kv.getVersioned(key);
    },
    compareAndSet: (key, expected, value, ttlMs) => kv.compareAndSet(key, expected, value, ttlMs),
  };
}

describe("the linked-key gate: a chat's key is opened once per update", () => {
  const h = useBotHarness({
    extendDeps: (deps) => {
      const vault = deps.vault as Vault;
      const counted: Pick<Vault, "seal" | "open" | "fingerprint"> = {
        seal: (plaintext, chatId, field) => vault.seal(plaintext, chatId, field),
        open: (sealed, chatId, field) => {
          if (field === "api-key") seen.keyOpens += 1;
          return vault.open(sealed, chatId, field);
        },
        fingerprint: (value, purpose) => vault.fingerprint(value, purpose),
      };
      const store: StoreBackend = {
        ...deps.store,
        kind: deps.store.kind,
        namespace: (name) => (name === "chats" ? countingReads(deps.store.namespace(name)) : deps.store.namespace(name)),
        ping: () => deps.store.ping(),
        close: () => deps.store.close(),
      };
      return { ...deps, chats: createChatRepository({ store, vault: counted, logger: deps.logger }) };
    },
  });

  /** Runs one update and returns what it opened and read. */
  async function counted(run: () => Promise<unknown>): Promise<typeof seen> {
    seen.keyOpens = 0;
    seen.recordReads = 0;
    await run();
    return { ...seen };
  }

  it("a one-shot /order: the locale and the quote take one chat record read and one key opening", async () => {
    const u = h.user(7401, { languageCode: "en" });
    await h.linkChat(u.chatId, {}, true, "en");
    const used = await counted(() => u.send(`/order ${TEST_KEYS.bob.address} 100k 1h`));
    expect(u.lastText()).toContain(`Receiver: ${TEST_KEYS.bob.address}`);
    expect(u.lastButtons()).toEqual([["✅ Confirm", "Cancel"]]);
    expect(used).toEqual({ keyOpens: 1, recordReads: 1 });
  });

  it("Confirm on a quote checks the link it was made under and charges with one key opening", async () => {
    const u = h.user(7402, { languageCode: "en" });
    await h.linkChat(u.chatId, {}, true, "en");
    await u.send(`/order ${TEST_KEYS.bob.address} 100k 1h`);
    const used = await counted(() => u.press("✅ Confirm"));
    expect(u.botTexts().some((t) => /^Order [0-9a-f]{24}\nStatus:/.test(t))).toBe(true);
    expect(used).toEqual({ keyOpens: 1, recordReads: 1 });
  });

  it("/start order_… on a linked chat goes to the order flow with one key opening", async () => {
    const u = h.user(7403, { languageCode: "en" });
    await h.linkChat(u.chatId, {}, true, "en");
    const used = await counted(() => u.send("/start order_100000_3600"));
    expect(u.lastText()).toContain("Who receives the energy?");
    // The update's context and the conversation it enters (a context of its own) each read the record once.
    expect(used).toEqual({ keyOpens: 1, recordReads: 2 });
  });

  it("an unlinked chat hears the same not-linked text from every gated command, and no key is opened", async () => {
    const u = h.user(7404, { languageCode: "en" });
    for (const command of ["/balance", "/order", "/batch", "/broadcast", "/orders", "/track 0123456789abcdef01234567", "/unlink", "/webhook"]) {
      const used = await counted(() => u.send(command));
      expect(u.lastText(), command).toContain("not connected");
      expect(used.keyOpens, command).toBe(0);
    }
  });

  it("a key that does not open for this chat is not linked for the gate either", async () => {
    const owner = h.user(7405, { languageCode: "en" });
    const other = h.user(7406, { languageCode: "en" });
    await h.linkChat(owner.chatId);
    const kv = h.store.namespace("chats");
    const row = (await kv.get<{ v: number; data: Record<string, unknown> }>(String(owner.chatId)))!;
    await kv.set(String(other.chatId), { v: row.v, data: { ...row.data, chatId: other.chatId, routeId: undefined } });
    for (const command of ["/order", "/webhook", "/unlink"]) {
      await other.send(command);
      expect(other.lastText(), command).toContain("not connected");
    }
  });
});
