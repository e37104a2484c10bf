## History feature: /orders, /track

orders =
    .description = Ваши заказы и отправки
track =
    .description = Текущий статус заказа или отправки

orders-empty = Заказов и отправок пока нет. Начните с /order или /broadcast.
orders-what-usdt = { $amount } USDT
orders-what-trx = { $amount } TRX
orders-what-contract = вызов контракта
orders-what-tron = транзакция TRON
orders-newer-button = ◀ Новее
orders-older-button = Старше ▶

track-usage = Отправьте <code>/track id</code> с 24-символьным идентификатором заказа или отправки.
track-not-found = { $id } не найден в вашем аккаунте.
track-txid-unknown = { $txId } — идентификатор транзакции, и ни одна отправка этого чата его не содержит. Команде <code>/track</code> нужен 24-символьный идентификатор заказа или отправки; нажмите строку в /orders, чтобы открыть её карточку.
track-refresh-button = 🔄 Обновить
track-refresh-failed = Сейчас не удалось прочитать.
track-unchanged = Ничего не изменилось.
