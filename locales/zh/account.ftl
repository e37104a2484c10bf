## 账户：绑定前打开的链接；之前绑定时的报价

account-deeplink-after-link = 您打开了一个订单：<b>{ $amount } 能量，租期 { $duration }</b>。绑定账户后我会立即继续：点击“绑定”（或发送 /link），然后粘贴控制台中的 API 密钥。
account-connect-button = 🔗 绑定
account-confirm-void = 这是在此聊天重新绑定之前准备的，因此已无法确认。未发送任何内容。请重新开始。
