import type { IncomingMessage, ServerResponse } from "node:http";

export const MAX_BODY_BYTES = 1_048_576;
/** Past this the upload is cut off instead of drained. */
const HARD_CUTOFF_BYTES = 16 * MAX_BODY_BYTES;

export type BodyResult = { ok: true; text: string } | { ok: false; reason: "too_large" | "aborted" };

/**
 * Reads the whole body, keeping at most 1 MiB. An oversized body is drained
 * (not kept) so the client still gets its 413 after finishing the upload.
 */
export function readBody(req: IncomingMessage): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
      if (size > HARD_CUTOFF_BYTES) {
        resolve({ ok: false, reason: "too_large" });
        req.destroy();
      }
    });
    req.on("end", () => resolve(tooLarge ? { ok: false, reason: "too_large" } : { ok: true, text: Buffer.concat(chunks).toString("utf8") }));
    req.on("error", () => resolve({ ok: false, reason: "aborted" }));
    // After "end" this is a no-op (a promise settles once); before it, the client went away.
    req.on("close", () => resolve({ ok: false, reason: "aborted" }));
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string, contentType = "text/html; charset=utf-8"): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
  res.end(text);
}
