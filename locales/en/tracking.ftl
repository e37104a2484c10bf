## Tracking: status cards and notifications

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
   *[other] { $status }
}
tracking-order-card = <b>Order</b> { $orderId }
    Status: { $status }
    Receiver: { $receiver }
    Energy: { $amount } for { $duration }
    Charged: { $costTrx } TRX
tracking-order-progress = Delegated so far: { $delegated } of { $amount }
tracking-broadcast-card = <b>Broadcast</b> { $broadcastId }
    Status: { $status }
    { $what }
    Transaction: { $txId }
    From: { $from }
    To: { $to }
    Fee: { $feeTrx } TRX
tracking-broadcast-usdt = USDT transfer of { $amount } USDT
tracking-broadcast-other = Transaction of kind { $kind }
tracking-broadcast-txid = Network transaction: { $broadcastTxid }
tracking-broadcast-confirming-note = Sent to the network and waiting for confirmation. This is not final yet.
tracking-time-left = { $minutes } min { $seconds } s
tracking-seen = New on your account:
tracking-order-fulfilled = ✅ Order { $orderId } is <b>fulfilled</b>: { $amount } energy delegated to { $receiver } for { $duration }.
tracking-rent-again-button = 🔁 Rent again
tracking-broadcast-confirmed = ✅ Broadcast { $broadcastId } is <b>confirmed</b> on chain.
    Transaction: { $txId }
    Network transaction: { $broadcastTxid }
tracking-broadcast-failed = ❌ Broadcast { $broadcastId } <b>failed</b>: { $reason }.
    Refund: { $refundTrx } TRX is back on your balance.
    The same signed transaction { $txId } can be sent again with /broadcast while it has not expired ({ $timeLeft } left); after that, sign a new one.
tracking-broadcast-failed-resign = ❌ Broadcast { $broadcastId } <b>failed</b>: { $reason }.
    Refund: { $refundTrx } TRX is back on your balance.
    Transaction { $txId } is too close to its expiration to send again: sign a new one with about 600 seconds of expiration and use /broadcast.
tracking-broadcast-expired = ⌛ Broadcast { $broadcastId } <b>expired</b>: { $reason }.
    Refund: { $refundTrx } TRX is back on your balance.
    Transaction { $txId } can no longer be used: sign a new one with about 600 seconds of expiration and send it with /broadcast.
tracking-gave-up = I have stopped watching { $kind ->
    [order] order
   *[other] broadcast
} { $id } (last status: { $status }). Check it any time with { $command }.
