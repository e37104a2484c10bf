## /link 与 /unlink

link-ask-key =
    请发送控制台（API 密钥页面）中的 <b>API 密钥</b>。

    我会立即删除您的消息，密钥只以加密形式保存。
link-ask-key-text = 请以文字消息发送 API 密钥，或点击“取消”。
link-key-format = 这看起来不像 API 密钥：密钥应是不含空格的一串字符。请从控制台复制后重新发送。
link-key-accepted = 服务已接受该密钥。
link-key-accepted-no-wallet = 服务已接受该密钥，但您的账户还没有钱包。
link-ask-secret =
    接下来请发送与密钥一同显示的 <b>Webhook 密钥</b>。有了它，我可以验证服务发来的通知，并第一时间告诉您订单的进展。

    没有 Webhook 密钥？点击“跳过”即可：一切照常，只是状态由我自己去查询。
link-ask-secret-text = 请以文字消息发送 Webhook 密钥，或点击“跳过”。
link-secret-format = 这看起来不像 Webhook 密钥：它应是不含空格的一串字符。请重新发送，或点击“跳过”。
link-key-is-secret = 这是 <b>Webhook 密钥</b>，不是 API 密钥。我已删除该消息，没有把它发送到任何地方。请先发送 <b>API 密钥</b>（控制台中与它一同显示的另一个值），之后我会立即请您发送 Webhook 密钥。
link-secret-is-key = 这是 <b>API 密钥</b>，不是 Webhook 密钥。我已删除该消息，也没有使用它。请发送与 API 密钥一同显示的 <b>Webhook 密钥</b>，或点击“跳过”。
link-one-shot-swapped = 这两个值似乎顺序颠倒或重复了：第一个应是 <b>API 密钥</b>，第二个应是 <b>Webhook 密钥</b>。没有发送也没有保存任何内容。请按此顺序重新发送 /link，或只发送 /link，我会一步步询问。
link-cancel-button = 取消
link-skip-button = 跳过
link-usage =
    用法：<code>/link API_KEY</code> 或 <code>/link API_KEY WEBHOOK_SECRET</code>。也可以只发送 /link，我会一步步询问。

    由于您的消息可能包含密钥，我已将其删除。
link-unavailable = 服务暂时无法访问，无法验证密钥，因此<b>没有保存任何内容</b>。请一分钟后再发送 /link。
link-key-invalid = 服务不接受此 API 密钥（密钥无效）。请确认已完整复制，或在控制台创建新密钥，然后重新发送 /link。
link-key-revoked = 此 API 密钥已被吊销。请在控制台创建新密钥，然后重新发送 /link。
link-not-stored = 没有保存任何内容。
link-success = ✅ 账户已绑定到此聊天。
link-replaced = ✅ 账户已绑定，此聊天原有的密钥已被替换。
link-balance = 可用余额：<b>{ $availableTrx } TRX</b>。
link-no-wallet = 您的账户还没有钱包，因此没有余额和充值地址。请在控制台创建钱包，之后 /balance 即可显示。
link-callback-url =
    您的专属回调地址（Callback URL）：
    { $url }

    如需即时通知，请在控制台编辑此 API 密钥，把该地址粘贴到 <b>Callback URL</b> 一栏。
link-secret-stored = Webhook 密钥已加密保存，我会用它验证通知。
link-secret-missing = 未保存 Webhook 密钥：我只会把通知当作提示，每个状态都会自己向服务核实。

unlink-confirm =
    确定要解除此聊天与账户的绑定吗？

    <b>将被删除：</b>已保存的 API 密钥、Webhook 密钥以及此聊天的回调地址。仍在等待确认的报价和广播将无法再确认，我也将不再在这里报告此账户订单的状态。
    <b>将被保留：</b>此账户的订单与广播记录（再次绑定同一账户时会恢复；在这里绑定的其他账户看不到它们）、通知设置、已保存的收款地址标签以及语言。
unlink-confirm-button = 确定解绑
unlink-cancel-button = 保留绑定
unlink-kept = 好的，账户仍保持绑定。
unlink-done =
    已解绑。此聊天的密钥、Webhook 密钥和回调地址均已删除；未确认的报价和广播已无法再确认，状态报告已停止。

    账户的记录、设置、已保存的标签和语言均已保留：通过 /link 再次绑定同一账户后，/orders 会重新显示其记录。

link-callback-url-shared =
    此密钥所属账户已在另一个聊天中绑定，因此回调地址保持不变（一个 API 密钥只有一个回调地址）：
    { $url }

    无需在控制台修改：所有已绑定的聊天都会通过这个地址收到通知。
link-account-shared = 此聊天现在与其他已绑定的聊天共用同一账户：同一份记录、同一份 /statement 账单、同一套 /limits 限额。有关账户的通知会发送到每个已绑定的聊天，各用其语言。在此处 /unlink 不会影响其他聊天。
unlink-done-shared =
    已解绑。此聊天的密钥和 Webhook 密钥已删除；此处尚未确认的报价和广播已无法再确认，此聊天不再收到状态报告。
    该账户仍在另外 { $count } 个聊天中保持绑定：回调地址继续为它们工作，无需在控制台修改。
