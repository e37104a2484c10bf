## Expiry: when a delegation ends, reminders before it does, Resend after a failed broadcast (docs/expiry.md)
## Times are in the chat's zone and name it: $time is "14:05 UTC+1" (docs/expiry.md).

expiry-in-seconds = in under a minute
expiry-in-minutes = in { $hours ->
    [0] { $minutes } min
   *[other] { $minutes ->
        [0] { $hours } h
       *[other] { $hours } h { $minutes } min
    }
}
expiry-delegation-until = ⏳ Energy delegated until <b>{ $time }</b> (ends { $remaining }).
expiry-delegation-ended = ⌛ The delegation ended at { $time }.
expiry-broadcast-resendable = The same signed transaction can be sent again with Resend until { $time }.
expiry-broadcast-resign = A freshly signed transaction is needed (about 600 seconds of expiration), sent with /broadcast.

expiry-remind-on-button = ⏰ Remind me
expiry-remind-off-button = 🔕 No reminder
expiry-remind-set = I will remind you at { $time }.
expiry-remind-cancelled = No reminder for this order.
expiry-remind-too-late = This delegation ends too soon for a reminder.
expiry-reminder = ⏰ Energy for { $receiver } ends at <b>{ $time }</b> ({ $remaining }).
    Order { $orderId }: { $amount } energy for { $duration }.
    Extend places the same order again after a fresh quote; Keep charged renews it for you.
expiry-extend-button = 🔁 Extend
expiry-keep-button = ♻️ Keep charged

expiry-resend-button = 📤 Resend
expiry-resent = 📤 Sent again as broadcast { $broadcastId }.
    Status: { $status }
    Transaction id: { $txId }
expiry-resend-already = This transaction was already sent again: broadcast { $broadcastId }.
expiry-resend-not-failed = Nothing to resend: the broadcast is { $status }.
expiry-resend-needs-resign = This transaction is too close to its expiration (under 75 seconds left) or no longer kept by the bot: sign a new one with about 600 seconds of expiration and send it with /broadcast.

expiry-settings-on = ⏰ Expiry reminders: on
expiry-settings-off = 🔕 Expiry reminders: off
expiry-settings-enabled = I will remind you a few minutes before each order's energy runs out.
expiry-settings-disabled = Expiry reminders are off (a card's ⏰ Remind me still sets one).
