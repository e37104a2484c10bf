import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADDRESS_BOOK_LIMIT, createAddressBook, LABELLED_LIMIT, type AddressBook } from "../../src/shared/address-book.js";
import { openStore } from "../../src/platform/store/open-store.js";
import type { StoreBackend } from "../../src/platform/store/types.js";
import { fromHexAddress } from "../../src/shared/tron/index.js";
import { createLogger } from "../../src/platform/logger.js";

const logger = createLogger({ level: "silent" });
const CHAT = 1;
const addressOf = (n: number) => fromHexAddress(`41${n.toString(16).padStart(40, "0")}`)!;

describe("address book", () => {
  let dir: string;
  let store: StoreBackend;
  let book: AddressBook;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "book-"));
    store = await openStore(`sqlite://${join(dir, "s.sqlite")}`, { logger, purgeIntervalMs: 0 });
    book = createAddressBook({ store, logger });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("evicts only unlabelled receivers, least recently used first", async () => {
    await book.add(CHAT, addressOf(1), "oldest", 1);
    for (let i = 2; i <= 60; i += 1) await book.remember(CHAT, addressOf(i), i);
    const entries = await book.list(CHAT);
    expect(entries.filter((e) => e.label === undefined).map((e) => e.address)).toEqual(Array.from({ length: ADDRESS_BOOK_LIMIT }, (_, i) => addressOf(60 - i)));
    expect((await book.findByLabel(CHAT, "OLDEST"))?.address).toBe(addressOf(1));
    expect(await book.labels(CHAT)).toEqual(new Map([[addressOf(1), "oldest"]]));
  });

  it("keeps a label when its address is used again, and resolves addresses and labels alike", async () => {
    await book.add(CHAT, addressOf(1), "Shop", 1);
    await book.remember(CHAT, addressOf(1), 2);
    expect(await book.labelOf(CHAT, addressOf(1))).toBe("Shop");
    expect(await book.resolve(CHAT, " shop ")).toBe(addressOf(1));
    expect(await book.resolve(CHAT, addressOf(7))).toBe(addressOf(7));
    expect(await book.resolve(CHAT, "nobody")).toBeUndefined();
  });

  it("refuses each bad label, a taken one, an unknown rename and one label over the limit", async () => {
    expect(await book.add(CHAT, "Tnope", "x", 1)).toEqual({ ok: false, reason: "bad_address" });
    expect(await book.add(CHAT, addressOf(1), "   ", 1)).toEqual({ ok: false, reason: "label_empty" });
    expect(await book.add(CHAT, addressOf(1), "a".repeat(10) + " " + "b".repeat(30), 1)).toEqual({ ok: false, reason: "label_too_long" });
    expect(await book.add(CHAT, addressOf(1), addressOf(2), 1)).toEqual({ ok: false, reason: "label_looks_like_address" });
    expect((await book.add(CHAT, addressOf(1), "Main", 1)).ok).toBe(true);
    expect(await book.add(CHAT, addressOf(2), "MAIN", 2)).toEqual({ ok: false, reason: "label_taken" });
    expect((await book.rename(CHAT, addressOf(1), "main")).ok).toBe(true);
    expect(await book.rename(CHAT, addressOf(3), "other")).toEqual({ ok: false, reason: "not_found" });
    for (let i = 2; i <= LABELLED_LIMIT; i += 1) expect((await book.add(CHAT, addressOf(i), `w${i}`, i)).ok).toBe(true);
    expect(await book.add(CHAT, addressOf(LABELLED_LIMIT + 1), "one more", 999)).toEqual({ ok: false, reason: "book_full" });
    expect((await book.add(CHAT, addressOf(5), "renamed", 999)).ok).toBe(true);
    expect(await book.delete(CHAT, addressOf(5))).toBe(true);
    expect(await book.delete(CHAT, addressOf(5))).toBe(false);
    expect((await book.labelled(CHAT)).length).toBe(LABELLED_LIMIT - 1);
  });
});
