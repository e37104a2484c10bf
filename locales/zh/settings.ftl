## /settings

settings =
    .description = 通知设置
settings-title =
    <b>通知</b>

    选择状态变化时我要主动告诉您的内容。点按按钮即可开关。无论如何，/track 都可以随时查询任意订单或广播。
settings-orders-on = ✅ 订单：开
settings-orders-off = 🔕 订单：关
settings-broadcasts-on = ✅ 广播：开
settings-broadcasts-off = 🔕 广播：关
settings-orders-enabled = 订单通知已开启。
settings-orders-disabled = 订单通知已关闭。
settings-broadcasts-enabled = 广播通知已开启。
settings-broadcasts-disabled = 广播通知已关闭。
settings-keep-day-on = 📊 保持有能量计划：每日汇总 开
settings-keep-day-off = 🔕 保持有能量计划：每日汇总 关
settings-keep-day-enabled = 在您当地的午夜之后，我会发送一条当天的汇总：每个计划的订单及其花费。
settings-keep-day-disabled = 计划的每日汇总已关闭。每个计划的卡片仍会显示它的订单。
