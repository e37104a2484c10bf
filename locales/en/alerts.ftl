## /alerts and the balance watch

alerts =
    .description = Balance alerts: deposits, low balance, foreign charges
alerts-deposit = 💰 Deposit credited: +{ $amountTrx } TRX (balance now { $balanceTrx } TRX).
alerts-deposit-line = Deposit: +{ $amountTrx } TRX.
alerts-low = ⚠️ Low balance: { $balanceTrx } TRX, below your alert threshold of { $thresholdTrx } TRX. Top up with /balance (at least 10 TRX per transfer). Change the threshold with /alerts.
alerts-foreign = ⚠️ The balance fell by { $amountTrx } TRX that the bot did not spend (another key or the dashboard?). Balance now { $balanceTrx } TRX. If this was not you, revoke the key in the dashboard.
alerts-title =
    <b>Balance alerts</b>

    While this chat is linked I read the balance from time to time and tell you on my own. Tap a button to switch it.
    Low-balance threshold: { $threshold }.
    Tap an amount below to set it (✏️ for another, 🔕 to turn the alert off), or type { $command } (exact TRX); back to the default: { $reset }.
alerts-threshold-default = default (below { $minTrx } TRX, or below the next keep-charged renewal if that costs more)
alerts-threshold-own = { $thresholdTrx } TRX
alerts-threshold-off = off (no low-balance alert)
alerts-threshold-chosen = • { $label }
alerts-threshold-default-button = Default
alerts-threshold-button = { $thresholdTrx } TRX
alerts-threshold-custom-button = ✏️ Other amount
alerts-threshold-custom-own = ✏️ { $thresholdTrx } TRX
alerts-low-off-button = 🔕 Off
alerts-threshold-ask = Send the low-balance threshold in TRX, for example <code>25.5</code>, or <code>default</code>. (In any chat: { $command }; back to the default: { $reset }.)
alerts-threshold-ask-text = Please send the threshold as text, for example <code>25.5</code>, or /cancel.
alerts-threshold-toast = Low-balance alert below { $thresholdTrx } TRX.
alerts-threshold-toast-default = Low-balance alert at the default threshold.
alerts-usage = Use /alerts to see and switch the alerts, { $command } to set the low-balance threshold in TRX, or { $reset } to go back to the default.
## The words and example amount of `/alerts threshold …` shown to the chat (any language's words are accepted).
alerts-word-threshold = threshold
alerts-word-default = default
alerts-example-amount = 25.5
alerts-threshold-set = Low-balance threshold set: you hear once when the balance falls below { $thresholdTrx } TRX, and again only after it was back above.
alerts-threshold-reset = Low-balance threshold back to the default.
alerts-threshold-invalid-format = { $value } is not an amount in TRX. Write it with a dot and at most 6 decimals, e.g. <code>25.5</code>.
alerts-threshold-invalid-negative = The threshold cannot be negative: { $value }.
alerts-threshold-invalid-too_large = { $value } is more than the largest threshold, { $maxTrx } TRX.
alerts-deposits-on = ✅ Deposit notices: on
alerts-deposits-off = 🔕 Deposit notices: off
alerts-foreign-on = ✅ Charges the bot did not make: on
alerts-foreign-off = 🔕 Charges the bot did not make: off
alerts-deposits-enabled = Deposit notices are on.
alerts-deposits-disabled = Deposit notices are off.
alerts-low-enabled = The low-balance alert is on.
alerts-low-disabled = The low-balance alert is off.
alerts-foreign-enabled = Reports of charges the bot did not make are on.
alerts-foreign-disabled = Reports of charges the bot did not make are off.
