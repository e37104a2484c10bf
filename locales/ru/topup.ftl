## Пополнение и ожидание зачисления

topup-send =
    Отправьте не меньше <b>{ $sendTrx } TRX</b> на ваш адрес для пополнения (нажмите, чтобы скопировать):
    { $address }
topup-minimum-note = Переводы меньше { $minDepositTrx } TRX автоматически не зачисляются, поэтому отправьте не меньше { $minDepositTrx } TRX, хотя не хватает только { $shortfallTrx } TRX; остаток останется на балансе.
topup-watching = Я напишу сюда, как только деньги поступят.
topup-no-address = У вашего аккаунта ещё нет адреса для пополнения: создайте его в личном кабинете, затем пополните баланс.
topup-button = 💳 Пополнить
topup-covered = Вашего баланса ({ $availableTrx } TRX) уже хватает ({ $requiredTrx } TRX).
topup-credited-confirm = 💰 Пополнение зачислено: на балансе { $availableTrx } TRX, этого хватает на заказ ({ $requiredTrx } TRX). Нажмите «Подтвердить», чтобы его оформить.
topup-credited-retry = 💰 Пополнение зачислено: на балансе { $availableTrx } TRX, этого хватает на заказ ({ $requiredTrx } TRX). Нажмите «Повторить»: тот же заказ уйдёт с тем же ключом, поэтому дважды деньги не спишутся.
topup-credited-broadcast = 💰 Пополнение зачислено: на балансе { $availableTrx } TRX, этого хватает на отправку ({ $requiredTrx } TRX). Нажмите «Повторить», чтобы отправить её снова; одна транзакция никогда не оплачивается дважды.
topup-balance-waiting = Для операции, ждущей подтверждения, не хватает { $missingTrx } TRX: отправьте не меньше <b>{ $sendTrx } TRX</b> (переводы меньше { $minDepositTrx } TRX автоматически не зачисляются). Я сообщу, когда деньги поступят.
topup-balance-minimum = Отправляйте не меньше <b>{ $minDepositTrx } TRX</b> за один перевод: меньшие суммы автоматически не зачисляются.
topup-inline-short = На балансе { $availableTrx } TRX: сначала пополните не меньше чем на { $sendTrx } TRX
topup-inline-button = 💳 Пополнить минимум на { $sendTrx } TRX
topup-quote-placed = ✅ Подтверждено после пополнения: карточка заказа — ниже.
topup-on-card = Отправьте TRX на адрес с этой карточки, не меньше { $minDepositTrx } TRX за перевод.
