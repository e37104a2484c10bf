## 粘贴的文本：机器人自己的编号、在 /link 之外粘贴的密钥

paste-own-id = 🔎 { $id } 是您的一个{ $kind ->
    [order] 订单
   *[other] 广播
}。
paste-own-txid = 🔎 { $txId } 是您的广播 { $broadcastId } 的交易。它是公开的编号，不是秘密。
paste-track-hint = 点击按钮查看实时状态（或发送 <code>/track id</code>）。
paste-flow-still-waiting = 上面的问题仍在等待您的回答：请回答，或发送 /cancel。
paste-track-button = 🔎 跟踪 …{ $id }

paste-key-linked = 🔐 这看起来是您的 API 密钥，所以我删除了这条消息（密钥不应留在聊天中），并把它绑定到了此聊天。
paste-key-tried = 🔐 这看起来是 API 密钥，所以我删除了这条消息（密钥不应留在聊天中），并尝试把它绑定到此聊天。
paste-key-same = 🔐 这是已绑定到此聊天的 API 密钥：一切照旧，无需吊销。
paste-key-delete-yourself = 我无法删除您的消息：请您自行删除。
