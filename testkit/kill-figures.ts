/** What one kill -9 run counted for one flow on one store (written by the suite, read by `npm run reliability`). */
export interface KillFigures {
  backend: string;
  /** "keep": a keep-charged plan renewing its slots while the bot is killed between them. */
  flow: "order" | "broadcast" | "keep";
  kills: number;
  /**
   * Where the kill landed, seen from outside: before the item's charge / charged, its card (a plan's
   * slot: its notice) not drawn yet / after that.
   */
  landed: { beforeCharge: number; chargedBeforeCard: number; afterCard: number };
  /** Taps the bot never processed (fetched, then killed before it recorded anything): nothing charged, tapped again. */
  tapsRetried: number;
  charges: number;
  doubledCharges: number;
  /** Charged items the chat was never told finished (not within the suite's wait of 90 s). */
  lostAnnouncements: number;
  /** Items first shown finished more than LATE_MS after the service changed their status (the simulator's clock). */
  lateAnnouncements: number;
  /** The slowest of those delays, in ms. */
  slowestAnnouncementMs: number;
  /** Extra copies of final notices: one the chat received n times counts n − 1. */
  doubledAnnouncements: number;
  /** Keep plans: slots whose order was placed after the previous slot's delegation had ended (service's times). */
  renewalsLapsed: number;
}

/** An announcement later than this after the service's status change counts as late. */
export const LATE_MS = 30_000;

export function emptyFigures(backend: string, flow: KillFigures["flow"]): KillFigures {
  return {
    backend,
    flow,
    kills: 0,
    landed: { beforeCharge: 0, chargedBeforeCard: 0, afterCard: 0 },
    tapsRetried: 0,
    charges: 0,
    doubledCharges: 0,
    lostAnnouncements: 0,
    lateAnnouncements: 0,
    slowestAnnouncementMs: 0,
    doubledAnnouncements: 0,
    renewalsLapsed: 0,
  };
}

/** Counts one announcement's delay (ms from the service's status change to the chat's first sight of it). */
export function countDelay(f: KillFigures, delayMs: number): void {
  f.slowestAnnouncementMs = Math.max(f.slowestAnnouncementMs, delayMs);
  if (delayMs > LATE_MS) f.lateAnnouncements += 1;
}
