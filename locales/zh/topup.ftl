## 充值建议与到账提醒

topup-send =
    请向您的充值地址转入至少 <b>{ $sendTrx } TRX</b>（点击即可复制）：
    { $address }
topup-minimum-note = 低于 { $minDepositTrx } TRX 的转账不会自动入账，因此虽然只差 { $shortfallTrx } TRX，也请至少转入 { $minDepositTrx } TRX；多出的部分会留在余额中。
topup-watching = 到账后我会在这里通知您。
topup-no-address = 您的账户还没有充值地址：请先在控制台创建，然后再充值。
topup-button = 💳 充值
topup-covered = 您的余额（{ $availableTrx } TRX）已足够支付（{ $requiredTrx } TRX）。
topup-credited-confirm = 💰 充值已到账：当前余额 { $availableTrx } TRX，足够支付此订单（{ $requiredTrx } TRX）。点击“确认”即可下单。
topup-credited-retry = 💰 充值已到账：当前余额 { $availableTrx } TRX，足够支付此订单（{ $requiredTrx } TRX）。点击“重试”：将以同一密钥发送同一订单，绝不会重复扣费。
topup-credited-broadcast = 💰 充值已到账：当前余额 { $availableTrx } TRX，足够支付此次广播（{ $requiredTrx } TRX）。点击“重试”重新发送；同一笔交易绝不会重复扣费。
topup-balance-waiting = 有一笔待确认的操作还差 { $missingTrx } TRX：请转入至少 <b>{ $sendTrx } TRX</b>（低于 { $minDepositTrx } TRX 的转账不会自动入账）。到账后我会通知您。
topup-balance-minimum = 每笔转账请至少 <b>{ $minDepositTrx } TRX</b>，低于此数的转账不会自动入账。
topup-inline-short = 余额 { $availableTrx } TRX：请先充值至少 { $sendTrx } TRX
topup-inline-button = 💳 充值至少 { $sendTrx } TRX
topup-quote-placed = ✅ 充值后已确认，订单卡片见下方。
topup-on-card = 请向此卡片上的地址转入 TRX，每笔至少 { $minDepositTrx } TRX。
