## 内联报价

inline-quote-title = { $label }：{ $amount } 能量 { $totalTrx } TRX
inline-quote-description = 每单位 { $unitPriceSun } sun，租用 { $duration }
inline-quote-message =
    <b>能量报价</b>
    { $amount } 能量，租用 { $tier }：<b>{ $totalTrx } TRX</b>
    单价：{ $unitPriceSun } sun。价格随市场变动。
inline-order-button = 在机器人中下单
inline-connect-button = 绑定账户
inline-unparsed-title = 请输入数量，例如 10万 1小时
inline-unparsed-description = { $amountMin } 至 { $amountMax } 能量，可在后面加上时长。
inline-unparsed-message = 在机器人名称后输入 { $amountMin } 至 { $amountMax } 之间的能量数量，可再加上时长，例如 <code>10万 1小时</code> 或 <code>65,000 15分钟</code>。
inline-range-title = { $amount } 能量超出允许范围
inline-range-description = 每笔订单允许 { $amountMin } 至 { $amountMax } 能量。
inline-range-message = 无法订购 { $amount } 能量：每笔订单须在 { $amountMin } 至 { $amountMax } 能量之间。
inline-unknown-tier-title = 没有“{ $duration }”这个租用时长
inline-unknown-tier-description = 可选时长：{ $labels }
inline-unknown-tier-message = 没有 <code>{ $duration }</code> 这个租用时长。可选：{ $labels }，例如 <code>10万 { $example }</code>。
