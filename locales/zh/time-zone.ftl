## 聊天的时区（/settings）

time-zone-settings-button = 🕒 时区：{ $zone }
time-zone-title =
    🕒 <b>时区</b>：{ $zone }

    每个聊天只有一个时区：/orders 和对账单按它显示时间，/limits 的每日和每月也按它开始。请选择一个，或输入其他时区。
time-zone-chosen = • { $zone }
time-zone-other-button = ⌨️ 其他时区…
time-zone-ask = 请以 IANA 名称发送您的时区，例如 <code>Europe/Madrid</code>、<code>Asia/Tokyo</code> 或 <code>America/Sao_Paulo</code>。
time-zone-bad = “{ $value }”不是我认识的时区。请使用 IANA 名称，例如 <code>Europe/Berlin</code> 或 <code>UTC</code>。
time-zone-saved = 🕒 时区已设置为 <b>{ $zone }</b>。/orders、对账单和 /limits 现在都使用它。
time-zone-saved-short = 时区：{ $zone }
