## Tracking: status cards and notifications

## The API word as the API spells it (the dashboard and the API docs show it); a status the bot does not know yet is shown as a code span ($code).
tracking-status = { $status ->
    [pending] pending
    [matching] matching
    [executing] executing
    [fulfilled] fulfilled
    [pending_energy] pending_energy
    [ready] ready
    [broadcasting] broadcasting
    [confirming] confirming
    [confirmed] confirmed
    [failed] failed
    [expired] expired
   *[other] { $code }
}
## A plain explanation next to the API word; an unknown status is still under way.
tracking-status-meaning = { $status ->
    [pending] waiting to start
    [matching] finding energy providers
    [executing] delegating energy
    [fulfilled] energy delivered
    [pending_energy] provisioning energy
    [ready] queued for sending
    [broadcasting] being sent to the network
    [confirming] sent, waiting for confirmation
    [confirmed] on chain
    [failed] not delivered, refunded
    [expired] not confirmed in time, refunded
   *[other] a status new to me, still in progress
}
tracking-status-shown = { $status } ({ $meaning })
tracking-order-card = <b>Order</b> { $orderId }
    Status: { $status }
    Receiver: { $receiver }
    Energy: { $amount } for { $duration }
    Charged: { $costTrx } TRX
tracking-order-progress = Delegated so far: { $delegated } of { $amount }
tracking-broadcast-card = <b>Broadcast</b> { $broadcastId }
    Status: { $status }
    { $what }
    Transaction id: { $txId }
    From: { $from }
    To: { $to }
    Fee: { $feeTrx } TRX
tracking-broadcast-usdt = USDT transfer: <b>{ $amount } USDT</b>
tracking-broadcast-usdt-unknown = USDT transfer
tracking-broadcast-trx = TRX transfer: <b>{ $amount } TRX</b>
tracking-broadcast-contract = Other contract call ({ $contractType })
tracking-broadcast-contract-to = Other contract call ({ $contractType }) to { $contract }
tracking-broadcast-tron = TRON transaction (a TRX transfer or another contract call)
tracking-broadcast-txid = On-chain id (differs from the signed transaction id): { $broadcastTxid }
tracking-broadcast-confirming-note = Sent to the network and waiting for confirmation. This is not final yet.
tracking-time-left = { $minutes } min { $seconds } s
tracking-seen = New on your account:
tracking-order-fulfilled = ✅ Order { $orderId } is <b>fulfilled</b>: { $amount } energy delegated to { $receiver } for { $duration }.
tracking-rent-again-button = 🔁 Rent again
tracking-broadcast-confirmed = ✅ Broadcast { $broadcastId } is <b>confirmed</b> on chain.
    Transaction id: { $txId }
tracking-broadcast-failed = ❌ Broadcast { $broadcastId } <b>failed</b>.
    { $reason }
    Refund: { $refundTrx } TRX is back on your balance.
    The same signed transaction { $txId } can be sent again with /broadcast while it has not expired ({ $timeLeft } left); after that, sign a new one.
tracking-broadcast-failed-resign = ❌ Broadcast { $broadcastId } <b>failed</b>.
    { $reason }
    Refund: { $refundTrx } TRX is back on your balance.
    Transaction { $txId } is too close to its expiration to send again: sign a new one with about 600 seconds of expiration and use /broadcast.
tracking-broadcast-expired = ⌛ Broadcast { $broadcastId } <b>expired</b>.
    { $reason }
    Refund: { $refundTrx } TRX is back on your balance.
    Transaction { $txId } can no longer be used: sign a new one with about 600 seconds of expiration and send it with /broadcast.
tracking-gave-up = I have stopped watching { $kind ->
    [order] order
   *[other] broadcast
} { $id } (last status: { $status }). Check it any time with { $command }.
tracking-not-found = ⚠️ For { $minutes } min the service has answered that { $kind ->
    [order] order
   *[other] broadcast
} { $id } does not exist, though this bot saw it on your account. I have stopped watching it. Tap Refresh to look once more, or find it on the dashboard; { $command } works any time. If it stays missing, contact support with this id.
## Why a broadcast did not land: a reason the bot knows gets a sentence; any other is the service's own word ($code, a code span).
tracking-reason = { $reason ->
    [delivery_failed] Reason: the service could not get the transaction into the network.
    [expired_before_confirmation] Reason: the transaction expired before the network confirmed it.
   *[other] Reason given by the service: { $code }
}
tracking-reason-none = The service gave no reason.

## Confirmations resolved after a restart
recovery-order-refused = ⚠️ The order you confirmed before the bot restarted was not placed, and nothing was charged for it:
    { $reason }
recovery-broadcast-refused = ⚠️ Transaction { $txId }, which you confirmed before the bot restarted, was not accepted, and nothing was charged for it:
    { $reason }
recovery-broadcast-expired-unknown = ⚠️ I could not learn whether transaction { $txId }, which you confirmed before the bot restarted, was accepted: it has expired since, so it cannot be sent again. If it was accepted, its result reaches this chat when the service reports it; you can also look the transaction id up on a block explorer.
account-placed-in-chat = ↪ Placed from another chat of this account: { $chat }.
tracking-broadcast-paid-no-trx = The sender paid no TRX for energy: your balance covered it.
