import { InputFile } from "grammy";
import type { PushJob } from "../../platform/push/index.js";

/** A document a push job carries: stored as text with the job, uploaded as a file when it is sent. */
export interface PushDocument {
  filename: string;
  text: string;
}

export function documentParams(params: Record<string, unknown>, document: PushDocument): Record<string, unknown> {
  return { ...params, document };
}

function isPushDocument(value: unknown): value is PushDocument {
  if (typeof value !== "object" || value === null) return false;
  const { filename, text } = value as Record<string, unknown>;
  return typeof filename === "string" && typeof text === "string";
}

/** A job's parameters as Telegram takes them: a carried document becomes a multipart upload. */
export function telegramParams(job: PushJob): Record<string, unknown> {
  const document = job.params["document"];
  if (job.method !== "sendDocument" || !isPushDocument(document)) return job.params;
  return { ...job.params, document: new InputFile(Buffer.from(document.text, "utf8"), document.filename) };
}
