import type { Api } from "grammy";
import type { Document } from "grammy/types";
import type { Logger } from "pino";

/** Signed transactions and order lists are small; both stop at the service's 1 MiB body limit. */
export const MAX_DOCUMENT_BYTES = 1_048_576;

export type DocumentRead = { ok: true; text: string } | { ok: false; reason: "too_large" | "unreadable" };

/**
 * Downloads a document the user sent, refusing anything over 1 MiB before
 * and while downloading. Run it inside `conversation.external` in a flow.
 */
export async function readDocument(api: Api, doc: Pick<Document, "file_id" | "file_size">, logger: Pick<Logger, "warn">): Promise<DocumentRead> {
  const apiRoot = api.options?.apiRoot ?? "https://api.telegram.org";
  if ((doc.file_size ?? 0) > MAX_DOCUMENT_BYTES) return { ok: false, reason: "too_large" };
  try {
    const file = await api.getFile(doc.file_id);
    if ((file.file_size ?? 0) > MAX_DOCUMENT_BYTES) return { ok: false, reason: "too_large" };
    if (!file.file_path) return { ok: false, reason: "unreadable" };
    const response = await fetch(`${apiRoot}/file/bot${api.token}/${file.file_path}`, { signal: AbortSignal.timeout(15_000) });
    if (!response.ok || !response.body) {
      logger.warn({ status: response.status }, "document download refused");
      return { ok: false, reason: "unreadable" };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      const buf = Buffer.from(chunk as Uint8Array);
      size += buf.length;
      if (size > MAX_DOCUMENT_BYTES) return { ok: false, reason: "too_large" };
      chunks.push(buf);
    }
    return { ok: true, text: Buffer.concat(chunks).toString("utf8") };
  } catch (error) {
    // The user is asked to send it again; the cause is only for the logs (the URL holds the token, so not the URL).
    logger.warn(
      { err: error instanceof Error ? { name: error.name, message: error.message.replaceAll(api.token, "<token>") } : String(error) },
      "document download failed",
    );
    return { ok: false, reason: "unreadable" };
  }
}

export function isCsvDocument(doc: Pick<Document, "file_name" | "mime_type">): boolean {
  return /\.(csv|txt)$/i.test(doc.file_name ?? "") || doc.mime_type === "text/csv";
}

export function isJsonDocument(doc: Pick<Document, "file_name" | "mime_type">): boolean {
  return /\.json$/i.test(doc.file_name ?? "") || doc.mime_type === "application/json";
}
