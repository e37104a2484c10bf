## Tracking: status cards and notifications

## 用中文表示的状态（英文界面显示 API 原词）；机器人尚不认识的状态以代码形式显示（$code）。
tracking-status = { $status ->
    [pending] 待处理
    [matching] 匹配中
    [executing] 执行中
    [fulfilled] 已完成
    [pending_energy] 准备能量
    [ready] 待发送
    [broadcasting] 广播中
    [confirming] 确认中
    [confirmed] 已确认
    [failed] 失败
    [expired] 已过期
   *[other] { $code }
}
## A plain explanation next to the API word; an unknown status is still under way.
tracking-status-meaning = { $status ->
    [pending] 排队中
    [matching] 正在匹配能量提供方
    [executing] 正在委托能量
    [fulfilled] 能量已到账
    [pending_energy] 正在准备能量
    [ready] 等待发送
    [broadcasting] 正在发送到网络
    [confirming] 已发送，等待确认
    [confirmed] 已上链
    [failed] 未送达，已退款
    [expired] 未及时确认，已退款
   *[other] 服务返回了我不认识的状态，仍在处理中
}
tracking-status-shown = { $status }（{ $meaning }）
tracking-order-card = <b>订单</b> { $orderId }
    状态：{ $status }
    接收地址：{ $receiver }
    能量：{ $amount }，时长 { $duration }
    已扣费：{ $costTrx } TRX
tracking-order-progress = 已委托：{ $delegated } / { $amount }
tracking-broadcast-card = <b>广播</b> { $broadcastId }
    状态：{ $status }
    { $what }
    交易 ID：{ $txId }
    发送方：{ $from }
    接收方：{ $to }
    费用：{ $feeTrx } TRX
tracking-broadcast-usdt = USDT 转账：<b>{ $amount } USDT</b>
tracking-broadcast-usdt-unknown = USDT 转账
tracking-broadcast-trx = TRX 转账：<b>{ $amount } TRX</b>
tracking-broadcast-contract = 其他合约调用（{ $contractType }）
tracking-broadcast-contract-to = 其他合约调用（{ $contractType }），合约 { $contract }
tracking-broadcast-tron = TRON 交易（TRX 转账或其他合约调用）
tracking-broadcast-txid = 链上 ID（与已签名交易 ID 不同）：{ $broadcastTxid }
tracking-broadcast-confirming-note = 已发送到网络，正在等待确认，结果尚未最终确定。
tracking-time-left = { $minutes } 分 { $seconds } 秒
tracking-seen = 您的账户有新记录：
tracking-order-fulfilled = ✅ 订单 { $orderId } <b>已完成</b>：已向 { $receiver } 委托 { $amount } 能量，时长 { $duration }。
tracking-rent-again-button = 🔁 再租一次
tracking-broadcast-confirmed = ✅ 广播 { $broadcastId } 已在链上<b>确认</b>。
    交易 ID：{ $txId }
tracking-broadcast-failed = ❌ 广播 { $broadcastId } <b>失败</b>。
    { $reason }
    退款：{ $refundTrx } TRX 已退回余额。
    在交易 { $txId } 过期前（剩余 { $timeLeft }），可用 /broadcast 再次发送同一笔已签名交易；过期后请重新签名。
tracking-broadcast-failed-resign = ❌ 广播 { $broadcastId } <b>失败</b>。
    { $reason }
    退款：{ $refundTrx } TRX 已退回余额。
    交易 { $txId } 即将过期，无法再次发送：请重新签名一笔有效期约 600 秒的交易并使用 /broadcast。
tracking-broadcast-expired = ⌛ 广播 { $broadcastId } <b>已过期</b>。
    { $reason }
    退款：{ $refundTrx } TRX 已退回余额。
    交易 { $txId } 已不能再用：请重新签名一笔有效期约 600 秒的交易，并通过 /broadcast 发送。
tracking-gave-up = 我已停止跟踪{ $kind ->
    [order] 订单
   *[other] 广播
} { $id }（最后状态：{ $status }）。随时可以用 { $command } 查看。
tracking-not-found = ⚠️ 服务已连续 { $minutes } 分钟表示{ $kind ->
    [order] 订单
   *[other] 广播
} { $id } 不存在，但本机器人曾在您的账户中看到它。我已停止跟踪。点击“刷新”再查一次，或在控制台中查找；随时可以使用 { $command }。如果仍然找不到，请带上此编号联系客服。
## 广播未成功的原因：已知原因用一句话说明，其他原因按服务原词以代码显示（$code）。
tracking-reason = { $reason ->
    [delivery_failed] 原因：服务未能将交易发送到网络。
    [expired_before_confirmation] 原因：交易在网络确认之前已过期。
   *[other] 服务给出了一个我不认识的原因：{ $code }
}
tracking-reason-none = 服务未说明原因。

## 重启后处理的确认
recovery-order-refused = ⚠️ 您在机器人重启前确认的订单未能下单，未扣任何费用：
    { $reason }
recovery-broadcast-refused = ⚠️ 您在机器人重启前确认的交易 { $txId } 未被接受，未扣任何费用：
    { $reason }
recovery-broadcast-expired-unknown = ⚠️ 无法确认您在机器人重启前确认的交易 { $txId } 是否已被接受：它在此期间已过期，无法再次发送。如果它已被接受，服务报告结果时会发到本聊天；也可以在区块浏览器中按交易 ID 查询。
account-placed-in-chat = ↪ 由此账户的另一个聊天下单：{ $chat }。
tracking-broadcast-paid-no-trx = 发送方没有为能量支付 TRX：由您的余额支付。
