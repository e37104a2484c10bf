## /settings

settings =
    .description = Notification settings
settings-title =
    <b>Notifications</b>

    Choose what I tell you about on my own when its status changes. Tap a button to switch it. /track still shows any order or broadcast on request.
settings-orders-on = ✅ Orders: on
settings-orders-off = 🔕 Orders: off
settings-broadcasts-on = ✅ Broadcasts: on
settings-broadcasts-off = 🔕 Broadcasts: off
settings-orders-enabled = Order notifications are on.
settings-orders-disabled = Order notifications are off.
settings-broadcasts-enabled = Broadcast notifications are on.
settings-broadcasts-disabled = Broadcast notifications are off.
settings-keep-day-on = 📊 Keep plans: daily summary on
settings-keep-day-off = 🔕 Keep plans: daily summary off
settings-keep-day-enabled = After your midnight I will send one summary of the day: each plan's orders and what they cost.
settings-keep-day-disabled = The daily summary of your plans is off. Each plan's card still shows its orders.
