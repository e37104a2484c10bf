## 聊天的时区（/settings）

time-zone-settings-button = 🕒 时区：{ $zone }
time-zone-title =
    🕒 <b>时区</b>：{ $zone }

    每个聊天只有一个时区：机器人显示的所有时间（卡片、提醒、/orders、对账单、计划）都按它显示，/limits 的每日和每月也按它开始。请选择一个，搜索您的城市，或按 UTC 偏移选择。
time-zone-unchosen = 尚未选择时区：在您选择之前，时间按 { $zone } 显示并注明时区。
time-zone-chosen = • { $zone }
time-zone-city-button = 🔎 输入城市
time-zone-offsets-button = 🕐 按 UTC 偏移
time-zone-retry-button = 🔎 重试
time-zone-fixed-button = { $offset }，无夏令时
time-zone-page-previous = ⬅️ 上一页
time-zone-page-next = 下一页 ➡️
time-zone-page = 第 { $page } 页，共 { $pages } 页。
time-zone-offsets-title = 🕐 <b>UTC 偏移</b>（按当前时钟，含夏令时）。您的时区：{ $zone }。选择一个偏移，查看使用它的地点。
time-zone-offset-zones = 🕐 当前为 <b>{ $offset }</b>。请选择您所用时钟的地点：它的夏令时也会随之生效。
time-zone-matches = 有多个时区与“{ $value }”匹配{ $more ->
    [0] {""}
   *[other] （另有 { $more } 个：请输入更完整的名称以缩小范围）
}。请选择您的时区，或发送其他名称。
time-zone-ask = 🔎 请发送您所在城市的名称或其开头：<code>上海</code>、<code>北京</code>、<code>Berlin</code>、<code>New York</code>。也可以发送 UTC 偏移（<code>UTC+8</code>、<code>GMT-5</code>）或 IANA 名称（<code>America/Sao_Paulo</code>）。
time-zone-bad = “{ $value }”不是我认识的时区。请检查拼写后重新发送（城市，例如 <code>香港</code>；偏移，例如 <code>UTC+8</code>；或 IANA 名称，例如 <code>Europe/Berlin</code>），或按 UTC 偏移选择。
time-zone-uneven = “{ $value }”不是整小时偏移，无法全年保持不变。请改为发送您所在的城市或 IANA 名称，例如 <code>Australia/Adelaide</code>。
time-zone-saved = 🕒 时区已设置为 <b>{ $zone }</b>。机器人显示的所有时间现在都按它显示。
time-zone-saved-short = 时区：{ $zone }

## 聊天尚未选择时区时，显示时间的消息下方的建议（docs/expiry.md，“Time zones”）
time-zone-offer = 🕒 { $place ->
    [moscow] 莫斯科时间
    [shanghai] 北京时间
   *[other] { $zone }
}（{ $offset }）
time-zone-offer-other = 🕒 其他时区
time-zone-offer-pick = 🕒 设置时区
time-zone-offer-saved = 🕒 现在起按{ $place ->
    [moscow] 莫斯科时间
    [shanghai] 北京时间
   *[other] { $zone }
}（{ $offset }）显示时间，可在 /settings 中更改。
time-zone-offer-older = 之前发送的消息仍显示原来的时间。
