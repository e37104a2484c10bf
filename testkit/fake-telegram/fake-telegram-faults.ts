/**
 * Faults the fake Bot API can be told to produce for the next calls of one
 * method: Telegram refuses them (a 429 with a long `retry_after`, a 5xx), or
 * applies them and the answer never arrives (the connection drops), as
 * happens in real networks.
 */
export type TelegramFault =
  | { method: string; times?: number; kind: "refuse"; code: number; description: string; retryAfter?: number }
  | { method: string; times?: number; kind: "lose_answer" };

export interface FaultBook {
  inject(fault: TelegramFault): void;
  clear(): void;
  /** The first fault still armed for this method, used up by this call. */
  take(method: string): TelegramFault | undefined;
}

export function createFaultBook(): FaultBook {
  const armed: { fault: TelegramFault; left: number }[] = [];
  return {
    inject: (fault) => void armed.push({ fault, left: fault.times ?? 1 }),
    clear: () => void armed.splice(0),
    take(method) {
      const hit = armed.find((f) => f.fault.method.toLowerCase() === method.toLowerCase() && f.left > 0);
      if (hit) hit.left -= 1;
      return hit?.fault;
    },
  };
}
