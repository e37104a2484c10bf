import { GrammyError } from "grammy";

/** True for Telegram's "message is not modified" refusal (a repeated tap, nothing to change). */
export function isNotModified(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 400 && error.description.includes("message is not modified");
}

/** Runs an edit and ignores only "message is not modified". */
export async function editIgnoringUnchanged(edit: () => Promise<unknown>): Promise<void> {
  try {
    await edit();
  } catch (error) {
    if (!isNotModified(error)) throw error;
  }
}

/**
 * True for Telegram's refusals to edit a message that is gone or not the
 * bot's to edit (a stale or forged button): an expected outcome, not a bug.
 */
export function isUneditable(error: unknown): boolean {
  if (!(error instanceof GrammyError) || error.error_code !== 400) return false;
  const d = error.description;
  return d.includes("message to edit not found") || d.includes("message can't be edited") || d.includes("MESSAGE_ID_INVALID");
}
