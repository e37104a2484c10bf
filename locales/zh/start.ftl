## /start、/help、/cancel、/language

start-welcome =
    { $name }，您好！我为您的交易租用 TRON 能量，让您不必燃烧 TRX。
    { $prices }

    首先请绑定账户：发送 /link，并粘贴控制台中的 API 密钥。
    在此之前，/prices 可查看当前价格，/system 可查看服务状态。

home-title = 🏠 <b>{ $name }</b>，您的账户已绑定。
home-balance = 💰 余额：<b>{ $availableTrx } TRX</b>
home-balance-no-wallet = 💰 该账户还没有充值钱包：请在控制台中创建后再充值。
home-balance-unreadable = 💰 暂时无法读取余额；点 💰 余额 重试。
home-attention = <b>需要您处理</b>
home-attention-frozen = 🧊 支出已冻结：解冻之前，任何订单或续费都不会扣款。
home-attention-low-balance = ⚠️ 余额低于您设置的提醒线 { $thresholdTrx } TRX。
home-attention-plan-balance = ⏸ { $receiver } 的计划正在等待充值。
home-attention-plan-paused = ⏸ { $receiver } 的计划因您的支出限额而暂停。
start-prices-cheaper = 今天租用能量每单位 { $unitPriceSun } sun 起（{ $tier }），燃烧 TRX 为 { $burnPriceSun } sun：便宜 { $percent }%。
start-prices-dearer = 今天租用能量每单位 { $unitPriceSun } sun 起（{ $tier }），燃烧 TRX 为 { $burnPriceSun } sun，因此目前租用并不更便宜。
start-prices-unavailable = 目前无法读取今天的价格：服务恢复后，/prices 会显示租用与燃烧 TRX 的价格对比。

help-title-private = <b>我能做什么</b>
help-title-group = <b>可在群组中使用的命令</b>
help-section-everyday = <b>日常</b>
help-section-orders = <b>订单、发送与记录</b>
help-section-account = <b>账户与设置</b>
help-group-private = 涉及您账户的操作只能在与 @{ $username } 的私聊中进行。
help-inline = 在任意聊天中输入 <code>@{ $username } 10万 1小时</code> 即可获取报价。

cancel-done = 已取消，未做任何更改。
cancel-nothing = 当前没有可取消的操作。

language-choose = 请选择语言：
language-changed = 好的，此聊天今后将使用中文。
