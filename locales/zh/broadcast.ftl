## Broadcast feature: /broadcast

broadcast =
    .description = 发送已签名交易并由服务提供能量

broadcast-ask = 请以 JSON 文本或 .json 文件发送<b>已签名</b>的交易（包含 <code>txID</code>、<code>raw_data</code>、<code>raw_data_hex</code> 和 <code>signature</code>）。发送前我会先检查。
    切勿发送私钥或助记词：请在钱包中签名，只发送签名结果。
broadcast-secret-deleted = 🔒 我移除了您的消息，因为它看起来像{ $kind ->
    [mnemonic] 助记词
   *[other] 私钥
}；本机器人从不需要它，只需要已签名的交易。如果它确实是，稳妥起见请把资产转到新钱包，因为它曾在本聊天中短暂可见。如果是别的内容，不会有任何损失：消息只是被移除了。

broadcast-refused-not-json = 这不是有效的 JSON。请按钱包生成的原样发送已签名交易。
broadcast-refused-not-json-at = 这不是有效的 JSON：第 { $line } 行第 { $column } 个字符处出错。请按钱包生成的原样发送已签名交易。
broadcast-refused-not-json-end = 这不是有效的 JSON：内容提前结束（第 { $line } 行第 { $column } 个字符），可能缺了一部分。请发送完整的已签名交易，或以 .json 文件发送。
broadcast-refused-too-large = 交易超过 1 MiB，而已签名交易通常只有几 KB。未发送任何内容。
broadcast-refused-not-object = 这不是交易对象。请发送包含 <code>txID</code>、<code>raw_data</code>、<code>raw_data_hex</code> 和 <code>signature</code> 的已签名交易 JSON。
broadcast-refused-malformed = 交易不完整或无法读取：{ $detail }。未发送任何内容。
broadcast-refused-txid-mismatch = <code>txID</code> 与 <code>sha256(raw_data_hex)</code> 不一致：交易在创建后被修改过（声明的是 { $declared }，按字节计算为 { $derived }）。请重新签名。
broadcast-refused-raw-data-mismatch = <code>raw_data</code> 与 <code>raw_data_hex</code> 不一致：{ $detail }。JSON 描述的不是已签名的内容。请按签名时的原样发送。
broadcast-refused-no-signature = 交易尚未签名。请先在钱包中签名，再发送到这里。
broadcast-refused-bad-signature = 签名与发送方不符：发送方是 { $owner }，签名者却是 { $signers }。请用发送方自己的钱包签名。
broadcast-refused-multiple-contracts = 交易中包含 { $count } 个合约；只能广播单个合约调用。
broadcast-refused-expired = 已过期：交易已超过有效期，或剩余不足 30 秒。请重新签名一笔有效期约 600 秒的交易。
broadcast-refused-insufficient-time = 剩余时间太少：距交易过期只剩 { $seconds } 秒，不足 75 秒。请重新签名一笔有效期约 600 秒的交易。
broadcast-refused-pricing-unavailable = 暂时无法获取价格，无法估算费用。请一分钟后再试。

broadcast-summary-title = <b>发送前请核对</b>
broadcast-kind-usdt = USDT 转账：<b>{ $amount } USDT</b>
broadcast-kind-trx = TRX 转账：<b>{ $amount } TRX</b>
broadcast-kind-contract = 其他合约调用（{ $contractType }），合约：{ $contract }
broadcast-summary-from = 发送方：{ $address }
broadcast-summary-to = 接收方：{ $address }
broadcast-summary-txid = 交易 ID：{ $txId }
broadcast-summary-time-left = 剩余时间：{ $timeLeft }
broadcast-summary-energy-usdt = 预计能量：约 { $holder }；若接收方从未持有过 USDT，约 { $firstTime }。
broadcast-summary-fee-usdt = 按基础价格 { $unitPriceSun } sun 预计费用：{ $holderTrx } TRX；首次接收的地址为 { $firstTimeTrx } TRX。
broadcast-summary-energy = 预计能量：约 { $units }；按基础价格 { $unitPriceSun } sun 费用约 { $feeTrx } TRX。
broadcast-summary-bandwidth = 预计带宽：约 { $units }；按基础价格 { $unitPriceSun } sun 费用约 { $feeTrx } TRX。
broadcast-summary-confirm-hint = 服务接受交易时扣费；若广播失败或过期，费用将退回。
broadcast-confirm-button = ✅ 确认
broadcast-cancel-button = 取消
broadcast-retry-button = 🔁 重试
broadcast-cancelled = 已取消广播，未发送也未扣费。
broadcast-already-submitted = 此交易已经提交过了。
broadcast-accepted = 广播 { $broadcastId } 已受理：{ $status }。
broadcast-duplicate-known = 此交易已经提交过：广播 { $broadcastId }（交易 { $txId }），状态 { $status }。没有再次扣费。
broadcast-duplicate-unknown = 服务中已有交易 { $txId } 的广播（进行中或已确认），但本聊天没有它的记录。没有再次扣费。如果是您的账户提交的，服务报告进展时会发到本聊天；也可以在区块浏览器中按交易 ID 查询。
broadcast-known-active = 此交易 { $txId } 已提交过：广播 { $broadcastId }，状态 { $status }。服务不会重复接受，因此无需确认，也没有新的扣费。可用 { $track } 查看进度。
broadcast-known-failed = 注意：此交易之前的广播 { $broadcastId } 以 { $status } 结束。在交易过期前，可以再次提交同一笔已签名交易。
broadcast-known-expired = 注意：此交易之前的广播 { $broadcastId } 以 { $status } 结束。服务会再次接受它，但上次未能及时确认：更稳妥的做法是重新签名一笔有效期约 600 秒的交易。

## 交易的作用，按已签名字节读取（系统合约消耗带宽而非能量）
broadcast-refused-unsupported-contract = 我无法读取这种合约（{ $contract }），因此无法告诉你它做什么，服务也无法为其提供资源。未发送任何内容。
broadcast-refused-too-many-signatures = 交易携带 { $count } 个签名，超过网络允许的 { $max } 个，链会拒绝。请只用需要的密钥重新签名。
broadcast-refused-signature-format = 第 { $index } 个签名无法按链的方式读取：{ $detail }。请按钱包签名后的原样发送交易。
broadcast-refused-duplicate-signature = 同一签名者出现了两次（{ $signer }），链会拒绝。每个密钥只保留一个签名后重新发送。
broadcast-refused-extra-signature = 交易携带 { $count } 个签名，多于所有者拥有的密钥（另有 { $others } 签名），链会拒绝。请只带所有者的签名发送。
broadcast-refused-permission-not-owner = 这笔交易通过第 { $permissionId } 号多签权限由 { $signers } 签名，而不是所有者 { $owner }。服务按所有者地址校验签名，因此会拒绝它。请让所有者的密钥也签名，或自行广播。
broadcast-malformed-hostile-field = JSON 中有名为 { $field } 的字段，任何交易都不会有这个字段
broadcast-malformed-too-deep = JSON 的嵌套超过 { $depth } 层
broadcast-malformed-shape-hex64 = { $field } 必须是 64 个十六进制字符
broadcast-malformed-shape-hex = { $field } 必须是非空的十六进制字符串
broadcast-malformed-shape-object = { $field } 必须是对象
broadcast-malformed-shape-hex-list = { $field } 必须是十六进制字符串的列表
broadcast-malformed-bytes-unreadable = 已签名的字节（<code>raw_data_hex</code>）无法解码
broadcast-malformed-no-contract = 已签名的字节中没有任何合约
broadcast-malformed-no-owner = 合约中没有指明发送方（<code>owner_address</code>）
broadcast-malformed-expiration-out-of-range = 过期时间超出允许范围
broadcast-mismatch-field-differs = { $field } 与已签名的字节不一致
broadcast-mismatch-field-missing = 缺少 { $field }
broadcast-mismatch-contract-type-differs = { $field } 写的是 { $claimed }，已签名的字节中是 { $signed }
broadcast-mismatch-contracts-differ = 合约列表与已签名的 { $count } 个合约不一致
broadcast-signature-not-hex = 它不是十六进制
broadcast-signature-size = 它的长度是 { $size } 字节，而不是 { $expected } 字节
broadcast-signature-header = 它的恢复字节是 { $header }，超出允许范围
broadcast-signature-value-range = 它的 { $part } 值超出范围
broadcast-signature-recovery-id-unsupported = 它的恢复编号不受支持
broadcast-signature-unrecoverable = 无法从中恢复公钥
broadcast-contract-type-number = 第 { $number } 号合约类型
broadcast-refused-expiration-too-far = 过期时间在 24 小时以后，链会拒绝。请重新签名，过期时间约 600 秒。
broadcast-kind-trc20 = 合约 { $contract } 上的代币转账：<b>{ $amount }</b>（代币最小单位，此处不知道其小数位数）
broadcast-kind-freeze = 质押 <b>{ $amount } TRX</b> 以获得{ $resource ->
    [ENERGY] 能量
    [TRON_POWER] TRON Power
   *[BANDWIDTH] 带宽
}
broadcast-kind-unfreeze = 解除质押 <b>{ $amount } TRX</b>（为{ $resource ->
    [ENERGY] 能量
    [TRON_POWER] TRON Power
   *[BANDWIDTH] 带宽
}质押，等待期后返还）
broadcast-kind-unfreeze-all = 解除为{ $resource ->
    [ENERGY] 能量
    [TRON_POWER] TRON Power
   *[BANDWIDTH] 带宽
}质押的全部 TRX（Stake 1.0）
broadcast-kind-delegate = 将 <b>{ $amount } TRX</b> 质押对应的{ $resource ->
    [ENERGY] 能量
   *[BANDWIDTH] 带宽
}代理给另一个账户{ $lock ->
    [yes] ，并锁定一段时间
   *[no] {""}
}
broadcast-kind-undelegate = 收回代理给另一个账户的 <b>{ $amount } TRX</b> 质押对应的{ $resource ->
    [ENERGY] 能量
   *[BANDWIDTH] 带宽
}
broadcast-kind-withdraw-unfreeze = 提取等待期已结束的解除质押 TRX
broadcast-kind-withdraw-balance = 提取账户的投票和出块奖励
broadcast-kind-cancel-unfreeze = 取消所有未完成的解除质押（TRX 重新质押，已到期的会被提取）
broadcast-kind-account-create = 激活一个新账户（创建费用由发送方支付）
broadcast-kind-vote = 为 { $count } 个超级代表投票，共 { $total } 票
broadcast-summary-vote = 投票：{ $address } × { $count }
broadcast-kind-transfer-asset = TRC10 代币转账：代币 { $asset } 的 <b>{ $amount }</b>
broadcast-kind-contract-settings = 修改合约 { $contract } 的设置（{ $contractType }）
broadcast-kind-clear-abi = 删除合约 { $contract } 公布的 ABI（钱包和浏览器读取的函数列表）；合约的代码和资金不受影响
broadcast-kind-account-update = 修改账户名称
broadcast-summary-call-value = 该调用还会向合约发送 <b>{ $amount } TRX</b>。
broadcast-summary-permission = ⚠️ 通过第 { $permissionId } 号权限签名（多签）。服务按所有者 { $address } 校验签名：在那里只有所有者的签名有效。
broadcast-summary-memo = 随交易一同签名的备注（收款方可在链上看到）：<i>{ $memo }</i>
broadcast-summary-memo-hex = 随交易一同签名的备注，无法作为文本读取（以十六进制显示）：{ $memo }

## A Confirm whose answer was lost: the outcome is unknown until the same transaction is sent again (the service deduplicates it)
broadcast-unknown-checking = ⏳ 我已发送交易 { $txId }，但服务的回复丢失了，因此它可能已被接受。我正在核实，并会更新这条消息。请不要再次签名或发送这笔转账。
broadcast-unknown-pending = ⏳ 我仍无法确定交易 { $txId } 是否已被接受：服务尚未回复。我会在后台继续核实，一有结果就更新这条消息。请不要再次签名或发送这笔转账：不会重复扣费。
broadcast-unknown-refused = ❌ 交易 { $txId } 未被接受，没有扣除任何费用：
    { $reason }
broadcast-unknown-expired = ⚠️ 我无法确定交易 { $txId } 是否已被接受：它已经过期，无法再次发送。如果它已被接受，服务报告结果后会发送到此聊天；你也可以在区块浏览器中按交易 ID 查询。
broadcast-unknown-accepted-unnamed = ✅ 交易 { $txId } 已被接受：服务已有该交易的广播，但没有说明是哪一个。服务报告进展后会发送到此聊天；你也可以在区块浏览器中按交易 ID 查询。请不要再次签名或发送这笔转账。
