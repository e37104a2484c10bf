## Top-up advice and the balance watch

topup-send =
    Send at least <b>{ $sendTrx } TRX</b> to your deposit address (tap to copy):
    { $address }
topup-minimum-note = Transfers under { $minDepositTrx } TRX are not credited automatically, so send at least { $minDepositTrx } TRX even though only { $shortfallTrx } TRX are missing; the rest stays on your balance.
topup-watching = I will tell you here as soon as it arrives.
topup-no-address = Your account has no deposit address yet: create it in the dashboard, then top up.
topup-button = 💳 Top up
topup-covered = Your balance ({ $availableTrx } TRX) already covers this ({ $requiredTrx } TRX).
topup-credited-confirm = 💰 Top-up credited: your balance is { $availableTrx } TRX, enough for this order ({ $requiredTrx } TRX). Tap Confirm to place it.
topup-credited-retry = 💰 Top-up credited: your balance is { $availableTrx } TRX, enough for this order ({ $requiredTrx } TRX). Tap Retry: it sends the same order with the same key, so you are never charged twice.
topup-credited-broadcast = 💰 Top-up credited: your balance is { $availableTrx } TRX, enough for this broadcast ({ $requiredTrx } TRX). Tap Retry to send it again; a transaction is never charged twice.
topup-balance-waiting = A waiting confirmation needs { $missingTrx } TRX more: send at least <b>{ $sendTrx } TRX</b> (deposits below { $minDepositTrx } TRX are not credited automatically). I will tell you when it arrives.
topup-balance-minimum = Send at least <b>{ $minDepositTrx } TRX</b> per transfer: smaller deposits are not credited automatically.
topup-inline-short = Your balance is { $availableTrx } TRX: top up at least { $sendTrx } TRX first
topup-inline-button = 💳 Top up at least { $sendTrx } TRX
topup-quote-placed = ✅ Confirmed after the top-up: the order's card is below.
topup-on-card = Send TRX to the address on this card, at least { $minDepositTrx } TRX per transfer.
