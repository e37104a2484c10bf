## /limits 和 /freeze：支出限额

limits =
    .description = 支出限额与冻结
freeze =
    .description = 立即冻结此账户的所有支出
limits-title = <b>此账户的支出限额</b>（在所有绑定该账户的聊天中相同）
limits-daily = 每日上限：{ $cap }（今日已花费：{ $spentTrx } TRX）
limits-monthly = 每月上限：{ $cap }（本月已花费：{ $spentTrx } TRX）
limits-cap-value = { $capTrx } TRX，剩余 { $leftTrx } TRX
limits-none = 无
limits-threshold = 超过此金额需再次确认：{ $threshold }
limits-threshold-value = { $thresholdTrx } TRX
limits-zone = 日和月按聊天的时区 { $zone } 计算（/orders 和对账单也使用它；也可在 /settings 中更改）。
limits-active = 在这些限额内允许支出。
limits-frozen = ❄️ <b>已冻结</b>：在您解冻之前，此账户的任何聊天都不会通过我产生支出（订单、批量、广播、续租）。
limits-scope = 上限统计此账户通过我在任何已绑定聊天中的所有支出：订单、批量、广播（已退款的除外）和续租。
limits-daily-button = 每日上限
limits-monthly-button = 每月上限
limits-threshold-button = 再次确认门槛
limits-zone-button = 时区
limits-freeze-button = ❄️ 冻结
limits-unfreeze-button = ▶️ 解冻
limits-clear-button = 不限
limits-no-limit-chosen = • 不限
limits-custom-button = ✏️ 自定义
limits-preset-button = { $amountTrx } TRX
limits-preset-chosen = • { $label }
limits-pick-daily = <b>每日上限</b>：点击一个金额，点“✏️ 自定义”输入其他金额，或选择“不限”。
limits-pick-monthly = <b>每月上限</b>：点击一个金额，点“✏️ 自定义”输入其他金额，或选择“不限”。
limits-pick-threshold = <b>二次确认阈值</b>：超过此金额的确认需要再点一次。点击一个金额，点“✏️ 自定义”输入其他金额，或选择“不限”。
limits-ask-daily = 请发送每日上限（TRX），例如 <code>50</code> 或 <code>12.5</code>。“不限”在卡片的选项中。
limits-ask-monthly = 请发送每月上限（TRX），例如 <code>500</code> 或 <code>120.75</code>。“不限”在卡片的选项中。
limits-ask-threshold = 请发送金额（TRX），超过该金额的确认需要再点一次，例如 <code>20</code>。“不限”在卡片的选项中。
limits-ask-zone = 请发送您的时区：城市（<code>北京</code>、<code>上海</code>）、UTC 偏移（<code>UTC+8</code>）或 IANA 名称（<code>Asia/Shanghai</code>）。
limits-ask-text = 请以文字发送金额，或 /cancel。
limits-bad-amount = “{ $value }”不是 TRX 金额。请使用数字和小数点，最多 6 位小数，例如 <code>50</code> 或 <code>12.5</code>。
limits-not-positive = 金额必须大于 0 TRX。要取消限额，请点击卡片上的“不限”。
limits-bad-zone = “{ $value }”不是已知的时区。请发送城市，例如 <code>香港</code>；偏移，例如 <code>UTC+8</code>；或 IANA 名称，例如 <code>Asia/Shanghai</code>。
limits-saved = ✅ 已保存。
limits-saved-above = ✅ 已保存。上方卡片已显示最新限额。
limits-cleared = ✅ 已取消限额。
limits-frozen-done = ❄️ 已冻结。在您于 /limits 中点击“解冻”之前，此账户的任何聊天都不会产生支出。保持能量的计划已停止。
limits-unfrozen-done = ▶️ 已解冻。在限额内可以再次支出。
limits-refused-frozen = ⛔ 未发送：此账户的支出已冻结。未扣任何费用。点下方“▶️ 解冻”恢复支出。
limits-refused-daily =
    ⛔ 未发送：这将超过您的每日上限。未扣任何费用。
    上限：{ $capTrx } TRX · 今日已花费：{ $spentTrx } TRX · 剩余：{ $leftTrx } TRX
    本次费用：{ $costTrx } TRX
limits-refused-monthly =
    ⛔ 未发送：这将超过您的每月上限。未扣任何费用。
    上限：{ $capTrx } TRX · 本月已花费：{ $spentTrx } TRX · 剩余：{ $leftTrx } TRX
    本次费用：{ $costTrx } TRX
limits-refused-hint = 用下方“⚙️ 限额”修改上限后，再点一次“确认”。
limits-confirm-again-button = ✅ 再次确认：{ $costTrx } TRX
limits-confirm-again-note = 超过再次确认门槛：请再点一次以确认。
