## /orders 账本：行、筛选、分页

ledger-title-all = <b>此账户的订单和广播</b>，最新的在前（第 { $page }/{ $pages } 页，共 { $total } 条）
ledger-title-orders = <b>此账户的订单</b>，最新的在前（第 { $page }/{ $pages } 页，共 { $total } 条）
ledger-title-broadcasts = <b>此账户的广播</b>，最新的在前（第 { $page }/{ $pages } 页，共 { $total } 条）
ledger-title-month = <b>{ $month }</b>：订单和广播，最新的在前（第 { $page }/{ $pages } 页，共 { $total } 条）
ledger-zone = 时间按 { $zone } 时区显示（可在 /settings 中更改）。
ledger-row-order = { $n }. 订单 { $id }
    🕒 { $time } · { $status }
    { $amount } 能量，{ $duration } → { $receiver }
    💰 { $cost }{ $ends }
ledger-row-broadcast = { $n }. 广播 { $id }
    🕒 { $time } · { $status }
    { $what }
    💰 { $cost }
ledger-cost = { $amount } TRX
ledger-cost-estimated = 最多 { $amount } TRX（估算，服务报告手续费前）
ledger-cost-refunded = { $amount } TRX，已退款
ledger-cost-unknown = 费用暂未知
ledger-row-until = {" "}· ⏳ 能量至 { $time }
ledger-row-ended = {" "}· ⌛ 委托已于 { $time } 结束
ledger-open-hint = 点按行号即可打开其实时卡片。
ledger-empty-filtered = 这里暂时没有记录。
ledger-open-button = 🔎 { $n }
ledger-filter-all = 全部
ledger-filter-orders = 订单
ledger-filter-broadcasts = 广播
ledger-filter-month = 本月
ledger-filter-chosen = • { $name }
ledger-page-button = { $page } / { $pages }
ledger-row-chat = 💬 由另一个聊天下单：{ $chat }
