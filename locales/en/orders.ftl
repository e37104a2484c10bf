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
track-pick = Which one? Tap one of your latest, or send <code>/track id</code> with the 24-character id of an order or a broadcast.
track-recent-order = Order { $id } · { $status }
track-recent-broadcast = Broadcast { $id } · { $status }
track-not-found = { $id } was not found for your account.
track-txid-unknown = { $txId } is a transaction id, and no broadcast of this chat carries it. <code>/track</code> takes the 24-character id of an order or a broadcast; tap a row in /orders for its card.
track-refresh-button = 🔄 Refresh
track-refresh-failed = Could not read it right now.
track-unchanged = Nothing has changed.
orders-what-to = { $what } → { $receiver }
orders-what-trc20 = { $amount } token units of { $contract }
orders-what-trc10 = { $amount } of token { $asset }
orders-what-stake = stake { $amount } TRX for { $resource ->
    [ENERGY] energy
    [TRON_POWER] TRON Power
   *[BANDWIDTH] bandwidth
}
orders-what-unstake = unstake { $amount } TRX
orders-what-unstake-all = unstake all
orders-what-delegate = lend { $resource ->
    [ENERGY] energy
   *[BANDWIDTH] bandwidth
} of { $amount } TRX
orders-what-undelegate = take back { $resource ->
    [ENERGY] energy
   *[BANDWIDTH] bandwidth
} of { $amount } TRX
orders-what-withdraw-unstaked = withdraw unstaked TRX
orders-what-withdraw-rewards = withdraw rewards
orders-what-cancel-unstake = cancel unstaking
orders-what-activate = activate an account
orders-what-rename = rename the account
orders-what-votes = votes: { $total } for { $count } { $count ->
    [one] candidate
   *[other] candidates
}
orders-what-clear-abi = delete the ABI of { $contract }
orders-what-contract-settings = settings of contract { $contract }
orders-what-contract-at = contract call to { $contract }
