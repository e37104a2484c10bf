/**
 * How much to send to the deposit address. A transfer below the minimum
 * deposit is not credited automatically (service-api.md section 8), so
 * advising the bare shortfall when it is smaller would lose the user's money.
 */

/** Minimum account deposit: 10 TRX. */
export const MIN_DEPOSIT_SUN = 10_000_000n;

export type TopUpAdvice = { covered: true; shortfallSun: 0n; sendSun: 0n } | { covered: false; shortfallSun: bigint; sendSun: bigint };

/** `sendSun` = max(required − available, minimum deposit) when the balance falls short; exact to the sun. */
export function topUpAdvice(requiredSun: bigint, availableSun: bigint): TopUpAdvice {
  const available = availableSun < 0n ? 0n : availableSun;
  if (available >= requiredSun) return { covered: true, shortfallSun: 0n, sendSun: 0n };
  const shortfallSun = requiredSun - available;
  return { covered: false, shortfallSun, sendSun: shortfallSun > MIN_DEPOSIT_SUN ? shortfallSun : MIN_DEPOSIT_SUN };
}
