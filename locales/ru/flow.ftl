# A command, or a button that opens another flow, sent while a flow waits: the flow ends, and this comes before the new answer.
flow-left = { $flow ->
    [order] Оформление заказа прервано.
    [broadcast] Подготовка отправки прервана; ничего не отправлено.
    [link] Подключение API-ключа прервано; ничего не сохранено.
    [webhook-secret] Настройка секрета вебхука прервана; ничего не изменено.
    [keep] Настройка плана прервана; ничего не запущено.
   *[other] Текущий шаг прерван.
}

# Anything a step cannot take (a photo, a sticker, a voice message, a location, an edit…).
flow-waiting = Я жду { $what ->
    [receiver] TRON-адрес получателя (или несколько строк, или файл .csv)
    [amount] количество энергии
    [duration] срок аренды (нажмите кнопку или напишите его)
    [batch] заказы, по одному в строке, или файл .csv
    [broadcast] подписанную транзакцию в виде JSON-текста или файла .json
   *[other] ваш ответ
}; отправьте его текстом или нажмите /cancel.

# /cancel or a Cancel button also voided quotes and summaries still waiting for Confirm.
flow-cancelled-offers = Отменено. { $count ->
    [one] Расчёт или сводку, которые ещё на экране, больше нельзя подтвердить; ничего не списано.
   *[other] Расчёты и сводки, которые ещё на экране ({ $count }), больше нельзя подтвердить; ничего не списано.
}

# Confirm pressed on a quote or summary that was cancelled (its own Cancel, or /cancel): a short callback answer.
flow-offer-cancelled = Это было отменено, поэтому ничего не списано. Начните заново, чтобы оформить.
