## History feature: /orders, /track

orders =
    .description = Ваши заказы и отправки
track =
    .description = Текущий статус заказа или отправки

orders-empty = Заказов и отправок пока нет. Начните с /order или /broadcast.
orders-title = <b>Ваши заказы и отправки</b>, сначала новые (страница { $page } из { $pages }, всего { $total })
orders-line-order = { $n }. Заказ { $id }
    { $status } · { $amount } энергии на { $duration } → { $address }
orders-line-broadcast = { $n }. Отправка { $id }
    { $status } · { $what } → { $address }
orders-what-usdt = { $amount } USDT
orders-what-trx = { $amount } TRX
orders-what-contract = вызов контракта
orders-what-tron = транзакция TRON
orders-track-hint = Текущий статус: <code>/track id</code>
orders-newer-button = ◀ Новее
orders-older-button = Старше ▶

track-usage = Отправьте <code>/track id</code> с 24-символьным идентификатором заказа или отправки.
track-not-found = { $id } не найден в вашем аккаунте.
track-refresh-button = 🔄 Обновить
track-refresh-failed = Сейчас не удалось прочитать.
track-unchanged = Ничего не изменилось.
