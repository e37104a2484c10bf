/** A Bot API refusal: the fake answers it as Telegram does (`ok: false`, code, description). */
export class TelegramError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: Record<string, unknown>,
  ) {
    super(description);
  }
}
