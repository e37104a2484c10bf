## Order feature: /order, /batch, quotes

order =
    .description = Rent energy for an address
batch =
    .description = Several orders at once (lines or a .csv file)

order-usage = Usage: <code>/order address amount duration</code>, for example <code>/order TXYZ… 100k 1h</code>. Durations: { $durations }. Or just send /order and I will ask step by step. The receiver may also be a saved label, spaces included: <code>/order main wallet 100k 1h</code>.
order-oneshot-bad-receiver = “{ $value }” is not a valid TRON address or one of your saved labels. Check it and send the command again.
order-oneshot-bad-amount = “{ $value }” is not an amount. Use a whole number such as <code>100000</code>, <code>100k</code> or <code>65,000</code>.
order-oneshot-amount-range = The amount { $value } is outside { $min }–{ $max }.
order-oneshot-bad-duration = Unknown duration { $value }. Available: { $durations }.
order-preset = Ordering <b>{ $amount } energy for { $duration }</b>, as quoted. Now the receiver:
order-preset-amount-dropped = The link asked for { $amount } energy, outside what can be ordered ({ $min } to { $max }): tell me the amount below.
order-preset-duration-dropped = The link's duration is not offered any more: choose one below.
order-ask-receiver = Who receives the energy? Send a TRON address (base58, starts with T). You can add a label after it, like <code>TXYZ… main wallet</code>{ $recent ->
        [yes] , or tap a recent receiver.
       *[no] .
    }
    For several orders at once, paste lines <code>address amount [duration]</code> or send a .csv file.
order-recent-title = Recent receivers:
order-recent-line = • { $address }
order-recent-line-labelled = • { $label }: { $address }
order-receiver-invalid = That is not a valid TRON address: it must be 34 characters of base58 starting with T, with a correct checksum. Check it and send it again.
order-receiver-saved = Saved { $address } as “{ $label }”.
order-ask-amount = How much energy? From { $min } to { $max }, for example <code>100k</code> or <code>65,000</code>.
order-amount-preset-65000 = 65k · one USDT transfer
order-amount-preset-131000 = 131k · to a new recipient
order-amount-preset-200000 = 200k
order-amount-invalid = Send a whole number between { $min } and { $max }, such as <code>100000</code>, <code>100k</code> or <code>65,000</code>.
order-amount-range = The amount must be between { $min } and { $max }.
order-ask-duration = For how long? Price per unit of energy:
order-duration-button = { $label } · { $unitPriceSun } sun
order-duration-invalid = Pick a duration with the buttons, or type one such as <code>1h</code>, <code>15 min</code> or <code>3600</code>.
order-duration-text = { $unit ->
    [h] { $count } h
    [m] { $count } min
   *[s] { $count } s
}
order-cancel-button = Cancel

order-quote-title = <b>Your quote</b> (valid for { $minutes } min)
order-quote-item = Receiver: { $address }
    Energy: { $amount } for { $duration }
    Unit price: { $unitPriceSun } sun
order-quote-batch-title = <b>Quote for { $count } orders</b> (valid for { $minutes } min)
order-quote-batch-line = { $n }. { $address } · { $amount } for { $duration } · { $costTrx } TRX
order-quote-batch-more = …and { $count } more.
order-quote-total = Total: <b>{ $totalTrx } TRX</b>
order-quote-balance = Balance: { $balanceTrx } TRX, after the order: { $afterTrx } TRX
order-quote-balance-short = Balance: { $balanceTrx } TRX, which is { $missingTrx } TRX short. Top up before you confirm.
order-quote-balance-unknown = Your balance could not be read right now.
order-quote-no-wallet = Your account has no wallet yet, so there is no balance to pay from. Its deposit address appears once the dashboard creates the wallet; /balance shows it then.
order-quote-confirm-button = ✅ Confirm
order-quote-retry-button = 🔁 Retry
order-quote-fresh-button = Get a fresh quote
order-quote-cancelled = Quote cancelled. Nothing was charged.
order-quote-expired = This quote has expired: prices move, so a quote is valid for 10 minutes. Nothing was charged. Tap below for a fresh one.
order-quote-expired-short = This quote has expired.
order-already-placed = This order is already placed; it was charged once.
order-cannot-cancel = This quote has already been sent to the service and can no longer be cancelled.
order-placed-replayed = This order had already been placed: this is the same order, charged once.
order-insufficient = <b>Not enough balance for this order.</b>
    Required: { $requiredTrx } TRX
    Available: { $availableTrx } TRX
    Short by: { $missingTrx } TRX
order-insufficient-required = <b>Not enough balance for this order.</b> Required: { $requiredTrx } TRX.
order-insufficient-balance-unknown = Your balance could not be read right now; /balance shows it with your deposit address.
order-insufficient-no-wallet = Your account has no wallet yet, so there is no deposit address to top up. The address appears once the dashboard creates the wallet; /balance shows it then.
order-insufficient-no-address = Your account has no deposit address yet: create it in the dashboard, then top up.
order-insufficient-retry = When the top-up has arrived, tap Retry: it sends this same order with the same key, so you are never charged twice.
order-retry-safe = Retry sends the same order with the same key, so it can never be charged twice.
order-quote-burn-saving = Burning TRX for the same energy would cost { $burnTrx } TRX (at { $price } sun per unit): this order saves { $savingTrx } TRX.
order-quote-burn-same = Burning TRX for the same energy would cost the same { $burnTrx } TRX (at { $price } sun per unit): this order saves nothing.
order-quote-burn-extra = Burning TRX for the same energy would cost { $burnTrx } TRX (at { $price } sun per unit): this order costs { $extraTrx } TRX more than burning.
order-quote-second-tap = Above your second-tap threshold of { $thresholdTrx } TRX: Confirm will ask once more.
order-quote-blocked-frozen = ⛔ Spending from this account is frozen, so this quote cannot be confirmed. Tap ▶️ Unfreeze to allow spending again and get the quote anew.
order-quote-blocked-daily = ⛔ This order would pass your daily cap, so it cannot be confirmed: cap { $capTrx } TRX, spent today { $spentTrx } TRX, left { $leftTrx } TRX, this order { $costTrx } TRX. Raise the cap in ⚙️ Limits, then tap 🔄 Check again.
order-quote-blocked-monthly = ⛔ This order would pass your monthly cap, so it cannot be confirmed: cap { $capTrx } TRX, spent this month { $spentTrx } TRX, left { $leftTrx } TRX, this order { $costTrx } TRX. Raise the cap in ⚙️ Limits, then tap 🔄 Check again.
order-quote-blocked-no-wallet = ⛔ It cannot be confirmed before the account has a wallet. Tap 🔄 Check again once the dashboard has created it.
order-quote-blocked-balance-unknown = ⛔ It cannot be confirmed before the balance is read. Tap 🔁 Retry to read it again.
order-quote-unfreeze-button = ▶️ Unfreeze
order-quote-limits-button = ⚙️ Limits
order-quote-check-button = 🔄 Check again
order-quote-still-blocked = Still not possible: the quote says why.
order-receiver-contract = { $address } is a token contract, not a wallet: the service cannot deliver energy to it, so nothing was quoted. Send the address of the wallet that makes the transactions.
order-change-address-button = ✏️ Change address
order-undeliverable-contract = ⛔ Not placed: the service says { $address } is a contract, and a contract cannot receive energy. Nothing was charged.
order-undeliverable-inactive = ⛔ Not placed: the service says { $address } cannot receive energy because it is not an activated account yet. Nothing was charged. An address is activated when it first receives TRX.
order-undeliverable-change = Tap ✏️ Change address to send the same energy to another receiver.
order-undeliverable-batch = The whole batch was refused: send it again without this receiver or with the right address.
order-undeliverable-retry = Once the address is activated, 🔁 Retry sends the same order with the same key, so it can never be charged twice.
order-retry-same = Refused again: nothing has changed yet.

order-batch-ask = Paste the orders, one per line: <code>address amount [duration]</code>. Or send a .csv file. Up to 100 orders per batch.
order-batch-ask-duration = { $count ->
    [one] One line has no duration. For how long should it run?
   *[other] { $count } lines have no duration. For how long should they run?
}
order-batch-empty = I found no order lines. Each line is <code>address amount [duration]</code>.
order-batch-too-many = That is { $count } orders; a batch holds at most { $max }. Split it and send the parts separately.
order-batch-errors = Nothing was sent. { $count ->
    [one] Fix this line
   *[other] Fix these { $count } lines
} and send the whole list again:
order-batch-errors-more = …and { $count } more.
order-batch-error-line = Line { $line }: { $reason }
order-batch-reason-bad-address = “{ $value }” is not a valid TRON address
order-batch-reason-missing-amount = the amount is missing
order-batch-reason-bad-amount = “{ $value }” is not a whole amount
order-batch-reason-amount-out-of-range = { $value } is outside { $min }–{ $max }
order-batch-reason-bad-duration = “{ $value }” is not an available duration
order-batch-reason-too-many-fields = too many fields (expected address, amount, duration)
order-batch-reason-contract = { $value } is a token contract, not a wallet

order-document-not-csv = For a batch, send a .csv file (address, amount, duration per line).
order-document-too-large = The file is over 1 MiB; that is too large.
order-document-unreadable = I could not read that file. Send it again, or paste its contents as text.

order-prepare-pricing-unavailable = Prices are unavailable right now. Try again in a minute.
order-prepare-unknown-duration = That duration is no longer offered. Start again with /order to pick a current one.
order-prepare-not-linked = Link your API key first: /link

## A Confirm whose answer was lost: the same request goes again (the service replays it, charged once) until the outcome is known
order-unknown-checking = ⏳ I sent the order, but the service's answer was lost, so it may have been placed. I am checking by sending the same request again and will update this message. Do not order it again: it cannot be charged twice.
order-unknown-pending = ⏳ I still cannot tell whether the order was placed: the service has not answered yet. I keep checking in the background and will update this message as soon as I know. Do not order it again: it cannot be charged twice.

## A TRON address pasted on its own: the quick-order card
quick-order-title = ⚡ Energy for { $address }
quick-order-title-label = ⚡ Energy for <b>{ $label }</b> { $address }
quick-order-uses = One USDT transfer takes about { $holder } energy to an address that holds USDT, about { $firstTime } to one that never did. Tap an amount and a duration (total in TRX), then Confirm.
quick-order-preset = { $amount } · { $duration } · { $totalTrx } TRX
quick-order-amount = { $amount }k
quick-order-other-amount = ✏️ Other amount
quick-order-save = 💾 Save address
