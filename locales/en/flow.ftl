# A command, or a button that opens another flow, sent while a flow waits: the flow ends, and this comes before the new answer.
flow-left = { $flow ->
    [order] The order you were placing was left.
    [broadcast] The broadcast you were preparing was left; nothing was sent.
    [link] Linking your API key was left; nothing was stored.
    [webhook-secret] Setting the webhook secret was left; nothing was changed.
    [keep] The plan you were setting up was left; nothing was started.
   *[other] The step you were in was left.
}

# Anything a step cannot take (a photo, a sticker, a voice message, a location, an edit…).
flow-waiting = I'm waiting for { $what ->
    [receiver] the receiver's TRON address (or several lines, or a .csv file)
    [amount] the amount of energy
    [duration] the rental duration (tap a button or type it)
    [batch] the orders, one per line, or a .csv file
    [broadcast] the signed transaction as JSON text or a .json file
   *[other] your answer
}; send it as text, or /cancel.

# /cancel or a Cancel button also voided quotes and summaries still waiting for Confirm.
flow-cancelled-offers = Cancelled. { $count ->
    [one] The quote or summary still on screen can no longer be confirmed; nothing was charged.
   *[other] The { $count } quotes or summaries still on screen can no longer be confirmed; nothing was charged.
}

# Confirm pressed on a quote or summary that was cancelled (its own Cancel, or /cancel): a short callback answer.
flow-offer-cancelled = This was cancelled, so nothing was charged. Start again to place it.
