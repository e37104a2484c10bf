/** What one kill -9 run counted for one flow on one store (written by the suite, read by `npm run reliability`). */
export interface KillFigures {
  backend: string;
  flow: "order" | "broadcast";
  kills: number;
  /** Where the kill landed, seen from outside. */
  landed: { beforeCharge: number; chargedBeforeCard: number; afterCard: number };
  /** Taps the bot never processed (fetched, then killed before it recorded anything): nothing charged, tapped again. */
  tapsRetried: number;
  charges: number;
  doubledCharges: number;
  lostAnnouncements: number;
  doubledAnnouncements: number;
}
