## History feature: /orders, /track

orders =
    .description = Your orders and broadcasts
track =
    .description = Live status of an order or broadcast

orders-empty = No orders or broadcasts yet. Start with /order or /broadcast.
orders-what-usdt = { $amount } USDT
orders-what-trx = { $amount } TRX
orders-what-contract = contract call
orders-what-tron = TRON transaction
orders-newer-button = ◀ Newer
orders-older-button = Older ▶

track-usage = Send <code>/track id</code> with the 24-character id of an order or a broadcast.
track-not-found = { $id } was not found for your account.
track-txid-unknown = { $txId } is a transaction id, and no broadcast of this chat carries it. <code>/track</code> takes the 24-character id of an order or a broadcast; tap a row in /orders for its card.
track-refresh-button = 🔄 Refresh
track-refresh-failed = Could not read it right now.
track-unchanged = Nothing has changed.
