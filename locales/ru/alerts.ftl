## /alerts и наблюдение за балансом

alerts =
    .description = Уведомления о балансе: пополнения, низкий баланс, чужие списания
alerts-deposit = 💰 Пополнение зачислено: +{ $amountTrx } TRX (баланс теперь { $balanceTrx } TRX).
alerts-deposit-line = Пополнение: +{ $amountTrx } TRX.
alerts-low = ⚠️ Низкий баланс: { $balanceTrx } TRX, ниже вашего порога { $thresholdTrx } TRX. Пополните через /balance (не меньше 10 TRX за перевод). Порог меняется в /alerts.
alerts-foreign = ⚠️ Баланс уменьшился на { $amountTrx } TRX, которые бот не тратил (другой ключ или панель управления?). Баланс теперь { $balanceTrx } TRX. Если это были не вы, отзовите ключ в панели управления.
alerts-title =
    <b>Уведомления о балансе</b>

    Пока этот чат подключён, я время от времени читаю баланс и сам сообщаю вам о событиях. Нажмите кнопку, чтобы переключить.
    Порог низкого баланса: { $threshold }.
    Нажмите сумму ниже, чтобы задать порог (✏️ — другая сумма, 🔕 — выключить уведомление), или введите { $command } (точно, в TRX); вернуть по умолчанию: { $reset }.
alerts-threshold-default = по умолчанию (ниже { $minTrx } TRX или ниже стоимости следующего автопродления, если она больше)
alerts-threshold-own = { $thresholdTrx } TRX
alerts-threshold-off = выкл. (уведомления о низком балансе нет)
alerts-threshold-chosen = • { $label }
alerts-threshold-default-button = По умолчанию
alerts-threshold-button = { $thresholdTrx } TRX
alerts-threshold-custom-button = ✏️ Другая сумма
alerts-threshold-custom-own = ✏️ { $thresholdTrx } TRX
alerts-low-off-button = 🔕 Выкл.
alerts-threshold-ask = Пришлите порог низкого баланса в TRX, например <code>25,5</code>, или <code>сброс</code> для порога по умолчанию. (Командой: { $command }; по умолчанию: { $reset }.)
alerts-threshold-ask-text = Пришлите порог текстом, например <code>25,5</code>, или /cancel.
alerts-threshold-toast = Уведомление, когда баланс ниже { $thresholdTrx } TRX.
alerts-threshold-toast-default = Уведомление о низком балансе по порогу по умолчанию.
alerts-usage = /alerts показывает и переключает уведомления, { $command } задаёт порог низкого баланса в TRX, { $reset } возвращает порог по умолчанию.
## The words and example amount of `/alerts threshold …` shown to the chat (any language's words are accepted).
alerts-word-threshold = порог
alerts-word-default = сброс
alerts-example-amount = 25,5
alerts-threshold-set = Порог низкого баланса задан: вы узнаете один раз, когда баланс опустится ниже { $thresholdTrx } TRX, и снова только после того, как он поднимется выше.
alerts-threshold-reset = Порог низкого баланса возвращён по умолчанию.
alerts-threshold-invalid-format = { $value } не похоже на сумму в TRX. Дробную часть пишите после запятой, не больше 6 знаков, например <code>25,5</code>.
alerts-threshold-invalid-negative = Порог не может быть отрицательным: { $value }.
alerts-threshold-invalid-too_large = { $value } больше наибольшего порога, { $maxTrx } TRX.
alerts-deposits-on = ✅ Пополнения: вкл.
alerts-deposits-off = 🔕 Пополнения: выкл.
alerts-foreign-on = ✅ Списания не через бота: вкл.
alerts-foreign-off = 🔕 Списания не через бота: выкл.
alerts-deposits-enabled = Уведомления о пополнениях включены.
alerts-deposits-disabled = Уведомления о пополнениях выключены.
alerts-low-enabled = Уведомление о низком балансе включено.
alerts-low-disabled = Уведомление о низком балансе выключено.
alerts-foreign-enabled = Сообщения о списаниях не через бота включены.
alerts-foreign-disabled = Сообщения о списаниях не через бота выключены.
