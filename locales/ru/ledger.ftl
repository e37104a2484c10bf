## /orders как выписка: строки, фильтры, страницы

ledger-title-all = <b>Заказы и отправки этого аккаунта</b>, сначала новые (страница { $page } из { $pages }, всего { $total })
ledger-title-orders = <b>Заказы этого аккаунта</b>, сначала новые (страница { $page } из { $pages }, всего { $total })
ledger-title-broadcasts = <b>Отправки этого аккаунта</b>, сначала новые (страница { $page } из { $pages }, всего { $total })
ledger-title-month = <b>{ $month }</b>: заказы и отправки, сначала новые (страница { $page } из { $pages }, всего { $total })
ledger-zone = Время по поясу { $zone } (изменить в /settings).
ledger-row-order = { $n }. Заказ { $id }
    🕒 { $time } · { $status }
    { $amount } энергии на { $duration } → { $receiver }
    💰 { $cost }{ $ends }
ledger-row-broadcast = { $n }. Отправка { $id }
    🕒 { $time } · { $status }
    { $what }
    💰 { $cost }
ledger-cost = { $amount } TRX
ledger-cost-estimated = до { $amount } TRX (оценка, пока сервис не сообщит комиссию)
ledger-cost-refunded = { $amount } TRX, возвращено
ledger-cost-unknown = стоимость пока неизвестна
ledger-row-until = {" "}· ⏳ энергия до { $time }
ledger-row-ended = {" "}· ⌛ делегирование закончилось { $time }
ledger-open-hint = Нажмите номер строки, чтобы открыть её живую карточку.
ledger-empty-filtered = Здесь пока ничего нет.
ledger-open-button = 🔎 { $n }
ledger-filter-all = Все
ledger-filter-orders = Заказы
ledger-filter-broadcasts = Отправки
ledger-filter-month = Этот месяц
ledger-filter-chosen = • { $name }
ledger-page-button = { $page } / { $pages }
ledger-row-chat = 💬 оформлено из другого чата: { $chat }
