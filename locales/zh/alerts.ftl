## /alerts 与余额监视

alerts =
    .description = 余额提醒：充值、余额不足、非机器人扣款
alerts-deposit = 💰 充值已到账：+{ $amountTrx } TRX（当前余额 { $balanceTrx } TRX）。
alerts-deposit-line = 充值：+{ $amountTrx } TRX。
alerts-low = ⚠️ 余额不足：{ $balanceTrx } TRX，低于您设置的提醒阈值 { $thresholdTrx } TRX。请通过 /balance 充值（每笔至少 10 TRX）。可在 /alerts 中修改阈值。
alerts-foreign = ⚠️ 余额减少了 { $amountTrx } TRX，这笔钱不是机器人花的（其他密钥或控制台？）。当前余额 { $balanceTrx } TRX。如果不是您本人操作，请在控制台中撤销该密钥。
alerts-title =
    <b>余额提醒</b>

    此聊天已连接期间，我会不时读取余额并主动通知您。点击按钮即可切换。
    余额不足阈值：{ $threshold }。
    点击下方金额设置阈值（✏️ 输入其他金额，🔕 关闭提醒），或输入 { $command }（精确的 TRX 数额）；恢复默认：{ $reset }。
alerts-threshold-default = 默认（低于 { $minTrx } TRX，或低于下一次自动续租的费用，取较高者）
alerts-threshold-own = { $thresholdTrx } TRX
alerts-threshold-off = 关（不提醒余额不足）
alerts-threshold-chosen = • { $label }
alerts-threshold-default-button = 默认
alerts-threshold-button = { $thresholdTrx } TRX
alerts-threshold-custom-button = ✏️ 其他金额
alerts-threshold-custom-own = ✏️ { $thresholdTrx } TRX
alerts-low-off-button = 🔕 关闭
alerts-threshold-ask = 请发送余额不足阈值（TRX），例如 <code>25.5</code>，或发送 <code>默认</code> 恢复默认阈值。（也可用命令：{ $command }；恢复默认：{ $reset }。）
alerts-threshold-ask-text = 请以文字发送阈值，例如 <code>25.5</code>，或发送 /cancel。
alerts-threshold-toast = 余额低于 { $thresholdTrx } TRX 时提醒。
alerts-threshold-toast-default = 按默认阈值提醒余额不足。
alerts-usage = 使用 /alerts 查看并切换提醒，使用 { $command } 以 TRX 设置余额不足阈值，使用 { $reset } 恢复默认。
## The words and example amount of `/alerts threshold …` shown to the chat (any language's words are accepted).
alerts-word-threshold = 阈值
alerts-word-default = 默认
alerts-example-amount = 25.5
alerts-threshold-set = 余额不足阈值已设置：余额低于 { $thresholdTrx } TRX 时通知您一次，回升到阈值以上后才会再次通知。
alerts-threshold-reset = 余额不足阈值已恢复默认。
alerts-threshold-invalid-format = { $value } 不是 TRX 金额。请用小数点书写，最多 6 位小数，例如 <code>25.5</code>。
alerts-threshold-invalid-negative = 阈值不能为负数：{ $value }。
alerts-threshold-invalid-too_large = { $value } 超过了最大阈值 { $maxTrx } TRX。
alerts-deposits-on = ✅ 充值通知：开
alerts-deposits-off = 🔕 充值通知：关
alerts-foreign-on = ✅ 非机器人扣款：开
alerts-foreign-off = 🔕 非机器人扣款：关
alerts-deposits-enabled = 充值通知已开启。
alerts-deposits-disabled = 充值通知已关闭。
alerts-low-enabled = 余额不足提醒已开启。
alerts-low-disabled = 余额不足提醒已关闭。
alerts-foreign-enabled = 非机器人扣款报告已开启。
alerts-foreign-disabled = 非机器人扣款报告已关闭。
