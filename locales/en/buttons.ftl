## Buttons instead of typing: the main actions, /balance, /prices, final cards, links

buttons-menu-balance = 💰 Balance
buttons-menu-order = ⚡ Order energy
buttons-menu-send = ✉️ Send USDT
buttons-menu-prices = 📈 Prices
buttons-menu-orders = 📜 My orders
buttons-menu-topup = 💳 Top up
buttons-menu-broadcast = 📡 Broadcast
buttons-menu-settings = ⚙️ Settings
buttons-menu-help = ❓ Help
buttons-menu-language = 🌐 Language
buttons-menu-keep = 🔁 Keep charged
buttons-home = ◀️ Home
buttons-home-limits = 🧊 Limits

buttons-balance-refresh = 🔄 Refresh
buttons-balance-updated = Balance updated
buttons-balance-unchanged = Nothing has changed since the last check

buttons-order-tier = ⚡ Order { $tier }
buttons-order-tier-chosen = Duration: <b>{ $duration }</b>. Now tell me who receives the energy and how much.

buttons-track = 🔄 Track
buttons-explorer = 🔎 Explorer
buttons-dashboard = 🖥 Dashboard
buttons-support = 💬 Support
buttons-back = ◀️ Back
