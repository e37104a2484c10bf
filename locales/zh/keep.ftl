## Keep-charged plans (/keep)

keep =
    .description = 保持地址有能量：自动续租
keep-usage = 用法：<code>/keep 地址 数量 时长 [选项]</code>，例如 <code>/keep TXYZ… 10万 1小时</code>。时长：{ $durations }。选项：<code>until=18:00</code> 或 <code>until=2h</code>（默认：直到您停止），<code>cap=20</code>（此计划每天最多 TRX），<code>hours=09:00-18:00</code>（只在这些时间内续租），<code>tz=Asia/Shanghai</code> 或 <code>tz=+08:00</code>（计算日期和时间所用的时区；默认使用聊天的时区，可在 /settings 中设置）。只发送 /keep 可查看您的计划。
keep-bad-until = “{ $value }”不是结束时间：请使用时间，如 <code>until=18:00</code>，日期和时间，如 <code>until=2026-12-01T18:00</code>，或时长，如 <code>until=2h</code>。
keep-bad-cap = “{ $value }”不是每日上限：请使用 TRX 金额，如 <code>cap=20</code> 或 <code>cap=2.5</code>。
keep-bad-hours = “{ $value }”不是有效时段：请使用 <code>hours=09:00-18:00</code>（跨午夜用 <code>22-06</code>）。
keep-bad-tz = “{ $value }”不是时区：请使用名称，如 <code>tz=Asia/Shanghai</code>，或偏移，如 <code>tz=+08:00</code>。
keep-bad-unknown = 未知选项“{ $value }”。可用选项：<code>until=</code>、<code>cap=</code>、<code>hours=</code>、<code>tz=</code>。
keep-draft-title = <b>🔁 保持有能量</b>
keep-terms-what = 每次 { $amount } 能量，时长 { $duration }，接收地址 { $address }
keep-terms-until-stopped = 一直运行，直到您停止。
keep-terms-until = 运行至 { $at }。
keep-terms-cap = 每天最多 { $capTrx } TRX。
keep-terms-hours = 只在 { $hours }（{ $timeZone }）之间续租。
keep-draft-price = 按今天的价格每个订单 { $slotTrx } TRX，每 { $duration } 一个：全天运行约每天 { $dayTrx } TRX。
keep-draft-cap-all = 按今天的价格每个订单 { $slotTrx } TRX，每 { $duration } 一个：一天的全部 { $slots } 个订单都在 { $capTrx } TRX 的上限之内，每天最多 { $dayTrx } TRX。
keep-draft-cap-some = 按今天的价格每个订单 { $slotTrx } TRX，每 { $duration } 一个。{ $capTrx } TRX 的上限每天只放行 { $slots } 个订单中的 { $orders } 个：每天最多 { $dayTrx } TRX，能量只覆盖一天中的 { $covered }；之后计划等到第二天。
keep-draft-cap-none = 按今天的价格每个订单 { $slotTrx } TRX，超过了 { $capTrx } TRX 的上限：此计划不会下任何订单。请把上限设为至少 { $slotTrx } TRX。
keep-draft-cap-default = 已为您选定每天 { $capTrx } TRX 的上限：{ $why ->
        [limit] 您的每日支出上限
       *[day] 按今天的价格一天的订单
    }。如需其他上限，请发送 <code>/keep { $address } { $amount } { $durationArg } cap=…</code>。
keep-draft-note = 点“开始”会立即下第一个订单；之后每个订单在当前委托结束前不久下单，按当时的价格。
keep-confirm-button = ✅ 开始
keep-cancel-button = 取消
keep-draft-cancelled = 计划未启动。
keep-started = 🔁 计划已启动。
keep-started-app = 🔁 计划已从应用中启动。
keep-edit-app-button = ✏️ 在应用中编辑
keep-refused-frozen = ❄️ 此账户的支出已冻结，计划无法启动或恢复。请先在 /limits 中解冻。
keep-list-empty = 您还没有计划。点“➕ 新计划”，或用 <code>/keep 地址 数量 时长</code> 启动，或点订单下方的“保持有能量”。
keep-list-title = <b>🔁 您的计划</b>
keep-plan-title = <b>{ $n }.</b> 已下订单：{ $slots }
keep-plan-spent = 今日花费 { $todayTrx } TRX，总计 { $totalTrx } TRX。
keep-state-first = ⏳ 正在下第一个订单。
keep-state-active = ▶️ 运行中。
keep-state-delivery = ▶️ 运行中：等待当前订单交付。
keep-state-lead = ▶️ 运行中：下一个订单在 { $at }。
keep-state-hours = 🌙 不在有效时段：下一个订单在 { $at }。
keep-state-cap = 🧢 已达每日上限：下一个订单在 { $at }。
keep-state-paused-user = ⏸ 已暂停。
keep-state-paused-balance = ⏸ 已暂停：余额不足。充值到账后会自动继续。
keep-state-paused-limits = ⏸ 因您的消费限额已暂停。
keep-state-stopped-user = ⏹ 已停止。
keep-state-stopped-ended = ⏹ 已结束：到了结束时间。
keep-state-stopped-undeliverable = ⏹ 已停止：服务无法向此地址交付能量。
keep-state-stopped-refused = ⏹ 已停止：服务拒绝了订单。
keep-state-stopped-frozen = ⏹ 已停止：消费已冻结。
keep-state-stopped-unlinked = ⏹ 已停止：账户已解除连接。
keep-pause-n = ⏸ 暂停 { $n }
keep-resume-n = ▶️ 继续 { $n }
keep-stop-n = ⏹ 停止 { $n }
keep-refresh-button = 🔄 刷新
keep-resume-button = ▶️ 继续
keep-stop-button = ⏹ 停止
keep-done-pause = 已暂停。
keep-done-resume = 已继续。
keep-done-stop = 已停止。
keep-already-stopped = 此计划已经停止。
keep-already-unchanged = 没有需要更改的。
keep-paused-balance = ⏸ { $address } 的计划已暂停：余额不足以支付下一个订单（{ $requiredTrx } TRX）。
keep-paused-balance-resumes = 充值到账后会自动继续。
keep-resumed-balance = ▶️ 充值已到账（余额 { $availableTrx } TRX）：{ $address } 的计划继续运行。
keep-paused-daily_cap = ⏸ { $address } 的计划已暂停：将超过您的每日消费限额。准备好后请点继续。
keep-paused-monthly_cap = ⏸ { $address } 的计划已暂停：将超过您的每月消费限额。准备好后请点继续。
keep-capped = 🧢 { $address } 的计划今天已达上限 { $capTrx } TRX。下一个订单将在 { $at } 下单。
keep-stopped-user = ⏹ { $address } 的计划已停止。
keep-stopped-ended = ⏹ { $address } 的计划已结束：到了结束时间。
keep-stopped-undeliverable = ⏹ { $address } 的计划已停止：服务无法向此地址交付能量（账户未激活或是合约）。代码 { $code }。
keep-stopped-refused = ⏹ { $address } 的计划已停止：服务拒绝了订单（代码 { $code }）。
keep-stopped-frozen = ⏹ { $address } 的计划已停止：消费已冻结。
keep-stopped-unlinked = ⏹ { $address } 的计划已停止：创建它的账户已不再连接。
keep-new-button = ➕ 新计划
keep-one-receiver = 一个计划只为一个地址保持能量：请发送一个地址或点选最近的地址。
keep-ask-options = 需要限制吗？请点击下方按钮选择：可以组合，每次点击都会重新显示计划。点“✏️ 自定义”可输入文字选项。然后点“✅ 完成”；不选任何限制，计划将一直运行直到您停止。
keep-options-none-button = 直到我停止，不设限制
keep-options-done-button = ✅ 完成
keep-options-tonight-button = 🌙 到今晚
keep-options-day-button = ⏱ 持续 24 小时
keep-options-work-button = 🏢 工作时间 09–18
keep-options-cap-button = 🧢 每天 { $capTrx } TRX
keep-options-chosen = • { $label }
keep-options-custom-button = ✏️ 自定义
keep-options-custom = 请以选项发送限制，例如 <code>until=18:00 cap=20 hours=09:00-18:00 tz=Asia/Shanghai</code>：<code>until=</code> 结束时间（<code>18:00</code>、<code>2026-12-01T18:00</code>）或时长（<code>2h</code>），<code>cap=</code> 此计划每天最多 TRX，<code>hours=</code> 续租的时段，<code>tz=</code> 计算日期和时段所用的时区（默认使用聊天的时区）。它们会与按钮选择的限制合并；以输入的为准。
keep-pause-button = ⏸ 暂停
keep-card-title = <b>🔁 计划：保持有能量</b>
keep-card-orders = 已下订单：{ $slots }
keep-card-last = 最近的订单 { $orderId }：{ $status }，{ $at }
keep-day-title = <b>🔁 您的计划（{ $date }）</b>
keep-day-plan = { $address }：{ $orders } 个订单，{ $spentTrx } TRX
keep-day-total = 合计：{ $orders } 个订单，{ $spentTrx } TRX。
