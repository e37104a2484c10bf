## Inline price quotes

inline-quote-title = { $label }: { $totalTrx } TRX for { $amount } energy
inline-quote-description = { $unitPriceSun } sun per unit, rented for { $duration }
inline-quote-message =
    <b>Energy quote</b>
    { $amount } energy for { $tier }: <b>{ $totalTrx } TRX</b>
    Unit price: { $unitPriceSun } sun. Prices move with the market.
inline-order-button = Order this in the bot
inline-connect-button = Connect your account
inline-unparsed-title = Type an amount, e.g. 100k 1h
inline-unparsed-description = From { $amountMin } to { $amountMax } energy, optionally followed by a duration.
inline-unparsed-message = Type an energy amount from { $amountMin } to { $amountMax } after the bot's name, optionally followed by a duration, for example <code>100k 1h</code>.
inline-range-title = { $amount } energy is outside the allowed range
inline-range-description = Allowed: { $amountMin } to { $amountMax } energy per order.
inline-range-message = { $amount } energy cannot be ordered: one order takes { $amountMin } to { $amountMax } energy.
inline-unknown-tier-title = No rental duration "{ $duration }"
inline-unknown-tier-description = Available durations: { $labels }
inline-unknown-tier-message = There is no rental duration <code>{ $duration }</code>. Available: { $labels }, for example <code>100k { $example }</code>.
