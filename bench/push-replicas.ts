/**
 * The BullMQ push queue worked by 1 and by 2 processes on one Redis at
 * Telegram's real limits: delivered/s, the busiest second overall and per
 * chat, and the 429s met, next to the allowed 30/s and 1/s per chat. Two
 * processes share one budget, so the figure should not double.
 */
import { TELEGRAM_LIMITS } from "../src/platform/push/types.js";
import { printGoal } from "./rounds.js";
import { runPushReplicas } from "../testkit/push-replicas.js";

export interface PushReplicasBenchOptions {
  messages: number;
  chats: number;
  redisUrl: string;
  timeoutMs: number;
  /** Another checkout (main), whose replicas run the same load just before this code's, in the same run. */
  baselineDir?: string | undefined;
}

export async function benchPushReplicas(options: PushReplicasBenchOptions): Promise<void> {
  const allowed = TELEGRAM_LIMITS.globalPerSecond;
  const lines: string[] = [];
  const shares: { processes: number; share: number; rateLimited: number }[] = [];
  const codes: [label: string, root: string | undefined][] = options.baselineDir
    ? [
        ["baseline code, ", options.baselineDir],
        ["", undefined],
      ]
    : [["", undefined]];
  for (const processes of [1, 2]) {
    for (const [label, root] of codes) {
      const r = await runPushReplicas({ processes, ...options, root });
      if (!root) shares.push({ processes, share: r.perSecond / allowed, rateLimited: r.rateLimited });
      lines.push(
        `  ${label}${processes} process${processes === 1 ? " " : "es"}: ${r.perSecond.toFixed(1)}/s (${(r.perSecond / allowed).toFixed(3)} of allowed), ` +
          `busiest second ${r.peakPerSecond}, busiest chat-second ${r.peakPerChatPerSecond}, ${r.rateLimited} × 429, ${r.delivered} delivered, ${r.duplicates} twice`,
      );
    }
  }
  console.log(
    `push replicas, BullMQ on one Redis (${options.messages} messages, ${options.chats} chats, allowed ${allowed}/s and ${TELEGRAM_LIMITS.perChatPerSecond}/s per chat):`,
  );
  for (const line of lines) console.log(line);
  for (const { processes, share, rateLimited } of shares) {
    printGoal(
      `3, BullMQ, ${processes} process${processes === 1 ? "" : "es"}: ≥ 0.93 of the allowed rate with 0 × 429`,
      share >= 0.93 && rateLimited === 0,
      `${share.toFixed(3)} of allowed, ${rateLimited} × 429`,
    );
  }
}
