## Localized input: tier labels on buttons, amounts a locale makes ambiguous

# A tier whose label only abbreviates its duration, as a button shows it ("1h", "15m").
input-tier-label = { $unit ->
    [h] { $count }h
    [m] { $count }m
   *[s] { $count }s
}
input-amount-ambiguous = “{ $value }” can be read two ways: { $first } or { $second }. Nothing was ordered. Write the number without a comma, for example <code>{ $first }</code> or <code>{ $second }</code>.
input-amount-ambiguous-reason = “{ $value }” can be read as { $first } or as { $second }; write it without a comma
input-trx-ambiguous = “{ $value }” can be read two ways: { $first } TRX or { $second } TRX. Nothing was changed. Write it as <code>{ $first }</code> or <code>{ $second }</code>.
