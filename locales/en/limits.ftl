## /limits and /freeze: spend guardrails

limits =
    .description = Spend limits and Freeze
freeze =
    .description = Freeze all spending of this account at once
limits-title = <b>Spend limits of this account</b> (the same in every chat linked to it)
limits-daily = Daily cap: { $cap } (spent today: { $spentTrx } TRX)
limits-monthly = Monthly cap: { $cap } (spent this month: { $spentTrx } TRX)
limits-cap-value = { $capTrx } TRX, { $leftTrx } TRX left
limits-none = none
limits-threshold = Second tap above: { $threshold }
limits-threshold-value = { $thresholdTrx } TRX
limits-zone = Days and months are counted in { $zone }, your chat's time zone (it also dates /orders and statements; /settings changes it too).
limits-active = Spending is allowed within these limits.
limits-frozen = ❄️ <b>Frozen</b>: nothing is spent from this account through me (orders, batches, broadcasts, renewals) from any of its chats until you unfreeze.
limits-scope = The caps count everything this account spends through me, from any chat linked to it: orders, batches, broadcasts (refunded ones not) and renewals.
limits-daily-button = Daily cap
limits-monthly-button = Monthly cap
limits-threshold-button = Second-tap threshold
limits-zone-button = Time zone
limits-freeze-button = ❄️ Freeze
limits-unfreeze-button = ▶️ Unfreeze
limits-clear-button = No limit
limits-no-limit-chosen = • No limit
limits-custom-button = ✏️ Custom
limits-preset-button = { $amountTrx } TRX
limits-preset-chosen = • { $label }
limits-pick-daily = <b>Daily cap</b>: tap an amount, ✏️ Custom to type another, or No limit.
limits-pick-monthly = <b>Monthly cap</b>: tap an amount, ✏️ Custom to type another, or No limit.
limits-pick-threshold = <b>Second-tap threshold</b>: a confirmation above this amount needs a second tap. Tap an amount, ✏️ Custom to type another, or No limit.
limits-ask-daily = Send the daily cap in TRX, for example <code>50</code> or <code>12.5</code>. “No limit” is among the choices on the card.
limits-ask-monthly = Send the monthly cap in TRX, for example <code>500</code> or <code>120.75</code>. “No limit” is among the choices on the card.
limits-ask-threshold = Send the amount in TRX above which a confirmation needs a second tap, for example <code>20</code>. “No limit” is among the choices on the card.
limits-ask-zone = Send your time zone: a city (<code>Moscow</code>, <code>Shanghai</code>), a UTC offset (<code>UTC+3</code>) or an IANA name (<code>Europe/Moscow</code>).
limits-ask-text = Please send the amount as text, or /cancel.
limits-bad-amount = “{ $value }” is not an amount in TRX. Use digits, with a dot before at most 6 decimals, for example <code>50</code>, <code>12.5</code> or <code>1,000</code>.
limits-not-positive = The amount must be more than 0 TRX. To remove the limit, tap “No limit” on the card.
limits-bad-zone = “{ $value }” is not a time zone I know. Send a city such as <code>London</code>, an offset such as <code>UTC+3</code> or an IANA name such as <code>Europe/Berlin</code>.
limits-saved = ✅ Saved.
limits-saved-above = ✅ Saved. The card above shows the limits now.
limits-cleared = ✅ Limit removed.
limits-frozen-done = ❄️ Frozen. Nothing is spent from this account, in any of its chats, until you tap Unfreeze in /limits. Plans that keep addresses charged are stopped.
limits-unfrozen-done = ▶️ Unfrozen. Spending is allowed again within your limits.
limits-refused-frozen = ⛔ Not sent: spending from this account is frozen. Nothing was charged. Tap ▶️ Unfreeze below to allow spending again.
limits-refused-daily =
    ⛔ Not sent: this would cross your daily cap. Nothing was charged.
    Cap: { $capTrx } TRX · spent today: { $spentTrx } TRX · left: { $leftTrx } TRX
    This costs: { $costTrx } TRX
limits-refused-monthly =
    ⛔ Not sent: this would cross your monthly cap. Nothing was charged.
    Cap: { $capTrx } TRX · spent this month: { $spentTrx } TRX · left: { $leftTrx } TRX
    This costs: { $costTrx } TRX
limits-refused-hint = Change the caps with ⚙️ Limits below, then tap Confirm again.
limits-confirm-again-button = ✅ Confirm again: { $costTrx } TRX
limits-confirm-again-note = Above your second-tap threshold: tap again to confirm.
