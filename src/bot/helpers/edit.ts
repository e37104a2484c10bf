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
