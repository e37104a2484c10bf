## Окончание делегирования, напоминания перед ним, повторная отправка после неудачи (docs/expiry.md)
## Время — в часовом поясе чата и с его указанием: $time — это «14:05 UTC+3» (docs/expiry.md).

expiry-in-seconds = меньше чем через минуту
expiry-in-minutes = через { $hours ->
    [0] { $minutes } мин
   *[other] { $minutes ->
        [0] { $hours } ч
       *[other] { $hours } ч { $minutes } мин
    }
}
expiry-delegation-until = ⏳ Энергия делегирована до <b>{ $time }</b> (закончится { $remaining }).
expiry-delegation-ended = ⌛ Делегирование закончилось в { $time }.
expiry-broadcast-resendable = Ту же подписанную транзакцию можно отправить снова кнопкой «Отправить снова» до { $time }.
expiry-broadcast-resign = Нужна заново подписанная транзакция (срок действия около 600 секунд), отправьте её через /broadcast.

expiry-remind-on-button = ⏰ Напомнить
expiry-remind-off-button = 🔕 Без напоминания
expiry-remind-set = Напомню в { $time }.
expiry-remind-cancelled = Напоминания по этому заказу не будет.
expiry-remind-too-late = Делегирование закончится слишком скоро для напоминания.
expiry-reminder = ⏰ Энергия для { $receiver } закончится в <b>{ $time }</b> ({ $remaining }).
    Заказ { $orderId }: { $amount } энергии на { $duration }.
    «Продлить» — тот же заказ ещё раз по свежей цене; «Держать заряженным» — бот будет продлевать сам.
expiry-extend-button = 🔁 Продлить
expiry-keep-button = ♻️ Держать заряженным

expiry-resend-button = 📤 Отправить снова
expiry-resent = 📤 Отправлено снова: отправка { $broadcastId }.
    Статус: { $status }
    Id транзакции: { $txId }
expiry-resend-already = Эта транзакция уже отправлена снова: отправка { $broadcastId }.
expiry-resend-not-failed = Отправлять снова нечего: статус отправки — { $status }.
expiry-resend-needs-resign = До истечения срока транзакции меньше 75 секунд, или бот её больше не хранит: подпишите новую со сроком около 600 секунд и отправьте через /broadcast.

expiry-settings-on = ⏰ Напоминания об окончании: вкл.
expiry-settings-off = 🔕 Напоминания об окончании: выкл.
expiry-settings-enabled = Напомню за несколько минут до окончания энергии по каждому заказу.
expiry-settings-disabled = Напоминания об окончании выключены (кнопка ⏰ «Напомнить» на карточке заказа всё равно работает).
