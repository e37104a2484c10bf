## 粘贴的文本：机器人自己的编号、在 /link 之外粘贴的密钥

paste-own-id = 🔎 { $id } 是您的一个{ $kind ->
    [order] 订单
   *[other] 广播
}。
paste-own-txid = 🔎 { $txId } 是您的广播 { $broadcastId } 的交易。它是公开的编号，不是秘密。
paste-track-hint = 点击按钮查看实时状态（或发送 <code>/track id</code>）。
paste-flow-still-waiting = 上面的问题仍在等待您的回答：请回答，或发送 /cancel。
paste-track-button = 🔎 跟踪 …{ $id }
