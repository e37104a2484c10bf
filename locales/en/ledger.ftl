## /orders as a ledger: rows, filters, pages

ledger-title-all = <b>Orders and broadcasts of this account</b>, newest first (page { $page } of { $pages }, { $total } in all)
ledger-title-orders = <b>Orders of this account</b>, newest first (page { $page } of { $pages }, { $total } in all)
ledger-title-broadcasts = <b>Broadcasts of this account</b>, newest first (page { $page } of { $pages }, { $total } in all)
ledger-title-month = <b>{ $month }</b>: orders and broadcasts, newest first (page { $page } of { $pages }, { $total } in all)
ledger-zone = Times in { $zone } (change it in /settings).
ledger-row-order = { $n }. Order { $id }
    🕒 { $time } · { $status }
    { $amount } energy for { $duration } → { $receiver }
    💰 { $cost }{ $ends }
ledger-row-broadcast = { $n }. Broadcast { $id }
    🕒 { $time } · { $status }
    { $what }
    💰 { $cost }
ledger-cost = { $amount } TRX
ledger-cost-estimated = up to { $amount } TRX (estimate until the service reports the fee)
ledger-cost-refunded = { $amount } TRX, refunded
ledger-cost-unknown = cost not known yet
ledger-row-until = {" "}· ⏳ energy until { $time }
ledger-row-ended = {" "}· ⌛ delegation ended { $time }
ledger-open-hint = Tap a row's number for its live card.
ledger-empty-filtered = Nothing here yet.
ledger-open-button = 🔎 { $n }
ledger-filter-all = All
ledger-filter-orders = Orders
ledger-filter-broadcasts = Broadcasts
ledger-filter-month = This month
ledger-filter-chosen = • { $name }
ledger-page-button = { $page } / { $pages }
ledger-row-chat = 💬 placed from another chat: { $chat }
