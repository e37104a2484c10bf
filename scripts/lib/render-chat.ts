/** Plain-text rendering of what a Telegram chat shows, for the sandbox CLI. */
import type { StoredMessage } from "../../testkit/fake-telegram/fake-telegram.js";

export interface RenderedMessage {
  messageId: number;
  from: "bot" | "user";
  text: string;
  edits: number;
  deleted: boolean;
  buttons: { text: string; kind: string; value?: string }[][];
  photo?: string;
  document?: string;
}

export interface MessageSnapshot {
  seq: number;
  edits: number;
  deleted: boolean;
}

/** Where a photo or document a bot sent was saved, by message. */
export type MediaPath = (message: StoredMessage) => string | undefined;

export function toRendered(m: StoredMessage, mediaPath: MediaPath): RenderedMessage {
  const media = mediaPath(m);
  return {
    messageId: m.messageId,
    from: m.from,
    text: m.text,
    edits: m.edits,
    deleted: m.deleted,
    buttons: m.buttons.map((row) =>
      row.map((b) => {
        const raw = b as unknown as Record<string, unknown>;
        const kind =
          ["callback_data", "url", "switch_inline_query", "switch_inline_query_current_chat", "login_url", "web_app", "copy_text"].find((k) => k in raw) ??
          "other";
        const value = raw[kind];
        return { text: b.text, kind, ...(typeof value === "string" ? { value } : value !== undefined ? { value: JSON.stringify(value) } : {}) };
      }),
    ),
    ...(m.photo ? { photo: media ?? `(photo ${m.photo.fileId})` } : {}),
    ...(m.document ? { document: media ?? `(document ${m.document.fileName})` } : {}),
  };
}

function indent(text: string, prefix = "  "): string {
  return text
    .split("\n")
    .map((l) => prefix + l)
    .join("\n");
}

export function renderMessage(m: RenderedMessage, note?: string): string {
  const head = `#${m.messageId} ${m.from === "bot" ? "BOT" : "you"}${m.edits > 0 ? ` (edited ${m.edits}x)` : ""}${m.deleted ? " (DELETED)" : ""}${note ? ` [${note}]` : ""}`;
  const parts = [head];
  if (m.photo) parts.push(`  [photo: ${m.photo}]`);
  if (m.document) parts.push(`  [document: ${m.document}]`);
  if (m.text) parts.push(indent(m.text));
  for (const row of m.buttons) {
    parts.push(
      "  " +
        row
          .map((b) => {
            if (b.kind === "callback_data") return `[ ${b.text} ]`;
            if (b.kind === "url") return `[ ${b.text} -> ${b.value ?? ""} ]`;
            if (b.kind.startsWith("switch_inline")) return `[ ${b.text} (inline: "${b.value ?? ""}") ]`;
            return `[ ${b.text} (${b.kind}) ]`;
          })
          .join(" "),
    );
  }
  return parts.join("\n");
}

/** Messages that are new, edited or deleted compared with `before` (by message id). */
export function changedSince(now: StoredMessage[], before: Map<number, MessageSnapshot>): { message: StoredMessage; note: string }[] {
  const out: { message: StoredMessage; note: string }[] = [];
  for (const m of now) {
    const old = before.get(m.messageId);
    if (!old) out.push({ message: m, note: m.deleted ? "new, then deleted" : "new" });
    else if (m.deleted && !old.deleted) out.push({ message: m, note: "deleted" });
    else if (m.edits !== old.edits) out.push({ message: m, note: "edited" });
  }
  return out;
}

export function snapshot(history: StoredMessage[]): Map<number, MessageSnapshot> {
  return new Map(history.map((m) => [m.messageId, { seq: m.seq, edits: m.edits, deleted: m.deleted }]));
}
