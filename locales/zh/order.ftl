## Order feature: /order, /batch, quotes

order =
    .description = 为地址租用能量
batch =
    .description = 一次下多笔订单（多行文本或 .csv 文件）

order-usage = 用法：<code>/order 地址 数量 时长</code>，例如 <code>/order TXYZ… 10万 1小时</code> 或 <code>/order TXYZ… 6.5万 15分钟</code>。可选时长：{ $durations }。也可以只发送 /order，我会一步步询问。接收方也可以是已保存的标签（可含空格）：<code>/order 主钱包 10万 1小时</code>。
order-oneshot-bad-receiver = “{ $value }”不是有效的 TRON 地址，也不是您保存的标签。请检查后重新发送命令。
order-oneshot-bad-amount = “{ $value }”不是有效数量。请使用整数，例如 <code>100000</code>、<code>10万</code>、<code>6.5万</code> 或 <code>65,000</code>。
order-oneshot-amount-range = 数量 { $value } 超出范围 { $min }–{ $max }。
order-oneshot-bad-duration = 未知时长 { $value }。可选：{ $durations }。
order-preset = 按报价下单：<b>{ $amount } 能量，时长 { $duration }</b>。接下来请指定接收地址：
order-preset-amount-dropped = 链接中的能量数量 { $amount } 超出了可订购范围（{ $min } 至 { $max }）：请在下面输入数量。
order-preset-duration-dropped = 链接中的时长已不再提供：请在下面选择时长。
order-ask-receiver = 能量发给谁？请发送一个 TRON 地址（base58 格式，以 T 开头）。可以在地址后加一个备注，例如 <code>TXYZ… 主钱包</code>{ $recent ->
        [yes] ，或点选最近用过的接收地址。
       *[no] 。
    }
    如需一次下多笔订单，请粘贴多行 <code>地址 数量 [时长]</code>，或发送 .csv 文件。
order-recent-title = 最近的接收地址：
order-recent-line = • { $address }
order-recent-line-labelled = • { $label }：{ $address }
order-receiver-invalid = 这不是有效的 TRON 地址：应为以 T 开头的 34 位 base58 字符，且校验和正确。请检查后重新发送。
order-receiver-saved = 已将 { $address } 保存为“{ $label }”。
order-ask-amount = 需要多少能量？范围 { $min } 至 { $max }，例如 <code>10万</code> 或 <code>65,000</code>。
order-amount-preset-65000 = 6.5万 · 一笔 USDT 转账
order-amount-preset-131000 = 13.1万 · 转给新地址
order-amount-preset-200000 = 20万
order-amount-invalid = 请发送 { $min } 至 { $max } 之间的整数，例如 <code>100000</code>、<code>10万</code>、<code>6.5万</code> 或 <code>65,000</code>。
order-amount-range = 数量必须在 { $min } 至 { $max } 之间。
order-ask-duration = 租用多长时间？每单位能量的价格：
order-duration-button = { $label } · { $unitPriceSun } sun
order-duration-invalid = 请用按钮选择时长，或直接输入，例如 <code>1小时</code>、<code>15分钟</code> 或 <code>3600</code>。
order-duration-text = { $unit ->
    [h] { $count }小时
    [m] { $count }分钟
   *[s] { $count }秒
}
order-cancel-button = 取消

order-quote-title = <b>报价</b>（{ $minutes } 分钟内有效）
order-quote-item = 接收地址：{ $address }
    能量：{ $amount }，时长 { $duration }
    单价：{ $unitPriceSun } sun
order-quote-batch-title = <b>{ $count } 笔订单的报价</b>（{ $minutes } 分钟内有效）
order-quote-batch-line = { $n }. { $address } · { $amount }，{ $duration } · { $costTrx } TRX
order-quote-batch-more = ……另有 { $count } 笔。
order-quote-total = 合计：<b>{ $totalTrx } TRX</b>
order-quote-balance = 余额：{ $balanceTrx } TRX，下单后：{ $afterTrx } TRX
order-quote-balance-short = 余额：{ $balanceTrx } TRX，还差 { $missingTrx } TRX。请先充值再确认。
order-quote-balance-unknown = 暂时无法读取您的余额。
order-quote-no-wallet = 您的账户还没有钱包，暂时没有可支付的余额。控制台创建钱包后会出现充值地址，届时 /balance 会显示它。
order-quote-confirm-button = ✅ 确认
order-quote-retry-button = 🔁 重试
order-quote-fresh-button = 获取新报价
order-quote-cancelled = 报价已取消，未扣任何费用。
order-quote-expired = 此报价已过期：价格会变动，报价只在 10 分钟内有效。未扣任何费用。点击下方按钮获取新报价。
order-quote-expired-short = 此报价已过期。
order-already-placed = 此订单已下单，只扣费一次。
order-cannot-cancel = 此报价已提交给服务，无法再取消。
order-placed-replayed = 此订单之前已经下过：这是同一笔订单，只扣费一次。
order-insufficient = <b>余额不足，无法下此订单。</b>
    需要：{ $requiredTrx } TRX
    可用：{ $availableTrx } TRX
    差额：{ $missingTrx } TRX
order-insufficient-required = <b>余额不足，无法下此订单。</b>需要：{ $requiredTrx } TRX。
order-insufficient-balance-unknown = 暂时无法读取您的余额；/balance 会显示余额和充值地址。
order-insufficient-no-wallet = 您的账户还没有钱包，因此也没有可充值的地址。控制台创建钱包后地址才会出现，届时 /balance 会显示它。
order-insufficient-no-address = 您的账户还没有充值地址：请先在控制台创建，然后充值。
order-insufficient-retry = 充值到账后点“重试”：会用同一个密钥发送同一笔订单，绝不会重复扣费。
order-retry-safe = “重试”会用同一个密钥发送同一笔订单，绝不会重复扣费。
order-quote-burn-saving = 为同样的能量燃烧 TRX 需要 { $burnTrx } TRX（每单位 { $price } sun）：此订单节省 { $savingTrx } TRX。
order-quote-burn-same = 为同样的能量燃烧 TRX 同样需要 { $burnTrx } TRX（每单位 { $price } sun）：此订单没有节省。
order-quote-burn-extra = 为同样的能量燃烧 TRX 需要 { $burnTrx } TRX（每单位 { $price } sun）：此订单比燃烧贵 { $extraTrx } TRX。
order-quote-second-tap = 金额高于您的二次确认阈值 { $thresholdTrx } TRX：点“确认”后还会再问一次。
order-quote-blocked-frozen = ⛔ 此账户的支出已冻结，因此无法确认此报价。点“▶️ 解冻”恢复支出并重新报价。
order-quote-blocked-daily = ⛔ 此订单会超过您的每日上限，因此无法确认：上限 { $capTrx } TRX，今天已花 { $spentTrx } TRX，剩余 { $leftTrx } TRX，此订单 { $costTrx } TRX。请在“⚙️ 限额”中提高上限，然后点“🔄 重新检查”。
order-quote-blocked-monthly = ⛔ 此订单会超过您的每月上限，因此无法确认：上限 { $capTrx } TRX，本月已花 { $spentTrx } TRX，剩余 { $leftTrx } TRX，此订单 { $costTrx } TRX。请在“⚙️ 限额”中提高上限，然后点“🔄 重新检查”。
order-quote-blocked-no-wallet = ⛔ 账户有钱包之后才能确认。控制台创建钱包后，请点“🔄 重新检查”。
order-quote-blocked-balance-unknown = ⛔ 读取到余额之后才能确认。点“🔁 重试”重新读取。
order-quote-unfreeze-button = ▶️ 解冻
order-quote-limits-button = ⚙️ 限额
order-quote-check-button = 🔄 重新检查
order-quote-still-blocked = 仍然不行：原因见报价。
order-receiver-contract = { $address } 是代币合约，不是钱包：服务无法向它交付能量，因此没有报价。请发送发起交易的钱包地址。
order-change-address-button = ✏️ 更换地址
order-undeliverable-contract = ⛔ 未下单：服务表示 { $address } 是合约，合约无法接收能量。未扣任何费用。
order-undeliverable-inactive = ⛔ 未下单：服务表示 { $address } 还不是已激活的账户，因此无法接收能量。未扣任何费用。地址首次收到 TRX 时即被激活。
order-undeliverable-change = 点“✏️ 更换地址”，把同样的能量发给另一个接收地址。
order-undeliverable-batch = 服务拒绝了整批订单：请去掉这个接收地址或改用正确的地址后重新发送。
order-undeliverable-retry = 地址激活后，“🔁 重试”会用同一个密钥发送同一笔订单，绝不会重复扣费。
order-retry-same = 再次被拒：目前还没有任何变化。

order-batch-ask = 请粘贴订单，每行一笔：<code>地址 数量 [时长]</code>。也可以发送 .csv 文件。每批最多 100 笔。
order-batch-ask-duration = 有 { $count } 行没有写时长。这些订单租用多长时间？
order-batch-empty = 没有找到订单行。每行格式：<code>地址 数量 [时长]</code>。
order-batch-too-many = 共 { $count } 笔订单，每批最多 { $max } 笔。请拆分后分别发送。
order-batch-errors = 未发送任何内容。请修改以下 { $count } 行，然后重新发送整个列表：
order-batch-errors-more = ……另有 { $count } 处。
order-batch-error-line = 第 { $line } 行：{ $reason }
order-batch-reason-bad-address = “{ $value }”不是有效的 TRON 地址
order-batch-reason-missing-amount = 缺少数量
order-batch-reason-bad-amount = “{ $value }”不是整数
order-batch-reason-amount-out-of-range = { $value } 不在 { $min }–{ $max } 范围内
order-batch-reason-bad-duration = 没有“{ $value }”这个时长
order-batch-reason-too-many-fields = 字段太多（应为：地址、数量、时长）
order-batch-reason-contract = { $value } 是代币合约，不是钱包

order-document-not-csv = 批量下单请发送 .csv 文件（每行：地址、数量、时长）。
order-document-too-large = 文件超过 1 MiB，太大了。
order-document-unreadable = 无法读取该文件。请重新发送，或把内容以文本粘贴。

order-prepare-pricing-unavailable = 暂时无法获取价格，请一分钟后再试。
order-prepare-unknown-duration = 该时长已不再提供。请用 /order 重新开始并选择当前可用的时长。
order-prepare-not-linked = 请先绑定 API 密钥：/link

## A Confirm whose answer was lost: the same request goes again (the service replays it, charged once) until the outcome is known
order-unknown-checking = ⏳ 我已发送订单，但服务的回复丢失了，因此订单可能已经下达。我正在通过重发同一请求进行核实，并会更新这条消息。请不要重复下单：不会重复扣费。
order-unknown-pending = ⏳ 我仍无法确定订单是否已下达：服务尚未回复。我会在后台继续核实，一有结果就更新这条消息。请不要重复下单：不会重复扣费。

## 单独发送的 TRON 地址：快速下单卡片
quick-order-title = ⚡ 为 { $address } 租用能量
quick-order-title-label = ⚡ 为 <b>{ $label }</b> { $address } 租用能量
quick-order-uses = 一笔 USDT 转账：收款地址已持有 USDT 时约需 { $holder } 能量，从未持有过时约需 { $firstTime }。点击数量和时长（总价以 TRX 计），然后确认。
quick-order-preset = { $amount } · { $duration } · { $totalTrx } TRX
quick-order-amount = { $amount }万
quick-order-other-amount = ✏️ 其他数量
quick-order-save = 💾 保存地址
