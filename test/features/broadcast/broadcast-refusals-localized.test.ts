/**
 * Every local refusal of a signed transaction reads in the chat's language, with the facts behind it
 * (field, depth, signature number, addresses, seconds left) in <code> where they are names or values:
 * a Russian or Chinese chat never gets an English sentence or a raw code inside its text.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  finalizeAndSign,
  resignWith,
  signTrc20Transfer,
  signTrxTransfer,
  stripSignature,
  tamperTrxAmount,
  TEST_KEYS,
  withDeclaredTxId,
  withTwoContracts,
  type SignedTx,
} from "../../../testkit/tron-sign.js";
import { precheckBroadcast } from "../../../src/shared/broadcasts/precheck.js";
import { foreignWords } from "../../support/foreign-words.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

const { alice, bob, carol } = TEST_KEYS;
let h: OrderHarness;

useOrderHarness((started) => (h = started));

const usdt = (leftMs = 600_000) =>
  signTrc20Transfer({ privateKey: alice.privateKey, to: bob.address, amountAtomic: 1_000_000n, expirationMs: Date.now() + leftMs });

/** A transaction whose signed bytes are `rawHex` as given: hashed right, so the checks reach the bytes. */
function rawBytes(rawHex: string, rawData: Record<string, unknown> = { contract: [] }): Record<string, unknown> {
  const txID = createHash("sha256").update(Buffer.from(rawHex, "hex")).digest("hex");
  return { txID, raw_data: rawData, raw_data_hex: rawHex, signature: ["11".repeat(65)] };
}

const hexLen = (hex: string) => (hex.length / 2).toString(16).padStart(2, "0");
/** raw_data holding one contract of `type` whose parameter is an empty `typeName` value. */
function emptyContract(type: number, typeName: string): string {
  const url = Buffer.from(`type.googleapis.com/protocol.${typeName}`).toString("hex");
  const any = `0a${hexLen(url)}${url}`;
  const contract = `08${type.toString(16).padStart(2, "0")}12${hexLen(any)}${any}`;
  return `5a${hexLen(contract)}${contract}`;
}

function withPermission(id: number, privateKey: string): SignedTx {
  const tx = signTrxTransfer({ privateKey: alice.privateKey, to: bob.address, amountSun: 5, expirationMs: Date.now() + 600_000 });
  tx.raw_data.contract[0]!.Permission_id = id;
  return finalizeAndSign(tx, privateKey);
}

function withExpiration(expiration: number): SignedTx {
  const tx = signTrxTransfer({ privateKey: alice.privateKey, to: bob.address, amountSun: 5, expirationMs: Date.now() + 600_000 });
  tx.raw_data.expiration = expiration;
  return finalizeAndSign(tx, alice.privateKey);
}

/** Each refusal (reason, and cause where it has one), a name for it, and a name or value its text must show in <code>. */
function refusals(): [string, string, unknown, string | undefined][] {
  const tx = usdt();
  const sig = tx.signature![0]!;
  const contract = tx.raw_data.contract[0]!;
  return [
    ["not_json", "not JSON", "{oops", undefined],
    ["not_json", "JSON cut short", '{"txID": [', undefined],
    ["not_object", "not an object", [1, 2], "<code>txID</code>"],
    ["malformed:hostile_field", "a toJSON field", { toJSON: 1, ...tx }, "<code>toJSON</code>"],
    ["malformed:too_deep", "nesting too deep", { ...tx, note: JSON.parse(`${"[".repeat(40)}${"]".repeat(40)}`) as unknown }, undefined],
    ["malformed:field_shape", "a short txID", { ...tx, txID: "abc" }, "<code>txID</code>"],
    ["malformed:field_shape", "raw_data_hex not hex", { ...tx, raw_data_hex: "zz" }, "<code>raw_data_hex</code>"],
    ["malformed:field_shape", "raw_data not an object", { ...tx, raw_data: "x" }, "<code>raw_data</code>"],
    ["malformed:field_shape", "signature not a list", { ...tx, signature: "abc" }, "<code>signature</code>"],
    ["malformed:bytes_unreadable", "unreadable signed bytes", rawBytes("5a0208"), "<code>raw_data_hex</code>"],
    ["malformed:no_contract", "no contract in the bytes", rawBytes("4001"), undefined],
    [
      "malformed:no_owner",
      "no sender",
      rawBytes(emptyContract(1, "TransferContract"), { contract: [{ type: "TransferContract", parameter: { value: {} } }] }),
      "<code>owner_address</code>",
    ],
    ["malformed:expiration_out_of_range", "an expiration out of range", withExpiration(-1), undefined],
    ["txid_mismatch", "a changed txID", withDeclaredTxId(tx, "ab".repeat(32)), `<code>${"ab".repeat(32)}</code>`],
    [
      "raw_data_mismatch:field_differs",
      "a changed amount",
      tamperTrxAmount(signTrxTransfer({ privateKey: bob.privateKey, to: carol.address, amountSun: 10, expirationMs: Date.now() + 600_000 }), 11),
      "<code>raw_data.contract[0].parameter.value.amount</code>",
    ],
    [
      "raw_data_mismatch:contract_type_differs",
      "another contract type",
      { ...tx, raw_data: { ...tx.raw_data, contract: [{ ...contract, type: "TransferContract" }] } },
      "<code>TriggerSmartContract</code>",
    ],
    [
      "raw_data_mismatch:field_missing",
      "a contract without parameter",
      { ...tx, raw_data: { ...tx.raw_data, contract: [{ type: "TriggerSmartContract" }] } },
      "<code>raw_data.contract[0].parameter.value</code>",
    ],
    ["raw_data_mismatch:contracts_differ", "no contract listed", { ...tx, raw_data: { ...tx.raw_data, contract: [] } }, undefined],
    ["unsupported_contract", "a contract the chain names but the bot cannot read", rawBytes("5a020829"), "<code>ExchangeCreateContract</code>"],
    ["unsupported_contract", "a contract type nobody names", rawBytes("5a02087f"), undefined],
    ["no_signature", "no signature", stripSignature(tx), undefined],
    ["too_many_signatures", "six signatures", { ...tx, signature: Array<string>(6).fill(sig) }, undefined],
    ["signature_format:size", "a signature too short", { ...tx, signature: ["00"] }, undefined],
    ["signature_format:not_hex", "a signature not hex", { ...tx, signature: ["zz".repeat(65)] }, undefined],
    ["signature_format:value_out_of_range", "a signature with r out of range", { ...tx, signature: ["00".repeat(65)] }, "<code>r</code>"],
    ["signature_format:header_out_of_range", "a signature with a bad recovery byte", { ...tx, signature: [`${"11".repeat(64)}09`] }, undefined],
    ["duplicate_signature", "the same signature twice", { ...tx, signature: [sig, sig] }, `<code>${alice.address}</code>`],
    ["extra_signature", "an extra signer", { ...tx, signature: [sig, resignWith(tx, bob.privateKey).signature![0]!] }, `<code>${bob.address}</code>`],
    ["bad_signature", "another signer", resignWith(tx, carol.privateKey), `<code>${carol.address}</code>`],
    ["permission_not_owner", "a permission signed by another key", withPermission(2, bob.privateKey), `<code>${alice.address}</code>`],
    ["multiple_contracts", "two contracts", withTwoContracts(tx, alice.privateKey), undefined],
    ["expired", "expired", usdt(10_000), undefined],
    ["insufficient_time", "under 75 seconds left", usdt(60_000), undefined],
    ["expiration_too_far", "an expiration 25 hours ahead", usdt(25 * 3_600_000), undefined],
  ];
}

const SCRIPT = { ru: /\p{Script=Cyrillic}/u, zh: /\p{Script=Han}/u } as const;

describe("a refused signed transaction in a ru or zh chat", () => {
  it.each([
    ["ru", 6701],
    ["zh", 6702],
  ] as const)("%s: every refusal reads in the chat's language, with its facts in <code>", async (locale, chat) => {
    await h.linkChat(chat, { balanceSun: 100_000_000 }, true, locale);
    const user = h.user(chat, { languageCode: locale });
    const before = h.sim.requests.filter((r) => r.path === "/v1/broadcasts").length;
    for (const [reason, name, input, shown] of refusals()) {
      const text = typeof input === "string" ? input : JSON.stringify(input);
      const checked = precheckBroadcast({ input: text, nowMs: Date.now(), baseUnitPriceSun: 100 });
      expect(checked.ok ? "accepted" : [checked.reason, "problem" in checked ? checked.problem.code : undefined].filter(Boolean).join(":"), name).toBe(reason);
      const sent = user.botTexts().length;
      await user.send(`/broadcast ${text}`);
      expect(user.botTexts().length, name).toBe(sent + 1);
      const reply = user.last()!;
      expect(reply.buttons ?? [], name).toEqual([]);
      expect(reply.rawText, name).toMatch(SCRIPT[locale]);
      expect(reply.rawText, name).not.toContain("{");
      expect(foreignWords(reply.rawText), `${name}: ${reply.rawText}`).toEqual([]);
      if (shown !== undefined) expect(reply.rawText, name).toContain(shown);
    }
    // The log says which refusal, with its facts, and never repeats a declared txID (64 hex, the shape of a private key).
    const logged = h.logs.filter((l) => l.msg === "signed transaction refused locally").map((l) => l["refusal"] as Record<string, unknown>);
    expect(logged).toContainEqual(expect.objectContaining({ reason: "malformed", problem: { code: "hostile_field", field: "toJSON" } }));
    expect(logged).toContainEqual(expect.objectContaining({ reason: "bad_signature", owner: alice.address, signers: [carol.address] }));
    expect(h.rawLogs.join("\n")).not.toContain("ab".repeat(32));
    // Refused locally: the service heard of none of them.
    expect(h.sim.requests.filter((r) => r.path === "/v1/broadcasts")).toHaveLength(before);
  });
});
