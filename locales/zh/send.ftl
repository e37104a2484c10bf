## 从自己的钱包发送 USDT：/send、签名链接和签名页面

send =
    .description = 用租来的能量从您的钱包发送 USDT

send-ask-recipient = 以租用能量的价格从<b>您自己的钱包发送 USDT</b>。发给谁？点击最近的地址、粘贴 TRON 地址，或输入已保存的标签。
    下次可以一行完成：<code>/send 地址 金额</code>
send-ask-amount = 向 { $address } 发送多少 USDT？点击金额或直接输入（最多 6 位小数）。
send-bad-recipient = <b>{ $text }</b> 既不是 TRON 地址，也不是已保存的标签。TRON 地址以 T 开头，共 34 个字符。
send-bad-amount = <b>{ $text }</b> 不是 USDT 金额。请写成 25 或 25.5 这样的形式（最多 6 位小数）。
send-ambiguous-amount = <b>{ $text }</b> 有两种读法：{ $first } 或 { $second } USDT。请用小数点表示小数，例如 25.5。
send-zero-amount = 金额必须大于零。
send-no-public-url = 从钱包发送需要机器人的签名页面，但机器人运营者尚未设置其公网地址（<code>PUBLIC_URL</code>）。在此之前，您仍可在别处签名，再用 /broadcast 粘贴结果。

send-lookalike = ⚠️ <b>请逐个字符核对地址。</b>{ $to } 与您用过的地址 { $known }很像，但它是另一个地址。骗子会用这种仿冒地址发送小额转账，诱使您从历史记录中复制错误的地址。只有在确定无误时才继续。
send-lookalike-label = 您用过的那个地址已保存为 <b>{ $label }</b>。
send-quote-title = <b>从您的钱包发送 USDT</b>
send-quote-to = 收款方：{ $address }
send-quote-to-label = 收款方：<b>{ $label }</b> { $address }
send-quote-amount = 金额：<b>{ $amount } USDT</b>
send-quote-fee = 从余额支付的能量费：约 { $holderTrx } TRX（约 { $holderEnergy } 能量）；如果收款方从未持有过 USDT，则为 { $firstTimeTrx } TRX（约 { $firstTimeEnergy } 能量）。
send-quote-burn = 不租用能量的话，同一笔转账您的钱包需燃烧约 { $holderBurnTrx }–{ $firstTimeBurnTrx } TRX。
send-quote-how = 点击确认后，您会收到一个在钱包中签名的链接（TronLink、TokenPocket、OKX、Bitget）。钱包只负责签名，由我来发送；服务接受后才扣费。
send-confirm-button = ✅ 确认并签名
send-confirm-anyway-button = ⚠️ 仍然确认
send-cancel-button = 取消
send-cancelled = 已取消发送。没有签名，也没有扣费。

send-signing-title = <b>请在钱包中签名</b>：{ $amount } USDT 发往 { $address }
send-signing-how = 点击<b>“在钱包中签名”</b>，在带钱包的浏览器中打开页面，或在钱包 App 自带的浏览器（DApp 浏览器）中打开此链接，或用另一台设备上的钱包扫描二维码：
send-signing-expires = 链接仅可使用一次，有效期至 { $time }。
send-sign-button = ✍️ 在钱包中签名
send-qr-button = 📷 二维码
send-new-link-button = 🔗 新链接
send-qr-caption = 用钱包 App 扫码签名：{ $amount } USDT 发往 { $address }。
send-link-dead = 此签名链接已失效。

send-mismatch = ⛔ 钱包签名的交易与您确认的内容不一致（{ $what }）。没有发送任何内容，也没有扣费。如果不是您自己修改的，请不要用这个钱包或页面进行这笔转账。
send-mismatch-approve = 它请求授权花费您的代币，而不是转账
send-mismatch-transfer_from = 它从别人的地址转出代币
send-mismatch-other_method = 它调用了合约的其他方法
send-mismatch-other_contract = 它使用了另一个代币合约
send-mismatch-other_recipient = 它付款给了其他收款方
send-mismatch-other_amount = 金额不同
send-mismatch-not_a_contract_call = 它不是代币转账
send-mismatch-call_value = 它同时发送了 TRX
send-mismatch-extra_data = 它带有多余的数据
send-wallet-sent-it = 您的钱包已经自行发送了这笔交易，因此服务没有重复受理，也没有扣费。请在区块浏览器中查看：{ $txId }。

## 签名页面（纯文本，页面会转义）
sign-page-title = 发送 USDT
sign-page-from = 付款方
sign-page-to = 收款方
sign-page-amount = 金额
sign-page-fee = 能量费
sign-page-fee-value = 约 { $holderTrx } TRX，从机器人余额中扣除；如果收款方从未持有过 USDT，则为 { $firstTimeTrx } TRX
sign-page-network = 网络
sign-page-network-mainnet = TRON 主网
sign-page-network-nile = TRON Nile 测试网
sign-page-network-shasta = TRON Shasta 测试网
sign-page-connect = 连接钱包
sign-page-sign = 签名并发送
sign-page-connecting = 正在向钱包请求账户…
sign-page-checking = 正在通过钱包的节点检查…
sign-page-building = 正在准备转账…
sign-page-signing = 请在钱包中确认：钱包只签名，由机器人发送。
sign-page-sending = 正在发送…
sign-page-done = 已发送。请在聊天中查看：那里的卡片会显示每一步。
sign-page-no-wallet = 此浏览器中没有 TRON 钱包。
sign-page-no-wallet-how = 请在钱包 App 自带的浏览器中打开此链接：在 TronLink、TokenPocket、OKX 或 Bitget 中点击“发现”（或“浏览器”）并粘贴链接，或用钱包的扫一扫扫描此二维码。
sign-page-accounts-refused = 钱包没有提供账户。请解锁钱包、允许此页面，然后重试。
sign-page-wrong-network = 您的钱包在另一个网络（{ $found }）上，而这笔转账在 { $expected }。请切换钱包网络并刷新页面。
sign-page-low-usdt = 此账户持有 { $balance } USDT，少于 { $amount } USDT，转账会失败。
sign-page-low-bandwidth = 此账户今天剩余的免费带宽不多；网络可能会为交易大小燃烧少量 TRX（远低于 1 TRX）。
sign-page-energy = 这笔转账需要的能量：{ $energy }。
sign-page-declined = 您在钱包中拒绝了签名。没有发送任何内容。
sign-page-failed = 出了点问题：{ $reason }
sign-page-link-dead = 此链接已失效：已被使用、已过期或不存在。请在聊天中让机器人生成新链接。
sign-page-mismatch = 签名的交易与您在聊天中确认的内容不一致，因此没有发送。
sign-page-already-sent = 您的钱包已自行发送了这笔交易，正在处理中；详情见聊天。
sign-page-refused = 机器人没有发送：{ $reason }
