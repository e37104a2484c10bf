## Order feature: /order, /batch, quotes

order =
    .description = Арендовать энергию для адреса
batch =
    .description = Несколько заказов сразу (строки или файл .csv)

order-usage = Формат: <code>/order адрес количество срок</code>, например <code>/order TXYZ… 100к 1 ч</code> или <code>/order TXYZ… 65 000 15 минут</code>. Сроки: { $durations }. Или отправьте просто /order — я спрошу всё по шагам. Вместо адреса можно указать сохранённую метку, даже с пробелами: <code>/order основной кошелёк 100к 1 ч</code>.
order-oneshot-bad-receiver = «{ $value }» — это не корректный адрес TRON и не одна из ваших сохранённых меток. Проверьте и отправьте команду ещё раз.
order-oneshot-bad-amount = «{ $value }» — это не количество. Укажите целое число, например <code>100000</code>, <code>100к</code>, <code>1,5 тыс</code> или <code>65 000</code>.
order-oneshot-amount-range = Количество { $value } вне диапазона { $min }–{ $max }.
order-oneshot-bad-duration = Неизвестный срок { $value }. Доступны: { $durations }.
order-preset = Заказываем <b>{ $amount } энергии на { $duration }</b>, как в расчёте. Осталось указать получателя:
order-preset-amount-dropped = Ссылка просила { $amount } энергии, а заказать можно от { $min } до { $max }: укажите объём ниже.
order-preset-duration-dropped = Срок из ссылки больше не предлагается: выберите его ниже.
order-ask-receiver = Кому отправить энергию? Пришлите адрес TRON (base58, начинается с T). После адреса можно добавить метку, например <code>TXYZ… основной кошелёк</code>{ $recent ->
        [yes] , или выберите недавнего получателя.
       *[no] .
    }
    Чтобы оформить несколько заказов сразу, вставьте строки <code>адрес количество [срок]</code> или пришлите файл .csv.
order-recent-title = Недавние получатели:
order-recent-line = • { $address }
order-recent-line-labelled = • { $label }: { $address }
order-receiver-invalid = Это не похоже на адрес TRON: нужно 34 символа base58, начинающихся с T, с верной контрольной суммой. Проверьте и пришлите ещё раз.
order-receiver-saved = Адрес { $address } сохранён под меткой «{ $label }».
order-ask-amount = Сколько энергии? От { $min } до { $max }, например <code>100 тыс</code> или <code>65 000</code>.
order-amount-preset-65000 = 65к · один перевод USDT
order-amount-preset-131000 = 131к · новому получателю
order-amount-preset-200000 = 200к
order-amount-invalid = Пришлите целое число от { $min } до { $max }, например <code>100000</code>, <code>100к</code>, <code>1,5 тыс</code> или <code>65 000</code>.
order-amount-range = Количество должно быть от { $min } до { $max }.
order-ask-duration = На какой срок? Цена за единицу энергии:
order-duration-button = { $label } · { $unitPriceSun } sun
order-duration-invalid = Выберите срок кнопкой или напишите его, например <code>1 ч</code>, <code>15 минут</code> или <code>3600</code>.
order-duration-text = { $unit ->
    [h] { $count } ч
    [m] { $count } мин
   *[s] { $count } с
}
order-cancel-button = Отмена

order-quote-title = <b>Расчёт стоимости</b> (действует { $minutes } мин)
order-quote-item = Получатель: { $address }
    Энергия: { $amount } на { $duration }
    Цена за единицу: { $unitPriceSun } sun
order-quote-batch-title = <b>Расчёт для заказов: { $count }</b> (действует { $minutes } мин)
order-quote-batch-line = { $n }. { $address } · { $amount } на { $duration } · { $costTrx } TRX
order-quote-batch-more = …и ещё { $count }.
order-quote-total = Итого: <b>{ $totalTrx } TRX</b>
order-quote-balance = Баланс: { $balanceTrx } TRX, после заказа: { $afterTrx } TRX
order-quote-balance-short = Баланс: { $balanceTrx } TRX — не хватает { $missingTrx } TRX. Пополните счёт перед подтверждением.
order-quote-balance-unknown = Сейчас не удалось узнать баланс.
order-quote-no-wallet = У аккаунта ещё нет кошелька, поэтому платить пока нечем. Адрес для пополнения появится, когда кошелёк будет создан в личном кабинете; тогда его покажет /balance.
order-quote-confirm-button = ✅ Подтвердить
order-quote-retry-button = 🔁 Повторить
order-quote-fresh-button = Новый расчёт
order-quote-cancelled = Расчёт отменён. Ничего не списано.
order-quote-expired = Срок действия расчёта истёк: цены меняются, поэтому расчёт действует 10 минут. Ничего не списано. Нажмите кнопку ниже, чтобы получить новый.
order-quote-expired-short = Срок действия расчёта истёк.
order-already-placed = Этот заказ уже оформлен; оплата списана один раз.
order-cannot-cancel = Этот расчёт уже отправлен в сервис, отменить его нельзя.
order-placed-replayed = Этот заказ уже был оформлен раньше: это тот же заказ, оплата списана один раз.
order-insufficient = <b>На балансе не хватает средств для этого заказа.</b>
    Нужно: { $requiredTrx } TRX
    Доступно: { $availableTrx } TRX
    Не хватает: { $missingTrx } TRX
order-insufficient-required = <b>На балансе не хватает средств для этого заказа.</b> Нужно: { $requiredTrx } TRX.
order-insufficient-balance-unknown = Сейчас не удалось узнать баланс; /balance покажет его и адрес для пополнения.
order-insufficient-no-wallet = У аккаунта ещё нет кошелька, поэтому нет и адреса для пополнения. Адрес появится, когда кошелёк будет создан в личном кабинете; тогда его покажет /balance.
order-insufficient-no-address = У аккаунта ещё нет адреса для пополнения: создайте его в личном кабинете и пополните баланс.
order-insufficient-retry = Когда пополнение поступит, нажмите «Повторить»: будет отправлен тот же заказ с тем же ключом, поэтому двойного списания не будет.
order-retry-safe = «Повторить» отправляет тот же заказ с тем же ключом, поэтому двойного списания не будет.
order-quote-burn-saving = Сжечь TRX ради той же энергии стоило бы { $burnTrx } TRX (по { $price } sun за единицу): этот заказ экономит { $savingTrx } TRX.
order-quote-burn-same = Сжечь TRX ради той же энергии стоило бы столько же, { $burnTrx } TRX (по { $price } sun за единицу): этот заказ ничего не экономит.
order-quote-burn-extra = Сжечь TRX ради той же энергии стоило бы { $burnTrx } TRX (по { $price } sun за единицу): этот заказ на { $extraTrx } TRX дороже сжигания.
order-quote-second-tap = Сумма выше вашего порога повторного подтверждения ({ $thresholdTrx } TRX): после «Подтвердить» бот спросит ещё раз.
order-quote-blocked-frozen = ⛔ Расходы с этого аккаунта заморожены, поэтому этот расчёт нельзя подтвердить. Нажмите «▶️ Разморозить», чтобы снова разрешить расходы и получить расчёт заново.
order-quote-blocked-daily = ⛔ Этот заказ превысит ваш дневной лимит, поэтому его нельзя подтвердить: лимит { $capTrx } TRX, потрачено сегодня { $spentTrx } TRX, осталось { $leftTrx } TRX, этот заказ { $costTrx } TRX. Поднимите лимит в «⚙️ Лимиты», затем нажмите «🔄 Проверить снова».
order-quote-blocked-monthly = ⛔ Этот заказ превысит ваш месячный лимит, поэтому его нельзя подтвердить: лимит { $capTrx } TRX, потрачено в этом месяце { $spentTrx } TRX, осталось { $leftTrx } TRX, этот заказ { $costTrx } TRX. Поднимите лимит в «⚙️ Лимиты», затем нажмите «🔄 Проверить снова».
order-quote-blocked-no-wallet = ⛔ Подтвердить его можно только после того, как у аккаунта появится кошелёк. Нажмите «🔄 Проверить снова», когда личный кабинет его создаст.
order-quote-blocked-balance-unknown = ⛔ Подтвердить его можно только после того, как баланс будет прочитан. Нажмите «🔁 Повторить», чтобы прочитать его снова.
order-quote-unfreeze-button = ▶️ Разморозить
order-quote-limits-button = ⚙️ Лимиты
order-quote-check-button = 🔄 Проверить снова
order-quote-still-blocked = Пока нельзя: причина указана в расчёте.
order-receiver-contract = { $address } — контракт токена, а не кошелёк: сервис не может доставить на него энергию, поэтому расчёта нет. Отправьте адрес кошелька, с которого идут транзакции.
order-change-address-button = ✏️ Изменить адрес
order-undeliverable-contract = ⛔ Не размещено: по словам сервиса, { $address } — контракт, а контракт не может получать энергию. Ничего не списано.
order-undeliverable-inactive = ⛔ Не размещено: по словам сервиса, { $address } не может получать энергию, потому что это ещё не активированный аккаунт. Ничего не списано. Адрес активируется, когда впервые получает TRX.
order-undeliverable-change = Нажмите «✏️ Изменить адрес», чтобы отправить ту же энергию другому получателю.
order-undeliverable-batch = Сервис отклонил весь пакет: отправьте его снова без этого получателя или с верным адресом.
order-undeliverable-retry = Когда адрес будет активирован, «🔁 Повторить» отправит тот же заказ с тем же ключом, поэтому двойного списания не будет.
order-retry-same = Снова отказ: пока ничего не изменилось.

order-batch-ask = Вставьте заказы, по одному в строке: <code>адрес количество [срок]</code>. Или пришлите файл .csv. В одном пакете — до 100 заказов.
order-batch-ask-duration = { $count ->
    [one] В { $count } строке не указан срок. На какой срок её оформить?
    [few] В { $count } строках не указан срок. На какой срок их оформить?
   *[other] В { $count } строках не указан срок. На какой срок их оформить?
}
order-batch-empty = Я не нашёл ни одной строки заказа. Формат строки: <code>адрес количество [срок]</code>.
order-batch-too-many = Здесь { $count } заказов, а в пакете может быть не больше { $max }. Разделите список и отправьте частями.
order-batch-errors = Ничего не отправлено. Исправьте { $count ->
    [one] { $count } строку
    [few] { $count } строки
   *[other] { $count } строк
} и пришлите весь список заново:
order-batch-errors-more = …и ещё { $count }.
order-batch-error-line = Строка { $line }: { $reason }
order-batch-reason-bad-address = «{ $value }» — не адрес TRON
order-batch-reason-missing-amount = не указано количество
order-batch-reason-bad-amount = «{ $value }» — не целое число
order-batch-reason-amount-out-of-range = { $value } вне диапазона { $min }–{ $max }
order-batch-reason-bad-duration = срок «{ $value }» недоступен
order-batch-reason-too-many-fields = слишком много полей (нужно: адрес, количество, срок)
order-batch-reason-contract = { $value } — контракт токена, а не кошелёк

order-document-not-csv = Для пакета пришлите файл .csv (адрес, количество, срок в каждой строке).
order-document-too-large = Файл больше 1 МиБ — это слишком много.
order-document-unreadable = Не удалось прочитать файл. Пришлите его ещё раз или вставьте содержимое текстом.

order-prepare-pricing-unavailable = Цены сейчас недоступны. Попробуйте через минуту.
order-prepare-unknown-duration = Этот срок больше не предлагается. Начните заново с /order и выберите актуальный.
order-prepare-not-linked = Сначала привяжите API-ключ: /link

## A Confirm whose answer was lost: the same request goes again (the service replays it, charged once) until the outcome is known
order-unknown-checking = ⏳ Я отправил заказ, но ответ сервиса потерялся, поэтому заказ мог быть размещён. Я проверяю это, повторяя тот же запрос, и обновлю это сообщение. Не заказывайте повторно: дважды плата не спишется.
order-unknown-pending = ⏳ Я всё ещё не знаю, размещён ли заказ: сервис пока не ответил. Я продолжаю проверять в фоне и обновлю это сообщение, как только узнаю. Не заказывайте повторно: дважды плата не спишется.

## Адрес TRON, присланный отдельно: карточка быстрого заказа
quick-order-title = ⚡ Энергия для { $address }
quick-order-title-label = ⚡ Энергия для <b>{ $label }</b> { $address }
quick-order-uses = Один перевод USDT требует около { $holder } энергии на адрес, где уже есть USDT, и около { $firstTime } на адрес, где его никогда не было. Нажмите объём и срок (итог в TRX), затем «Подтвердить».
quick-order-preset = { $amount } · { $duration } · { $totalTrx } TRX
quick-order-amount = { $amount }к
quick-order-other-amount = ✏️ Другой объём
quick-order-save = 💾 Сохранить адрес
