## 委托何时结束、结束前的提醒、广播失败后重新发送 (docs/expiry.md)
## 时间按聊天的时区显示并注明时区：$time 形如“14:05 UTC+8”（docs/expiry.md）。

expiry-in-seconds = 不到一分钟后
expiry-in-minutes = { $hours ->
    [0] { $minutes } 分钟后
   *[other] { $minutes ->
        [0] { $hours } 小时后
       *[other] { $hours } 小时 { $minutes } 分钟后
    }
}
expiry-delegation-until = ⏳ 能量委托至 <b>{ $time }</b>（{ $remaining }结束）。
expiry-delegation-ended = ⌛ 委托已于 { $time } 结束。
expiry-broadcast-resendable = 在 { $time } 之前，可用“重新发送”再次发送同一笔已签名交易。
expiry-broadcast-resign = 需要重新签名的交易（有效期约 600 秒），请用 /broadcast 发送。

expiry-remind-on-button = ⏰ 提醒我
expiry-remind-off-button = 🔕 不提醒
expiry-remind-set = 我会在 { $time } 提醒您。
expiry-remind-cancelled = 此订单不再提醒。
expiry-remind-too-late = 此委托即将结束，来不及提醒。
expiry-reminder = ⏰ { $receiver } 的能量将于 <b>{ $time }</b> 结束（{ $remaining }）。
    订单 { $orderId }：{ $amount } 能量，时长 { $duration }。
    “续租”按新报价再下同一订单；“保持充能”由机器人为您自动续租。
expiry-extend-button = 🔁 续租
expiry-keep-button = ♻️ 保持充能

expiry-resend-button = 📤 重新发送
expiry-resent = 📤 已重新发送，广播 { $broadcastId }。
    状态：{ $status }
    交易 ID：{ $txId }
expiry-resend-already = 此交易已重新发送：广播 { $broadcastId }。
expiry-resend-not-failed = 无需重新发送：广播状态为 { $status }。
expiry-resend-needs-resign = 此交易距过期不足 75 秒，或机器人已不再保存它：请重新签名一笔有效期约 600 秒的交易，并用 /broadcast 发送。

expiry-settings-on = ⏰ 到期提醒：开
expiry-settings-off = 🔕 到期提醒：关
expiry-settings-enabled = 每个订单的能量结束前几分钟我会提醒您。
expiry-settings-disabled = 到期提醒已关闭（订单卡片上的 ⏰ 提醒我 仍可单独设置）。
