import fc from "fast-check";
import { utils } from "tronweb";
import { describe, it } from "vitest";
import { detectSecret } from "../../src/shared/broadcasts/secret-detect.js";
import { fuzz, fuzzTimeoutMs, binaryString } from "../support/fuzz.js";
import { pooledAddressArb } from "../support/tron-address-gen.js";
import { signTrxTransfer, TEST_KEYS } from "../../testkit/tron-sign.js";

/**
 * Wallet secrets pasted in chat must be recognized (and deleted) however they
 * are written; ordinary order and broadcast input must never be taken for one.
 */
const wordlist = utils.ethersUtils.wordlists["en"]!;
const WORDS: readonly string[] = Array.from({ length: 2048 }, (_, i) => wordlist.getWord(i));
const KNOWN = new Set(WORDS);
const bip39Word = fc.constantFrom(...WORDS);
// Built once: fc.stringMatching compiles its regexp into an arbitrary, far too slow to do per case.
const plainWord = fc.stringMatching(/^[a-z]{1,8}$/);
const typo = fc.stringMatching(/^[a-z]{3,8}$/).filter((w) => !KNOWN.has(w));
const hex64 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString("hex"));
const sep = fc.constantFrom(" ", "\n", ", ", ";", "  ", "\t");

describe("secret detection (detectSecret, fuzz)", { timeout: fuzzTimeoutMs() }, () => {
  it("flags a private key however it is quoted or cased, alone or among up to five words", () => {
    const arb = fc.record({
      key: hex64,
      upper: fc.constantFrom("lower", "upper", "mixed"),
      prefix: fc.constantFrom("", "0x"),
      quote: fc.constantFrom(["", ""], ['"', '"'], ["'", "'"], ["`", "`"], ["", "."], ['"', '".']),
      words: fc.array(plainWord, { maxLength: 5 }),
      at: fc.nat({ max: 5 }),
      sep,
    });
    fc.assert(
      fc.property(arb, ({ key, upper, prefix, quote, words, at, sep: s }) => {
        const cased =
          upper === "upper"
            ? key.toUpperCase()
            : upper === "mixed"
              ? Array.from(key)
                  .map((c, i) => (i % 2 ? c.toUpperCase() : c))
                  .join("")
              : key;
        const tokens = [...words];
        tokens.splice(at % (words.length + 1), 0, `${quote[0]}${prefix}${cased}${quote[1]}`);
        return detectSecret(tokens.join(s)) === "private_key";
      }),
      fuzz("secret: private key"),
    );
  });

  it("flags a 12-24 word mnemonic, numbered or not, in any case, with up to a quarter mistyped", () => {
    const arb = fc.constantFrom(12, 15, 18, 21, 24).chain((n) =>
      fc.record({
        words: fc.array(bip39Word, { minLength: n, maxLength: n }),
        typos: fc.array(fc.tuple(fc.nat({ max: n - 1 }), typo), { maxLength: Math.floor(n / 4) }),
        numbered: fc.constantFrom("", ".", ")"),
        upper: fc.boolean(),
        sep,
      }),
    );
    fc.assert(
      fc.property(arb, ({ words, typos, numbered, upper, sep: s }) => {
        const phrase = [...words];
        for (const [i, w] of typos) phrase[i] = w;
        const text = phrase.map((w, i) => (numbered ? `${i + 1}${numbered} ` : "") + (upper ? w.toUpperCase() : w)).join(s);
        return detectSecret(text) === "mnemonic";
      }),
      fuzz("secret: mnemonic"),
    );
  });

  it("never takes order input, addresses, signed transactions or ordinary sentences for a secret", () => {
    const tx = JSON.stringify(
      signTrxTransfer({ privateKey: TEST_KEYS.alice.privateKey, to: TEST_KEYS.bob.address, amountSun: 1, expirationMs: 2_000_000_000_000 }),
    );
    const ordinary = fc.oneof(
      fc.tuple(pooledAddressArb, fc.integer({ min: 1, max: 10_000_000 }), fc.constantFrom("", " 1h", " 15m", " 3600")).map(([a, n, d]) => `${a} ${n}${d}`),
      fc.tuple(fc.constantFrom("/order", "/track", "/broadcast"), pooledAddressArb).map(([c, a]) => `${c} ${a} 100k 1h`),
      fc.constantFrom(tx, JSON.stringify({ signedTx: JSON.parse(tx) as unknown }, null, 2), `[${tx}]`),
      // Sentences whose word count is no mnemonic length, or with words outside the list.
      fc
        .array(bip39Word, { minLength: 1, maxLength: 30 })
        .filter((w) => ![12, 15, 18, 21, 24].includes(w.length))
        .map((w) => w.join(" ")),
      fc
        .constantFrom(12, 24)
        .chain((n) => fc.array(typo, { minLength: n, maxLength: n }))
        .map((w) => w.join(" ")),
      // A 64-hex value among seven or more words is prose about a transaction, not a pasted key.
      fc.tuple(fc.array(plainWord, { minLength: 6, maxLength: 10 }), hex64).map(([w, h]) => [...w, h].join(" ")),
    );
    fc.assert(
      fc.property(ordinary, (text) => detectSecret(text) === null),
      fuzz("secret: no false alarm"),
    );
  });

  it("never throws on any text and answers only null, private_key or mnemonic", () => {
    const text = fc.oneof(
      fc.string({ maxLength: 80 }),
      binaryString({ maxLength: 80 }),
      fc.array(fc.oneof(bip39Word, hex64, plainWord), { maxLength: 25 }).map((w) => w.join(" ")),
    );
    fc.assert(
      fc.property(text, (t) => [null, "private_key", "mnemonic"].includes(detectSecret(t))),
      fuzz("secret: total"),
    );
  });
});
