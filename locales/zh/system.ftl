## /system

system-title = <b>服务状态</b>（截至 { $updatedAt }）
system-pools = 能量池：{ $poolCount } 个中有 { $activeCount } 个活跃，{ $inactiveCount } 个未启用。
system-energy = 当前可立即撮合的能量：<b>{ $matchable }</b>。已为进行中订单预留：{ $reserved }。总可用量：{ $available }。
system-provider =
    <b>致能量出售方</b>
    如需通过本服务出售能量，请将 { $permissions } 的活跃权限授予 { $address }，然后登录控制台，在 { $registerPath } 完成注册。
system-provider-terms = 默认条款：每 { $paymentHours } 小时结算一次（可在 { $paymentHoursMin } 至 { $paymentHoursMax } 小时之间选择），最低价格 { $minPriceSun } sun，收益分成 { $profitSharePercent }%，最低委托 { $minDelegateAmount } 能量，保留缓冲 { $maintainBuffer }，租用时长 { $minDuration } 至 { $maxDuration }。
system-instructions = 服务方给供应商的原文说明（按原样引用，未翻译）：
    <blockquote>{ $instructions }</blockquote>
