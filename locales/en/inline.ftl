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
inline-range-hint = Energy per order: { $amountMin } to { $amountMax }
inline-unknown-tier-hint = No duration "{ $duration }": choose { $labels }
