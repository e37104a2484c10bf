## Keep-charged plans (/keep)

keep =
    .description = Держать адрес заряженным: продлевать энергию автоматически
keep-usage = Формат: <code>/keep адрес количество срок [параметры]</code>, например <code>/keep TXYZ… 100к 1ч</code>. Сроки: { $durations }. Параметры: <code>until=18:00</code> или <code>until=2h</code> (по умолчанию — пока вы не остановите), <code>cap=20</code> (TRX в день на этот план), <code>hours=09:00-18:00</code> (продлевать только в эти часы), <code>tz=Europe/Moscow</code> или <code>tz=+03:00</code> (часовой пояс дней и часов плана; по умолчанию — пояс чата из /settings). Отправьте /keep без параметров, чтобы увидеть свои планы.
keep-bad-until = «{ $value }» — не время окончания: укажите время, например <code>until=18:00</code>, дату и время, например <code>until=2026-12-01T18:00</code>, или срок, например <code>until=2h</code>.
keep-bad-cap = «{ $value }» — не дневной лимит: укажите сумму в TRX, например <code>cap=20</code> или <code>cap=2,5</code>.
keep-bad-hours = «{ $value }» — не часы работы: укажите <code>hours=09:00-18:00</code> (или <code>22-06</code> через полночь).
keep-bad-tz = «{ $value }» — не часовой пояс: укажите название, например <code>tz=Europe/Moscow</code>, или смещение, например <code>tz=+03:00</code>.
keep-bad-unknown = Неизвестный параметр «{ $value }». Параметры: <code>until=</code>, <code>cap=</code>, <code>hours=</code>, <code>tz=</code>.
keep-draft-title = <b>🔁 Держать заряженным</b>
keep-terms-what = { $amount } энергии на { $duration } за раз для { $address }
keep-terms-until-stopped = Работает, пока вы не остановите.
keep-terms-until = Работает до { $at }.
keep-terms-cap = Не больше { $capTrx } TRX в день.
keep-terms-hours = Продлевает только с { $hours } ({ $timeZone }).
keep-draft-price = Каждый заказ стоит { $slotTrx } TRX по сегодняшней цене, один раз в { $duration }: около { $dayTrx } TRX в день, если работать весь день.
keep-draft-cap-all = Каждый заказ стоит { $slotTrx } TRX по сегодняшней цене, один раз в { $duration }: все { $slots } заказов за день укладываются в лимит { $capTrx } TRX, не больше { $dayTrx } TRX в день.
keep-draft-cap-some = Каждый заказ стоит { $slotTrx } TRX по сегодняшней цене, один раз в { $duration }. Лимит { $capTrx } TRX пропускает { $orders } из { $slots } заказов за день: не больше { $dayTrx } TRX в день, энергия на { $covered } из суток; дальше план ждёт следующего дня.
keep-draft-cap-none = Каждый заказ стоит { $slotTrx } TRX по сегодняшней цене — больше лимита { $capTrx } TRX: этот план не разместит ни одного заказа. Задайте лимит не меньше { $slotTrx } TRX.
keep-draft-cap-default = Лимит { $capTrx } TRX в день выбран за вас: { $why ->
        [limit] ваш дневной лимит расходов
       *[day] заказы на одни сутки по сегодняшней цене
    }. Чтобы задать другой, отправьте <code>/keep { $address } { $amount } { $durationArg } cap=…</code>.
keep-draft-note = «Запустить» размещает первый заказ сразу; каждый следующий размещается незадолго до конца текущего делегирования, по цене на тот момент.
keep-confirm-button = ✅ Запустить
keep-cancel-button = Отмена
keep-draft-cancelled = План не запущен.
keep-started = 🔁 План запущен.
keep-started-app = 🔁 План запущен из приложения.
keep-edit-app-button = ✏️ Изменить в приложении
keep-refused-frozen = ❄️ Расходы этого аккаунта заморожены, поэтому планы не запускаются и не возобновляются. Сначала разморозьте их в /limits.
keep-list-empty = У вас нет планов. Нажмите «➕ Новый план», отправьте <code>/keep адрес количество срок</code> или нажмите «Держать заряженным» под заказом.
keep-list-title = <b>🔁 Ваши планы</b>
keep-plan-title = <b>{ $n }.</b> Размещено заказов: { $slots }
keep-plan-spent = Потрачено сегодня { $todayTrx } TRX, всего { $totalTrx } TRX.
keep-state-first = ⏳ Размещаю первый заказ.
keep-state-active = ▶️ Работает.
keep-state-delivery = ▶️ Работает: жду доставки текущего заказа.
keep-state-lead = ▶️ Работает: следующий заказ в { $at }.
keep-state-hours = 🌙 Вне рабочих часов: следующий заказ в { $at }.
keep-state-cap = 🧢 Дневной лимит исчерпан: следующий заказ в { $at }.
keep-state-paused-user = ⏸ Приостановлен.
keep-state-paused-balance = ⏸ Приостановлен: не хватает баланса. Продолжится сам после пополнения.
keep-state-paused-limits = ⏸ Приостановлен вашими лимитами расходов.
keep-state-stopped-user = ⏹ Остановлен.
keep-state-stopped-ended = ⏹ Завершён: наступило время окончания.
keep-state-stopped-undeliverable = ⏹ Остановлен: сервис не может доставить энергию на этот адрес.
keep-state-stopped-refused = ⏹ Остановлен: сервис отклонил заказ.
keep-state-stopped-frozen = ⏹ Остановлен: расходы заморожены.
keep-state-stopped-unlinked = ⏹ Остановлен: аккаунт отключён.
keep-pause-n = ⏸ Пауза { $n }
keep-resume-n = ▶️ Продолжить { $n }
keep-stop-n = ⏹ Стоп { $n }
keep-refresh-button = 🔄 Обновить
keep-resume-button = ▶️ Продолжить
keep-stop-button = ⏹ Остановить
keep-done-pause = Приостановлено.
keep-done-resume = Продолжено.
keep-done-stop = Остановлено.
keep-already-stopped = Этот план уже остановлен.
keep-already-unchanged = Менять нечего.
keep-paused-balance = ⏸ План для { $address } приостановлен: баланса не хватает на следующий заказ ({ $requiredTrx } TRX).
keep-paused-balance-resumes = Он продолжится сам, как только пополнение будет зачислено.
keep-resumed-balance = ▶️ Пополнение зачислено (баланс { $availableTrx } TRX): план для { $address } продолжается.
keep-paused-daily_cap = ⏸ План для { $address } приостановлен: был бы превышен ваш дневной лимит расходов. Продолжите его, когда будете готовы.
keep-paused-monthly_cap = ⏸ План для { $address } приостановлен: был бы превышен ваш месячный лимит расходов. Продолжите его, когда будете готовы.
keep-capped = 🧢 План для { $address } исчерпал свой лимит { $capTrx } TRX на сегодня. Следующий заказ будет размещён в { $at }.
keep-stopped-user = ⏹ План для { $address } остановлен.
keep-stopped-ended = ⏹ План для { $address } завершён: наступило время окончания.
keep-stopped-undeliverable = ⏹ План для { $address } остановлен: сервис не может доставить энергию на этот адрес (аккаунт не активирован или это контракт). Код { $code }.
keep-stopped-refused = ⏹ План для { $address } остановлен: сервис отклонил заказ (код { $code }).
keep-stopped-frozen = ⏹ План для { $address } остановлен: расходы заморожены.
keep-stopped-unlinked = ⏹ План для { $address } остановлен: аккаунт, для которого он был создан, больше не подключён.
keep-new-button = ➕ Новый план
keep-one-receiver = План держит заряженным один адрес: отправьте один адрес или нажмите недавний.
keep-ask-options = Есть ограничения? Выберите их кнопками ниже: они сочетаются, и после каждого нажатия план показывается заново. «✏️ Вручную» — ввести их текстом. Затем «✅ Готово» или без ограничений — тогда план работает, пока вы его не остановите.
keep-options-none-button = Пока не остановлю, без ограничений
keep-options-done-button = ✅ Готово
keep-options-tonight-button = 🌙 До конца дня
keep-options-day-button = ⏱ На 24 ч
keep-options-work-button = 🏢 Рабочие часы 09–18
keep-options-cap-button = 🧢 { $capTrx } TRX/день
keep-options-chosen = • { $label }
keep-options-custom-button = ✏️ Вручную
keep-options-custom = Пришлите ограничения параметрами, например <code>until=18:00 cap=20 hours=09:00-18:00 tz=Europe/Moscow</code>: <code>until=</code> — время окончания (<code>18:00</code>, <code>2026-12-01T18:00</code>) или срок (<code>2h</code>), <code>cap=</code> — TRX в день на этот план, <code>hours=</code> — часы, в которые он продлевает, <code>tz=</code> — часовой пояс его дней и часов (по умолчанию — пояс чата). Они добавляются к выбранным кнопками; введённое текстом важнее.
keep-pause-button = ⏸ Пауза
keep-card-title = <b>🔁 План: держать заряженным</b>
keep-card-orders = Размещено заказов: { $slots }
keep-card-last = Последний заказ { $orderId }: { $status }, { $at }
keep-day-title = <b>🔁 Ваши планы за { $date }</b>
keep-day-plan = { $address }: { $orders ->
    [one] { $orders } заказ
    [few] { $orders } заказа
   *[other] { $orders } заказов
}, { $spentTrx } TRX
keep-day-total = Всего: { $orders ->
    [one] { $orders } заказ
    [few] { $orders } заказа
   *[other] { $orders } заказов
}, { $spentTrx } TRX.
