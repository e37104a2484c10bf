## 用按钮代替输入：主要操作、/balance、/prices、最终卡片、链接

buttons-menu-balance = 💰 余额
buttons-menu-order = ⚡ 租用能量
buttons-menu-send = ✉️ 发送 USDT
buttons-menu-prices = 📈 价格
buttons-menu-orders = 📜 我的订单
buttons-menu-topup = 💳 充值
buttons-menu-broadcast = 📡 广播交易
buttons-menu-settings = ⚙️ 设置
buttons-menu-help = ❓ 帮助
buttons-menu-language = 🌐 语言
buttons-menu-keep = 🔁 保持有能量
buttons-home = ◀️ 主页
buttons-home-limits = 🧊 限额

buttons-balance-refresh = 🔄 刷新
buttons-balance-updated = 余额已更新
buttons-balance-unchanged = 自上次查询以来没有变化

buttons-order-tier = ⚡ 租用 { $tier }
buttons-order-tier-chosen = 租期：<b>{ $duration }</b>。现在请告诉我接收能量的地址和数量。

buttons-track = 🔄 跟踪
buttons-explorer = 🔎 区块浏览器
buttons-dashboard = 🖥 控制台
buttons-support = 💬 客服
buttons-back = ◀️ 返回
