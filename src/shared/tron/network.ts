/**
 * The TRON networks the bot can serve (`TRON_NETWORK`): the USDT contract a /send transfers on, the explorer
 * its links open, and the genesis block a wallet's node must report for the signing page to go on. The genesis
 * block id identifies a network whatever node a wallet uses; its last four bytes are the chain id wallets
 * report (TIP-6963: mainnet 0x2b6653dc, Nile 0xcd8690dc, Shasta 0x94a9059e).
 */
export const TRON_NETWORKS = ["mainnet", "nile", "shasta"] as const;
export type TronNetworkName = (typeof TRON_NETWORKS)[number];

export interface TronNetwork {
  name: TronNetworkName;
  /** Base58 USDT (TRC20) contract. */
  usdtContract: string;
  /** Tronscan base for this network (`<base>/transaction/<txId>`). */
  explorerUrl: string;
  /** Block 0's id, lower-case hex. */
  genesisBlockId: string;
}

export const NETWORKS: Readonly<Record<TronNetworkName, TronNetwork>> = {
  mainnet: {
    name: "mainnet",
    usdtContract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    explorerUrl: "https://tronscan.org/#",
    genesisBlockId: "00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc",
  },
  nile: {
    name: "nile",
    usdtContract: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
    explorerUrl: "https://nile.tronscan.org/#",
    genesisBlockId: "0000000000000000d698d4192c56cb6be724a558448e2684802de4d6cd8690dc",
  },
  shasta: {
    name: "shasta",
    usdtContract: "TG3XXyExBkPp9nzdajDZsozEu4BkaSJozs",
    explorerUrl: "https://shasta.tronscan.org/#",
    genesisBlockId: "0000000000000000de1aa88295e1fcf982742f773e0419c5a9c134c994a9059e",
  },
};
