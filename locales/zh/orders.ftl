## History feature: /orders, /track

orders =
    .description = 您的订单和广播
track =
    .description = 订单或广播的实时状态

orders-empty = 还没有订单或广播。可以从 /order 或 /broadcast 开始。
orders-what-usdt = { $amount } USDT
orders-what-trx = { $amount } TRX
orders-what-contract = 合约调用
orders-what-tron = TRON 交易
orders-newer-button = ◀ 较新
orders-older-button = 较早 ▶

track-usage = 请发送 <code>/track id</code>，附上订单或广播的 24 位 ID。
track-not-found = 在您的账户中未找到 { $id }。
track-txid-unknown = { $txId } 是交易 ID，本聊天的广播中没有包含它的。<code>/track</code> 需要订单或广播的 24 位 ID；在 /orders 中点按一行即可打开其卡片。
track-refresh-button = 🔄 刷新
track-refresh-failed = 暂时无法读取。
track-unchanged = 没有变化。
