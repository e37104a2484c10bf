## Tracking: status cards and notifications

tracking-status = { $status ->
    [pending] pending (в очереди)
    [matching] matching (подбор)
    [executing] executing (выполняется)
    [fulfilled] fulfilled (выполнен)
    [pending_energy] pending_energy (ожидает энергию)
    [ready] ready (готова)
    [broadcasting] broadcasting (отправляется)
    [confirming] confirming (ждёт подтверждения)
    [confirmed] confirmed (подтверждена)
    [failed] failed (не удалась)
    [expired] expired (истекла)
   *[other] { $status }
}
tracking-order-card = <b>Заказ</b> { $orderId }
    Статус: { $status }
    Получатель: { $receiver }
    Энергия: { $amount } на { $duration }
    Списано: { $costTrx } TRX
tracking-order-progress = Уже делегировано: { $delegated } из { $amount }
tracking-broadcast-card = <b>Отправка</b> { $broadcastId }
    Статус: { $status }
    { $what }
    Транзакция: { $txId }
    Отправитель: { $from }
    Получатель: { $to }
    Комиссия: { $feeTrx } TRX
tracking-broadcast-usdt = Перевод { $amount } USDT
tracking-broadcast-other = Транзакция вида { $kind }
tracking-broadcast-txid = Транзакция в сети: { $broadcastTxid }
tracking-broadcast-confirming-note = Отправлена в сеть и ждёт подтверждения. Это ещё не окончательный результат.
tracking-time-left = { $minutes } мин { $seconds } с
tracking-seen = Новое в вашем аккаунте:
tracking-order-fulfilled = ✅ Заказ { $orderId } <b>выполнен</b> (fulfilled): { $amount } энергии делегировано на { $receiver } на { $duration }.
tracking-rent-again-button = 🔁 Арендовать снова
tracking-broadcast-confirmed = ✅ Отправка { $broadcastId } <b>подтверждена</b> (confirmed) в сети.
    Транзакция: { $txId }
    Транзакция в сети: { $broadcastTxid }
tracking-broadcast-failed = ❌ Отправка { $broadcastId } <b>не удалась</b> (failed): { $reason }.
    Возврат: { $refundTrx } TRX вернулись на баланс.
    Ту же подписанную транзакцию { $txId } можно отправить снова через /broadcast, пока не истёк её срок (осталось { $timeLeft }); после этого подпишите новую.
tracking-broadcast-failed-resign = ❌ Отправка { $broadcastId } <b>не удалась</b> (failed): { $reason }.
    Возврат: { $refundTrx } TRX вернулись на баланс.
    Транзакция { $txId } слишком близка к истечению, повторно её не отправить: подпишите новую со сроком около 600 секунд и используйте /broadcast.
tracking-broadcast-expired = ⌛ Срок отправки { $broadcastId } <b>истёк</b> (expired): { $reason }.
    Возврат: { $refundTrx } TRX вернулись на баланс.
    Транзакцию { $txId } больше нельзя использовать: подпишите новую со сроком около 600 секунд и отправьте через /broadcast.
tracking-gave-up = Я перестал следить за { $kind ->
    [order] заказом
   *[other] отправкой
} { $id } (последний статус: { $status }). Проверить можно в любой момент: { $command }.
