/**
 * How the process ends, for a supervisor and an operator: 0 only after a
 * requested stop, so a restart-on-failure policy restarts every other end.
 * A store or network outage is never one of them: it is waited out.
 */
export const EXIT_CODES = {
  /** SIGTERM or SIGINT: stopped as asked. */
  stopped: 0,
  /** A configuration error (one line names the variables), or an error nobody foresaw. */
  failed: 1,
  /** The store answered and refused (credentials, permissions, a bad table name): waiting would not help. */
  storeRefused: 3,
  /** Another bot process runs the local queues on this Postgres store (at start, or it took them while this one's lock connection was lost). */
  storeInUse: 4,
  /** Telegram refused the bot: the token (401/404), or another instance polls with it (409). */
  telegramRefused: 5,
  /** A shutdown that did not finish within its budget. */
  shutdownStuck: 6,
} as const;
