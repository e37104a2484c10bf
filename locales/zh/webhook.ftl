## /webhook

webhook =
    .description = 服务通知：回调地址与签名密钥
webhook-title = <b>服务通知（Webhook）</b>
webhook-url =
    您的专属回调地址：
    { $url }

    请在控制台中把它粘贴到该 API 密钥的 <b>Callback URL</b> 字段。这样订单和广播一有变化，服务就会立即通知我。
webhook-no-public-url = 本机器人没有公网地址（未设置 <code>PUBLIC_URL</code>），服务无法联系到它。我会自行查询您的订单和广播状态。
webhook-secret-set = ✅ 已加密保存 Webhook 密钥：每条通知都会用它校验，伪造的通知会被拒绝。
webhook-secret-none = ⚠️ 未保存 Webhook 密钥：我无法验证通知，因此只把它们当作提示，每个状态都会亲自向服务核实。
webhook-set-secret-button = 设置密钥
webhook-change-secret-button = 更换密钥
webhook-remove-secret-button = 删除密钥
webhook-rotate-button = 生成新回调地址
webhook-rotate-confirm =
    要生成新的回调地址吗？当前地址将<b>立即</b>失效：在您把新地址填入控制台之前，服务的通知无法送达（我仍会自行查询状态）。
webhook-rotate-confirm-button = 是的，生成新地址
webhook-rotate-cancel-button = 保留当前地址
webhook-rotated = 🔄 已生成新的回调地址。旧地址已失效，请在控制台中更新。
webhook-secret-removed = Webhook 密钥已删除。
webhook-cancel-button = 取消
webhook-ask-secret =
    请发送控制台在创建 API 密钥时一并显示的 <b>Webhook 密钥</b>。

    我会立即删除您的消息，并且只以加密形式保存密钥。
webhook-ask-secret-text = 请以文本消息发送 Webhook 密钥，或点按“取消”。
webhook-secret-format = 这看起来不像 Webhook 密钥：它应该是一个不含空格的词。请从控制台复制后重新发送。
webhook-secret-is-key = 这是 <b>API 密钥</b>，不是 Webhook 密钥。我已删除该消息，也没有保存它。请发送与 API 密钥一同显示的 <b>Webhook 密钥</b>。
webhook-secret-saved = ✅ Webhook 密钥已保存。您的消息已删除；今后的通知都会用它校验。
webhook-usage =
    用法：<code>/webhook</code> 显示您的回调地址；<code>/webhook secret 密钥</code> 一步设置密钥。

    您的消息可能含有密钥，我已将其删除。
webhook-delete-failed = ⚠️ 我无法删除您含有密钥的消息，请您自行删除。
