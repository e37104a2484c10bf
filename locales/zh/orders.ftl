## History feature: /orders, /track

orders =
    .description = 您的订单和广播
track =
    .description = 订单或广播的实时状态

orders-empty = 还没有订单或广播。可以从 /order 或 /broadcast 开始。
orders-what-usdt = { $amount } USDT
orders-what-trx = { $amount } TRX
orders-what-contract = 合约调用
orders-what-tron = TRON 交易
orders-newer-button = ◀ 较新
orders-older-button = 较早 ▶

track-usage = 请发送 <code>/track id</code>，附上订单或广播的 24 位 ID。
track-pick = 要查看哪一个？点击最近的一项，或发送 <code>/track id</code>（订单或广播的 24 位 id）。
track-recent-order = 订单 { $id } · { $status }
track-recent-broadcast = 广播 { $id } · { $status }
track-not-found = 在您的账户中未找到 { $id }。
track-txid-unknown = { $txId } 是交易 ID，本聊天的广播中没有包含它的。<code>/track</code> 需要订单或广播的 24 位 ID；在 /orders 中点按一行即可打开其卡片。
track-refresh-button = 🔄 刷新
track-refresh-failed = 暂时无法读取。
track-unchanged = 没有变化。
orders-what-to = { $what } → { $receiver }
orders-what-trc20 = 代币 { $contract } { $amount } 个最小单位
orders-what-trc10 = 代币 { $asset } { $amount }
orders-what-stake = 质押 { $amount } TRX 以获得{ $resource ->
    [ENERGY] 能量
    [TRON_POWER] 投票权
   *[BANDWIDTH] 带宽
}
orders-what-unstake = 解除质押 { $amount } TRX
orders-what-unstake-all = 解除全部质押
orders-what-delegate = 代理 { $amount } TRX 对应的{ $resource ->
    [ENERGY] 能量
   *[BANDWIDTH] 带宽
}
orders-what-undelegate = 收回 { $amount } TRX 对应的{ $resource ->
    [ENERGY] 能量
   *[BANDWIDTH] 带宽
}
orders-what-withdraw-unstaked = 提取已解除质押的 TRX
orders-what-withdraw-rewards = 提取奖励
orders-what-cancel-unstake = 取消解除质押
orders-what-activate = 激活账户
orders-what-rename = 修改账户名称
orders-what-votes = 投票：{ $count } 个候选人共 { $total } 票
orders-what-clear-abi = 删除合约 { $contract } 的 ABI
orders-what-contract-settings = 合约 { $contract } 的设置
orders-what-contract-at = 调用合约 { $contract }
