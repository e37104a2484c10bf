/** Request body parsing for the fake Bot API: JSON, urlencoded and multipart, like Telegram. */
import type { IncomingMessage } from "node:http";

export interface UploadedFile {
  filename: string;
  bytes: Buffer;
}

export interface ParsedBody {
  params: Record<string, unknown>;
  /** Multipart parts that carried a filename, by field name (grammY names them randomly, `attach://<name>`). */
  files: Map<string, UploadedFile>;
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseMultipart(body: Buffer, boundary: string): ParsedBody {
  const params: Record<string, unknown> = {};
  const files = new Map<string, UploadedFile>();
  const delimiter = Buffer.from(`--${boundary}`);
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const partStart = start + delimiter.length;
    if (body.subarray(partStart, partStart + 2).toString() === "--") break;
    const next = body.indexOf(delimiter, partStart);
    if (next < 0) break;
    // Part = CRLF headers CRLF CRLF content CRLF
    const part = body.subarray(partStart + 2, next - 2);
    const headerEnd = part.indexOf("\r\n\r\n");
    const headers = part.subarray(0, headerEnd).toString("utf8");
    const content = part.subarray(headerEnd + 4);
    const name = /name="([^"]+)"/i.exec(headers)?.[1];
    const filename = /filename="?([^";\r\n]+)"?/i.exec(headers)?.[1];
    if (name) {
      if (filename !== undefined) files.set(name, { filename, bytes: Buffer.from(content) });
      else params[name] = content.toString("utf8");
    }
    start = next;
  }
  return { params, files };
}

/** Parses query string and body; string values stay strings (the methods coerce, like Telegram). */
export function parseRequest(url: URL, contentType: string | undefined, body: Buffer): ParsedBody {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams.entries());
  const type = (contentType ?? "").toLowerCase();
  if (body.length === 0) return { params, files: new Map() };
  if (type.startsWith("application/json")) {
    const parsed = JSON.parse(body.toString("utf8")) as unknown;
    if (typeof parsed !== "object" || parsed === null) throw new Error("JSON body is not an object");
    return { params: { ...params, ...(parsed as Record<string, unknown>) }, files: new Map() };
  }
  if (type.startsWith("application/x-www-form-urlencoded")) {
    return { params: { ...params, ...Object.fromEntries(new URLSearchParams(body.toString("utf8"))) }, files: new Map() };
  }
  if (type.startsWith("multipart/form-data")) {
    const boundary = /boundary=("?)([^";]+)\1/i.exec(type)?.[2] ?? /boundary=("?)([^";]+)\1/i.exec(contentType ?? "")?.[2];
    if (!boundary) throw new Error("multipart without boundary");
    // The boundary is case-sensitive: take it from the original header.
    const original = /boundary=("?)([^";]+)\1/i.exec(contentType ?? "")?.[2] ?? boundary;
    const parsed = parseMultipart(body, original);
    return { params: { ...params, ...parsed.params }, files: parsed.files };
  }
  return { params, files: new Map() };
}

/** Reads a JSON-ish param that may arrive as an object (JSON body) or a string (form bodies). */
export function jsonParam(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

export function intParam(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Number(value);
  return undefined;
}

export function boolParam(value: unknown): boolean {
  return value === true || value === "true";
}
