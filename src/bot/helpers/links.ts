import { DEFAULT_EXPLORER_URL, type Config } from "../../config.js";

/** The URLs the bot links to: the block explorer always, the dashboard and support only when configured. */
export interface Links {
  readonly dashboard: string | undefined;
  readonly support: string | undefined;
  /** The explorer's page of a transaction. */
  transaction(txId: string): string;
  /** The explorer's page of an address (a receiver's delegations). */
  address(address: string): string;
}

export type LinksConfig = Partial<Pick<Config, "explorerUrl" | "dashboardUrl" | "supportUrl">>;

/**
 * EXPLORER_URL is a base such as `https://tronscan.org/#`; pages follow
 * Tronscan's paths (`/transaction/<txId>`, `/address/<address>`), which its
 * testnet mirrors (shasta., nile.) share.
 */
export function createLinks(config: LinksConfig): Links {
  const explorer = config.explorerUrl ?? DEFAULT_EXPLORER_URL;
  return {
    dashboard: config.dashboardUrl,
    support: config.supportUrl,
    transaction: (txId) => `${explorer}/transaction/${encodeURIComponent(txId)}`,
    address: (address) => `${explorer}/address/${encodeURIComponent(address)}`,
  };
}
