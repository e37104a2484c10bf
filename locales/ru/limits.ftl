## /limits и /freeze: ограничения расходов

limits =
    .description = Лимиты расходов и заморозка
freeze =
    .description = Сразу заморозить все расходы этого аккаунта
limits-title = <b>Лимиты расходов этого аккаунта</b> (одни и те же во всех подключённых к нему чатах)
limits-daily = Лимит на день: { $cap } (потрачено сегодня: { $spentTrx } TRX)
limits-monthly = Лимит на месяц: { $cap } (потрачено в этом месяце: { $spentTrx } TRX)
limits-cap-value = { $capTrx } TRX, осталось { $leftTrx } TRX
limits-none = нет
limits-threshold = Второе нажатие свыше: { $threshold }
limits-threshold-value = { $thresholdTrx } TRX
limits-zone = Дни и месяцы считаются по поясу { $zone } — часовому поясу чата (по нему же датируются /orders и выписки; его можно изменить и в /settings).
limits-active = Расходы разрешены в пределах этих лимитов.
limits-frozen = ❄️ <b>Заморожено</b>: через меня с этого аккаунта ничего не тратится ни из одного его чата (заказы, пакеты, отправки, продления), пока вы не разморозите.
limits-scope = Лимиты учитывают всё, что этот аккаунт тратит через меня из любого подключённого к нему чата: заказы, пакеты, отправки транзакций (кроме возвращённых) и продления.
limits-daily-button = Лимит на день
limits-monthly-button = Лимит на месяц
limits-threshold-button = Порог второго нажатия
limits-zone-button = Часовой пояс
limits-freeze-button = ❄️ Заморозить
limits-unfreeze-button = ▶️ Разморозить
limits-clear-button = Без лимита
limits-no-limit-chosen = • Без лимита
limits-custom-button = ✏️ Своя сумма
limits-preset-button = { $amountTrx } TRX
limits-preset-chosen = • { $label }
limits-pick-daily = <b>Лимит на день</b>: нажмите сумму, «✏️ Своя сумма», чтобы ввести другую, или «Без лимита».
limits-pick-monthly = <b>Лимит на месяц</b>: нажмите сумму, «✏️ Своя сумма», чтобы ввести другую, или «Без лимита».
limits-pick-threshold = <b>Порог второго нажатия</b>: подтверждение суммы выше него требует второго нажатия. Нажмите сумму, «✏️ Своя сумма», чтобы ввести другую, или «Без лимита».
limits-ask-daily = Пришлите лимит на день в TRX, например <code>50</code> или <code>12,5</code>. «Без лимита» — среди вариантов на карточке.
limits-ask-monthly = Пришлите лимит на месяц в TRX, например <code>1 000</code> или <code>120,75</code>. «Без лимита» — среди вариантов на карточке.
limits-ask-threshold = Пришлите сумму в TRX, выше которой подтверждение требует второго нажатия, например <code>20</code>. «Без лимита» — среди вариантов на карточке.
limits-ask-zone = Пришлите часовой пояс: город (<code>Москва</code>, <code>Шанхай</code>), смещение от UTC (<code>UTC+3</code>) или имя IANA (<code>Europe/Moscow</code>).
limits-ask-text = Пришлите сумму текстом или /cancel.
limits-bad-amount = «{ $value }» — не сумма в TRX. Пишите цифрами, дробную часть — после запятой (не больше 6 знаков), например <code>50</code>, <code>12,5</code> или <code>1 000</code>.
limits-not-positive = Сумма должна быть больше 0 TRX. Чтобы убрать лимит, нажмите «Без лимита» на карточке.
limits-bad-zone = «{ $value }» — неизвестный часовой пояс. Пришлите город, например <code>Лондон</code>, смещение, например <code>UTC+3</code>, или имя IANA, например <code>Europe/Berlin</code>.
limits-saved = ✅ Сохранено.
limits-saved-above = ✅ Сохранено. Карточка выше показывает лимиты с учётом изменения.
limits-cleared = ✅ Лимит снят.
limits-frozen-done = ❄️ Заморожено. С этого аккаунта ничего не тратится ни в одном из его чатов, пока вы не нажмёте «Разморозить» в /limits. Планы поддержания энергии остановлены.
limits-unfrozen-done = ▶️ Разморожено. Расходы снова разрешены в пределах лимитов.
limits-refused-frozen = ⛔ Не отправлено: расходы с этого аккаунта заморожены. Ничего не списано. Нажмите «▶️ Разморозить» ниже, чтобы снова разрешить расходы.
limits-refused-daily =
    ⛔ Не отправлено: это превысило бы дневной лимит. Ничего не списано.
    Лимит: { $capTrx } TRX · потрачено сегодня: { $spentTrx } TRX · осталось: { $leftTrx } TRX
    Стоимость: { $costTrx } TRX
limits-refused-monthly =
    ⛔ Не отправлено: это превысило бы месячный лимит. Ничего не списано.
    Лимит: { $capTrx } TRX · потрачено в этом месяце: { $spentTrx } TRX · осталось: { $leftTrx } TRX
    Стоимость: { $costTrx } TRX
limits-refused-hint = Измените лимиты кнопкой «⚙️ Лимиты» ниже и нажмите «Подтвердить» ещё раз.
limits-confirm-again-button = ✅ Подтвердить ещё раз: { $costTrx } TRX
limits-confirm-again-note = Сумма выше порога второго нажатия: нажмите ещё раз для подтверждения.
