import { describe, expect, it } from "vitest";
import { loadCorpus, ownTime, type CorpusEntry } from "../../support/tron-corpus.js";
import { type OrderHarness, useOrderHarness } from "../../bot/order-harness.js";

/**
 * /broadcast with real signed transactions of every kind in the corpus,
 * through the whole bot against the simulator, with both clocks set to the
 * transaction's own time (two minutes before it expires). The Nile testnet
 * USDT contract that wallet-cli's example calls is configured as the stablecoin.
 */

const NILE_USDT = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";
const corpus = loadCorpus();
const byTx = (prefix: string): CorpusEntry => corpus.find((e) => e.transaction.txID.startsWith(prefix))!;
const clock = { now: Date.now() };
let h: OrderHarness;

useOrderHarness((started) => (h = started), { now: () => clock.now, usdtContract: NILE_USDT, simulator: { now: () => clock.now, usdtContract: NILE_USDT } });

type Lang = "en" | "ru" | "zh";
interface Case {
  tx: string;
  what: string;
  expect: Record<Lang, string[]>;
  /** The simulator takes it (a Confirm is pressed in one of the three languages, in turn). */
  submits: boolean;
  /** What the card after Confirm says of the transaction, as the summary did. */
  card?: Record<Lang, string>;
}

const CASES: Case[] = [
  {
    tx: "3de78211",
    what: "a TRX transfer with a high-s signature",
    expect: {
      en: ["TRX transfer: 0.000001 TRX", "To: TAVrrARNdnjHgCGMQYeQV7hv4PSu7mVsMj", "Estimated bandwidth: about 265"],
      ru: ["TRX", "TAVrrARNdnjHgCGMQYeQV7hv4PSu7mVsMj"],
      zh: ["TRX", "TAVrrARNdnjHgCGMQYeQV7hv4PSu7mVsMj"],
    },
    submits: true,
    card: { en: "TRX transfer: 0.000001 TRX", ru: "Перевод TRX", zh: "TRX 转账" },
  },
  {
    tx: "9c8d4b84",
    what: "wallet-cli's USDT transfer with a 41-prefixed address word",
    expect: {
      en: ["USDT transfer: 0.000001 USDT", "To: TR311sD6KasRnofj5RnFiFBA2rH8RH2kYk", "about 64,000, or about 130,000"],
      ru: ["USDT", "TR311sD6KasRnofj5RnFiFBA2rH8RH2kYk"],
      zh: ["USDT", "TR311sD6KasRnofj5RnFiFBA2rH8RH2kYk"],
    },
    submits: true,
    card: { en: "USDT transfer: 0.000001 USDT", ru: "USDT", zh: "USDT" },
  },
  {
    tx: "774422d8",
    what: "a TRC20 transfer of 10^22 units on another token",
    expect: {
      en: [
        "Token transfer on contract THTR75o8xXAgCTQqpiot2AFRAjvW1tSbVV: 10,000,000,000,000,000,000,000 in the token's smallest units",
        "To: TW1dU4L3eNm7Lw8WvieLKEHpXWAussRG9Z",
        "Estimated energy: about 130,000",
      ],
      ru: ["Перевод токена по контракту THTR75o8xXAgCTQqpiot2AFRAjvW1tSbVV"],
      zh: ["合约 THTR75o8xXAgCTQqpiot2AFRAjvW1tSbVV 上的代币转账"],
    },
    submits: false,
  },
  {
    tx: "10a748b8",
    what: "FreezeBalanceV2 (mainnet, explorer dump)",
    expect: { en: ["Stake 1 TRX to get energy", "Estimated bandwidth: about 252"], ru: ["Застейкать", "энергии"], zh: ["质押", "能量"] },
    submits: true,
    card: { en: "Stake 1 TRX to get energy", ru: "Застейкать", zh: "质押" },
  },
  {
    tx: "f5c97972",
    what: "UnDelegateResource",
    expect: {
      en: ["Take back the energy of 1 TRX of stake lent to another account", "To: TQq4YrKRywkd9vLYw2nZKiFfMpbQiL8gKK", "about 279"],
      ru: ["Забрать энергию"],
      zh: ["收回代理"],
    },
    submits: true,
    card: { en: "Take back the energy of 1 TRX of stake lent to another account", ru: "Забрать энергию", zh: "收回代理" },
  },
  {
    tx: "363ac0b8",
    what: "DelegateResource (wallet-cli)",
    expect: {
      en: ["Lend the bandwidth of 10 TRX of stake to another account, locked for a while", "To: TQ4gjjpAjLNnE67UFbmK5wVt5fzLfyEVs3"],
      ru: ["Передать другому аккаунту пропускную способность"],
      zh: ["代理给另一个账户"],
    },
    submits: false,
  },
  {
    tx: "ea4799c7",
    what: "VoteWitness with three votes",
    expect: {
      en: ["Vote for 3 super representatives, 35 votes in all", "Vote: TEcqaqvew5eR3gBPeEhj4noHZ2e4aUT7SQ × 12"],
      ru: ["Голосование за 3 суперпредставителей"],
      zh: ["为 3 个超级代表投票"],
    },
    submits: true,
    card: { en: "Vote for 3 super representatives, 35 votes in all", ru: "Голосование за 3 суперпредставителей", zh: "为 3 个超级代表投票" },
  },
  {
    tx: "59a153b8",
    what: "a TRC10 TransferAsset",
    expect: {
      en: ["TRC10 token transfer: 100,000 of token 1002000", "To: TAVrrARNdnjHgCGMQYeQV7hv4PSu7mVsMj"],
      ru: ["Перевод токена TRC10"],
      zh: ["TRC10 代币转账"],
    },
    submits: true,
    card: { en: "TRC10 token transfer: 100,000 of token 1002000", ru: "Перевод токена TRC10", zh: "TRC10 代币转账" },
  },
  {
    tx: "26d6fcdf",
    what: "AccountCreate",
    expect: { en: ["Activate a new account", "To: TDJ13zZzT3w91WMBm98gC3mwL7NbA6sQPA"], ru: ["Активировать новый аккаунт"], zh: ["激活一个新账户"] },
    submits: false,
  },
  {
    tx: "dcfea1d9",
    what: "UnfreezeBalanceV2 (wallet-cli)",
    expect: {
      en: [
        "Unstake 9 TRX staked for bandwidth (the TRX comes back after the waiting period)",
        "From: TJAVcszse667FmSNCwU2fm6DmfM5D4AyDh",
        "Estimated bandwidth: about",
      ],
      ru: ["Вывести из стейкинга 9 TRX, застейканные ради пропускной способности (TRX вернутся после периода ожидания)", "Оценка пропускной способности"],
      zh: ["解除质押 9 TRX（为带宽质押，等待期后返还）", "预计带宽"],
    },
    submits: true,
    card: { en: "Unstake 9 TRX staked for bandwidth", ru: "Вывести из стейкинга 9 TRX", zh: "解除质押 9 TRX" },
  },
  {
    tx: "e5763ab8",
    what: "WithdrawExpireUnfreeze (wallet-cli)",
    expect: {
      en: ["Withdraw the unstaked TRX whose waiting period is over", "From: TJAVcszse667FmSNCwU2fm6DmfM5D4AyDh", "Estimated bandwidth: about"],
      ru: ["Забрать выведенные из стейкинга TRX, у которых закончился период ожидания"],
      zh: ["提取等待期已结束的解除质押 TRX"],
    },
    submits: true,
    card: { en: "Withdraw the unstaked TRX whose waiting period is over", ru: "Забрать выведенные из стейкинга TRX", zh: "提取等待期已结束的解除质押 TRX" },
  },
  {
    tx: "b33337e7",
    what: "ClearABI (TIP-32)",
    expect: {
      en: [
        "Delete the ABI published for contract TJr8man5Znyp3XfLxQjf5Rrzgoc1yda5oW",
        "the contract's code and funds are not touched",
        "From: TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW",
        "Estimated bandwidth: about",
      ],
      ru: ["Удалить ABI, опубликованный для контракта TJr8man5Znyp3XfLxQjf5Rrzgoc1yda5oW"],
      zh: ["删除合约 TJr8man5Znyp3XfLxQjf5Rrzgoc1yda5oW 公布的 ABI"],
    },
    submits: true,
    card: {
      en: "Delete the ABI published for contract TJr8man5Znyp3XfLxQjf5Rrzgoc1yda5oW",
      ru: "Удалить ABI",
      zh: "删除合约 TJr8man5Znyp3XfLxQjf5Rrzgoc1yda5oW 公布的 ABI",
    },
  },
  {
    tx: "9927d3da",
    what: "another contract call",
    expect: { en: ["Other contract call (TriggerSmartContract)", "Estimated energy: about 130,000"], ru: ["Другой вызов контракта"], zh: ["其他合约调用"] },
    submits: false,
  },
];

let chat = 8100;

/** What a wallet SDK may add beside the signed fields: its own name for the contract type. */
function withSdkContractType(e: CorpusEntry): Record<string, unknown> {
  return { ...e.transaction, raw_data: { ...e.transaction.raw_data, contractType: e.contractType } };
}

async function summaryIn(lang: Lang, e: CorpusEntry): Promise<string> {
  const id = ++chat;
  await h.linkChat(id, { balanceSun: 100_000_000 });
  const user = h.user(id, { languageCode: lang });
  await user.send("/broadcast");
  await user.send(JSON.stringify(e.transaction));
  return user.lastText();
}

describe("/broadcast with real transactions of every corpus kind", () => {
  it.each(CASES.map((c, i) => [c.what, c, i] as const))("summarizes %s correctly in en, ru and zh", async (_what, c, i) => {
    const e = byTx(c.tx);
    clock.now = ownTime(e);
    const chats = {} as Record<Lang, number>;
    for (const lang of ["en", "ru", "zh"] as const) {
      const text = await summaryIn(lang, e);
      chats[lang] = chat;
      expect(text, lang).toContain(e.transaction.txID);
      for (const part of c.expect[lang]) expect(text, lang).toContain(part);
    }
    if (!c.submits) return;
    // The service takes a transaction once: Confirm in one language, a different one for each transaction.
    const lang = (["en", "ru", "zh"] as const)[i % 3]!;
    const user = h.user(chats[lang]);
    const summary = user.last()!;
    await user.press(user.lastButtons()[0]![0]!);
    const posts = () => h.sim.requests.filter((r) => r.path === "/v1/broadcasts" && r.method === "POST");
    const card = () => user.view().find((m) => m.messageId === summary.messageId)?.text ?? "";
    await h.until(() => posts().length === 1 && /(Broadcast|Отправка|广播) [0-9a-f]{24}/.test(card()));
    // The summary became the broadcast's card: it says what the summary said, never "another contract call".
    if (c.card) expect(card(), lang).toContain(c.card[lang]);
    expect(card(), lang).not.toMatch(/Other contract call|Другой вызов контракта|其他合约调用|\(-\)/);
  });

  it("shows a real signed memo in the summary, escaped, and reads a wallet SDK's raw_data.contractType as nothing more than a name", async () => {
    const e = byTx("ec0fa0d7");
    clock.now = ownTime(e);
    const expected: Record<Lang, string> = {
      en: "Memo signed with it (the recipient sees it on chain): send to tony",
      ru: "Заметка, подписанная вместе с транзакцией (получатель увидит её в блокчейне): send to tony",
      zh: "随交易一同签名的备注（收款方可在链上看到）：send to tony",
    };
    for (const lang of ["en", "ru", "zh"] as const) {
      const id = ++chat;
      await h.linkChat(id, { balanceSun: 100_000_000 });
      const user = h.user(id, { languageCode: lang });
      await user.send("/broadcast");
      await user.send(JSON.stringify(withSdkContractType(e)));
      expect(user.lastText(), lang).toContain(expected[lang]);
      expect(user.lastText(), lang).toContain(e.transaction.txID);
      expect(user.last()!.rawText, lang).toContain("<i>send to tony</i>");
    }
    // Confirmed (in Chinese, the last chat): the card names the token transfer as the summary did.
    const user = h.user(chat);
    const summary = user.last()!;
    await user.press(user.lastButtons()[0]![0]!);
    const card = () => user.view().find((m) => m.messageId === summary.messageId)?.text ?? "";
    await h.until(() => /广播 [0-9a-f]{24}/.test(card()));
    expect(card()).toContain("合约 TEsjNspeG3kPSESscSWycdgNCDEveT9ZZB 上的代币转账：1,234,560,000,000,000,000");
  });

  it("explains before any request that a multisig transaction signed only by other keys would be refused", async () => {
    const e = byTx("7da63b6a");
    clock.now = ownTime(e);
    const expected: Record<Lang, string> = {
      en: "multi-signature permission 2 by",
      ru: "мультиподписное разрешение № 2 ключом",
      zh: "通过第 2 号多签权限由",
    };
    for (const lang of ["en", "ru", "zh"] as const) expect(await summaryIn(lang, e), lang).toContain(expected[lang]);
    expect(h.sim.requests.filter((r) => r.path === "/v1/broadcasts")).toEqual([]);
  });

  it("refuses VoteAsset, which java-tron has no actuator for, naming it, before any request", async () => {
    const e = byTx("59b5736f");
    clock.now = ownTime(e);
    const expected: Record<Lang, string> = {
      en: "I cannot read this kind of contract (VoteAssetContract), so I cannot show you what it does and the service cannot provision it. Nothing was sent.",
      ru: "Этот вид контракта (VoteAssetContract) я прочитать не могу: не покажу, что он делает, и сервис не сможет его обеспечить. Ничего не отправлено.",
      zh: "我无法读取这种合约（VoteAssetContract），因此无法告诉你它做什么，服务也无法为其提供资源。未发送任何内容。",
    };
    for (const lang of ["en", "ru", "zh"] as const) {
      const id = ++chat;
      await h.linkChat(id, { balanceSun: 100_000_000 });
      const user = h.user(id, { languageCode: lang });
      await user.send("/broadcast");
      const before = h.sim.requests.length;
      await user.send(JSON.stringify(e.transaction));
      expect(user.lastText(), lang).toBe(expected[lang]);
      // Refused locally: not even a price lookup reached the simulator.
      expect(h.sim.requests.slice(before), lang).toEqual([]);
    }
    expect(h.sim.requests.filter((r) => r.path === "/v1/broadcasts")).toEqual([]);
  });
});
