# A command, or a button that opens another flow, sent while a flow waits: the flow ends, and this comes before the new answer.
flow-left = { $flow ->
    [order] 您正在进行的下单已中止。
    [broadcast] 您正在准备的广播已中止；没有发送任何内容。
    [link] API 密钥绑定已中止；没有保存任何内容。
    [webhook-secret] Webhook 密钥设置已中止；没有做任何更改。
    [keep] 您正在设置的计划已中止；没有启动任何内容。
   *[other] 当前步骤已中止。
}

# Anything a step cannot take (a photo, a sticker, a voice message, a location, an edit…).
flow-waiting = 我正在等待{ $what ->
    [receiver] 接收方的 TRON 地址（或多行，或 .csv 文件）
    [amount] 能量数量
    [duration] 租用时长（点击按钮或直接输入）
    [batch] 订单（每行一个）或 .csv 文件
    [broadcast] 已签名的交易（JSON 文本或 .json 文件）
   *[other] 您的回答
}；请以文本发送，或发送 /cancel。

# /cancel or a Cancel button also voided quotes and summaries still waiting for Confirm.
flow-cancelled-offers = 已取消。{ $count ->
    [one] 屏幕上仍在等待确认的报价或摘要已无法再确认；未扣除任何费用。
   *[other] 屏幕上仍在等待确认的 { $count } 个报价或摘要已无法再确认；未扣除任何费用。
}

# Confirm pressed on a quote or summary that was cancelled (its own Cancel, or /cancel): a short callback answer.
flow-offer-cancelled = 此项已取消，未扣除任何费用。如需下单，请重新开始。
