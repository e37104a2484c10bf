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
track-pick = Что показать? Нажмите одно из последних или отправьте <code>/track id</code> с 24-символьным id заказа или отправки.
track-recent-order = Заказ { $id } · { $status }
track-recent-broadcast = Отправка { $id } · { $status }
track-not-found = { $id } не найден в вашем аккаунте.
track-txid-unknown = { $txId } — идентификатор транзакции, и ни одна отправка этого чата его не содержит. Команде <code>/track</code> нужен 24-символьный идентификатор заказа или отправки; нажмите строку в /orders, чтобы открыть её карточку.
track-refresh-button = 🔄 Обновить
track-refresh-failed = Сейчас не удалось прочитать.
track-unchanged = Ничего не изменилось.
orders-what-to = { $what } → { $receiver }
orders-what-trc20 = { $amount } ед. токена { $contract }
orders-what-trc10 = { $amount } токена { $asset }
orders-what-stake = стейкинг { $amount } TRX ради { $resource ->
    [ENERGY] энергии
    [TRON_POWER] голосов
   *[BANDWIDTH] пропускной способности
}
orders-what-unstake = вывод из стейкинга { $amount } TRX
orders-what-unstake-all = вывод всего стейкинга
orders-what-delegate = передача { $resource ->
    [ENERGY] энергии
   *[BANDWIDTH] пропускной способности
} от { $amount } TRX
orders-what-undelegate = возврат { $resource ->
    [ENERGY] энергии
   *[BANDWIDTH] пропускной способности
} от { $amount } TRX
orders-what-withdraw-unstaked = вывод разблокированных TRX
orders-what-withdraw-rewards = вывод наград
orders-what-cancel-unstake = отмена вывода из стейкинга
orders-what-activate = активация аккаунта
orders-what-rename = переименование аккаунта
orders-what-votes = голоса: { $total } за { $count } { $count ->
    [one] кандидата
   *[other] кандидатов
}
orders-what-clear-abi = удаление ABI контракта { $contract }
orders-what-contract-settings = настройки контракта { $contract }
orders-what-contract-at = вызов контракта { $contract }
