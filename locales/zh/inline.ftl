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
inline-range-hint = 每笔订单 { $amountMin } 至 { $amountMax } 能量
inline-unknown-tier-hint = 没有“{ $duration }”这个时长：可选 { $labels }
