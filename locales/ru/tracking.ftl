## Tracking: status cards and notifications

## Статус словами (в английском — слово API); незнакомый статус сервиса показывается кодом ($code).
tracking-status = { $status ->
    [pending] ожидает
    [matching] подбор
    [executing] выполняется
    [fulfilled] выполнен
    [pending_energy] подготовка энергии
    [ready] готова к отправке
    [broadcasting] отправляется
    [confirming] подтверждается
    [confirmed] подтверждена
    [failed] не удалась
    [expired] истекла
   *[other] { $code }
}
## A plain explanation next to the API word; an unknown status is still under way.
tracking-status-meaning = { $status ->
    [pending] в очереди
    [matching] подбираются поставщики энергии
    [executing] энергия делегируется
    [fulfilled] энергия получена
    [pending_energy] обеспечение энергией
    [ready] в очереди на отправку
    [broadcasting] отправляется в сеть
    [confirming] отправлена, ждёт подтверждения
    [confirmed] в блокчейне
    [failed] не доставлена, средства возвращены
    [expired] не подтверждена вовремя, средства возвращены
   *[other] новый для меня статус сервиса, запись ещё в работе
}
tracking-status-shown = { $status } ({ $meaning })
tracking-order-card = <b>Заказ</b> { $orderId }
    Статус: { $status }
    Получатель: { $receiver }
    Энергия: { $amount } на { $duration }
    Списано: { $costTrx } TRX
tracking-order-progress = Уже делегировано: { $delegated } из { $amount }
tracking-broadcast-card = <b>Отправка</b> { $broadcastId }
    Статус: { $status }
    { $what }
    ID транзакции: { $txId }
    Отправитель: { $from }
    Получатель: { $to }
    Комиссия: { $feeTrx } TRX
tracking-broadcast-usdt = Перевод USDT: <b>{ $amount } USDT</b>
tracking-broadcast-usdt-unknown = Перевод USDT
tracking-broadcast-trx = Перевод TRX: <b>{ $amount } TRX</b>
tracking-broadcast-contract = Другой вызов контракта ({ $contractType })
tracking-broadcast-contract-to = Другой вызов контракта ({ $contractType }) к { $contract }
tracking-broadcast-tron = Транзакция TRON (перевод TRX или другой вызов контракта)
tracking-broadcast-txid = Идентификатор в сети (отличается от подписанного): { $broadcastTxid }
tracking-broadcast-confirming-note = Отправлена в сеть и ждёт подтверждения. Это ещё не окончательный результат.
tracking-time-left = { $minutes } мин { $seconds } с
tracking-seen = Новое в вашем аккаунте:
tracking-order-fulfilled = ✅ Заказ { $orderId } <b>выполнен</b>: { $amount } энергии делегировано на { $receiver } на { $duration }.
tracking-rent-again-button = 🔁 Арендовать снова
tracking-broadcast-confirmed = ✅ Отправка { $broadcastId } <b>подтверждена</b> в сети.
    ID транзакции: { $txId }
tracking-broadcast-failed = ❌ Отправка { $broadcastId } <b>не удалась</b>.
    { $reason }
    Возврат: { $refundTrx } TRX вернулись на баланс.
    Ту же подписанную транзакцию { $txId } можно отправить снова через /broadcast, пока не истёк её срок (осталось { $timeLeft }); после этого подпишите новую.
tracking-broadcast-failed-resign = ❌ Отправка { $broadcastId } <b>не удалась</b>.
    { $reason }
    Возврат: { $refundTrx } TRX вернулись на баланс.
    Транзакция { $txId } слишком близка к истечению, повторно её не отправить: подпишите новую со сроком около 600 секунд и используйте /broadcast.
tracking-broadcast-expired = ⌛ Срок отправки { $broadcastId } <b>истёк</b>.
    { $reason }
    Возврат: { $refundTrx } TRX вернулись на баланс.
    Транзакцию { $txId } больше нельзя использовать: подпишите новую со сроком около 600 секунд и отправьте через /broadcast.
tracking-gave-up = Я перестал следить за { $kind ->
    [order] заказом
   *[other] отправкой
} { $id } (последний статус: { $status }). Проверить можно в любой момент: { $command }.
tracking-not-found = ⚠️ Уже { $minutes } мин. сервис не находит { $kind ->
    [order] заказ
   *[other] отправку
} { $id }, хотя эта запись уже была в вашем аккаунте. Я перестал за ней следить. Нажмите «Обновить», чтобы проверить ещё раз, или найдите её в личном кабинете; команда { $command } работает в любой момент. Если запись так и не найдётся, напишите в поддержку и укажите этот номер.
## Почему отправка не прошла: известная причина — фразой, любая другая — словом сервиса в коде ($code).
tracking-reason = { $reason ->
    [delivery_failed] Причина: сервису не удалось передать транзакцию в сеть.
    [expired_before_confirmation] Причина: срок транзакции истёк раньше, чем сеть её подтвердила.
   *[other] Сервис указал причину, которой я не знаю: { $code }
}
tracking-reason-none = Сервис не указал причину.

## Подтверждения, разрешённые после перезапуска
recovery-order-refused = ⚠️ Заказ, который вы подтвердили до перезапуска бота, не размещён, и за него ничего не списано:
    { $reason }
recovery-broadcast-refused = ⚠️ Транзакция { $txId }, которую вы подтвердили до перезапуска бота, не принята, и за неё ничего не списано:
    { $reason }
recovery-broadcast-expired-unknown = ⚠️ Не удалось узнать, принята ли транзакция { $txId }, которую вы подтвердили до перезапуска бота: за это время она истекла, и отправить её снова нельзя. Если она была принята, результат придёт в этот чат, когда сервис о нём сообщит; транзакцию также можно найти по её id в обозревателе блоков.
account-placed-in-chat = ↪ Оформлено из другого чата этого аккаунта: { $chat }.
tracking-broadcast-paid-no-trx = Отправитель не платил TRX за энергию: её оплатил ваш баланс.
