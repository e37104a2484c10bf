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
