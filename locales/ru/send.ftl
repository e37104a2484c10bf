## Отправка USDT из своего кошелька: /send, ссылка на подпись и страница подписи

send =
    .description = Отправить USDT из своего кошелька с арендованной энергией

send-ask-recipient = <b>Отправка USDT</b> из вашего кошелька по цене арендованной энергии. Кому? Нажмите недавний адрес, вставьте адрес TRON или напишите сохранённую метку.
    В следующий раз одной строкой: <code>/send адрес сумма</code>
send-ask-amount = Сколько USDT отправить на { $address }? Нажмите сумму или напишите её (не больше 6 знаков после запятой).
send-bad-recipient = <b>{ $text }</b> — не адрес TRON и не сохранённая метка. Адрес TRON начинается с T и состоит из 34 символов.
send-bad-amount = <b>{ $text }</b> — не сумма в USDT. Напишите, например, 25 или 25,5 (не больше 6 знаков после запятой).
send-ambiguous-amount = <b>{ $text }</b> можно прочитать двояко: { $first } или { $second } USDT. Напишите дробную часть через запятую без разделителей тысяч, например 25,5.
send-zero-amount = Сумма должна быть больше нуля.
send-no-public-url = Для отправки из кошелька нужна страница подписи бота, а оператор бота не задал его публичный адрес (<code>PUBLIC_URL</code>). Пока можно подписать в другом месте и прислать результат через /broadcast.

send-lookalike = ⚠️ <b>Сверьте адрес посимвольно.</b> { $to } похож на { $known }, адрес, которым вы пользовались, но это другой адрес. Мошенники присылают «пыль» с таких двойников, чтобы адрес скопировали из истории. Продолжайте, только если уверены.
send-lookalike-label = Тот адрес, которым вы пользовались, сохранён как <b>{ $label }</b>.
send-quote-title = <b>Отправка USDT из вашего кошелька</b>
send-quote-to = Кому: { $address }
send-quote-to-label = Кому: <b>{ $label }</b> { $address }
send-quote-amount = Сумма: <b>{ $amount } USDT</b>
send-quote-fee = Плата за энергию с баланса: около { $holderTrx } TRX (около { $holderEnergy } энергии), или { $firstTimeTrx } TRX, если у получателя никогда не было USDT (около { $firstTimeEnergy } энергии).
send-quote-burn = Без аренды энергии кошелёк сжёг бы за тот же перевод около { $holderBurnTrx }–{ $firstTimeBurnTrx } TRX.
send-quote-how = После «Подтвердить» вы получите ссылку, чтобы подписать перевод в кошельке (TronLink, TokenPocket, OKX, Bitget). Кошелёк только подписывает, отправляю я; плата списывается, когда сервис примет перевод.
send-confirm-button = ✅ Подтвердить и подписать
send-confirm-anyway-button = ⚠️ Всё равно подтвердить
send-cancel-button = Отмена
send-cancelled = Отправка отменена. Ничего не подписано и не списано.

send-signing-title = <b>Подпишите в кошельке</b>: { $amount } USDT на { $address }
send-signing-how = Нажмите <b>«Подписать в кошельке»</b>, чтобы открыть страницу в браузере с кошельком, или откройте ссылку во встроенном браузере приложения кошелька (DApp-браузер), или отсканируйте QR-код кошельком на другом устройстве:
send-signing-expires = Ссылка одноразовая и действует до { $time }.
send-sign-button = ✍️ Подписать в кошельке
send-qr-button = 📷 QR-код
send-new-link-button = 🔗 Новая ссылка
send-qr-caption = Отсканируйте приложением кошелька, чтобы подписать: { $amount } USDT на { $address }.
send-link-dead = Эта ссылка на подпись больше не действует.

send-mismatch = ⛔ Транзакция, подписанная кошельком, не совпадает с тем, что вы подтвердили ({ $what }). Ничего не отправлено и не списано. Если вы не меняли её сами, не пользуйтесь этим кошельком или страницей для этого перевода.
send-mismatch-approve = в ней разрешение тратить ваши токены вместо перевода
send-mismatch-transfer_from = она переводит токены с чужого адреса
send-mismatch-other_method = она вызывает другой метод контракта
send-mismatch-other_contract = она на другом контракте токена
send-mismatch-other_recipient = она платит другому получателю
send-mismatch-other_amount = в ней другая сумма
send-mismatch-not_a_contract_call = это не перевод токена
send-mismatch-call_value = она заодно отправляет TRX
send-mismatch-extra_data = в ней лишние данные
send-wallet-sent-it = Кошелёк уже сам отправил эту транзакцию, поэтому сервис не принял её повторно и ничего не списано. Следите за ней в обозревателе: { $txId }.

## Страница подписи (простой текст: страница его экранирует)
sign-page-title = Отправка USDT
sign-page-from = Откуда
sign-page-to = Кому
sign-page-amount = Сумма
sign-page-fee = Плата за энергию
sign-page-fee-value = около { $holderTrx } TRX с баланса в боте, или { $firstTimeTrx } TRX, если у получателя никогда не было USDT
sign-page-network = Сеть
sign-page-network-mainnet = TRON, основная сеть
sign-page-network-nile = TRON, тестовая сеть Nile
sign-page-network-shasta = TRON, тестовая сеть Shasta
sign-page-connect = Подключить кошелёк
sign-page-sign = Подписать и отправить
sign-page-connecting = Запрашиваю аккаунт у кошелька…
sign-page-checking = Проверяю через узел кошелька…
sign-page-building = Готовлю перевод…
sign-page-signing = Подтвердите в кошельке: он только подписывает, отправляет бот.
sign-page-sending = Отправляю…
sign-page-done = Отправлено. Следите в чате: карточка там показывает каждый шаг.
sign-page-no-wallet = В этом браузере нет кошелька TRON.
sign-page-no-wallet-how = Откройте ссылку во встроенном браузере приложения кошелька: в TronLink, TokenPocket, OKX или Bitget нажмите «Обзор» (или «Браузер») и вставьте ссылку, или отсканируйте этот QR-код сканером кошелька.
sign-page-accounts-refused = Кошелёк не дал доступ к аккаунту. Разблокируйте его, разрешите эту страницу и попробуйте снова.
sign-page-wrong-network = Кошелёк в другой сети ({ $found }), а этот перевод в сети { $expected }. Переключите сеть в кошельке и обновите страницу.
sign-page-low-usdt = На этом аккаунте { $balance } USDT — меньше, чем { $amount } USDT. Перевод не пройдёт.
sign-page-low-bandwidth = У аккаунта сегодня мало бесплатной пропускной способности; сеть может сжечь немного TRX (намного меньше 1 TRX) за размер транзакции.
sign-page-energy = Энергии нужно для перевода: { $energy }.
sign-page-declined = Вы отклонили подпись в кошельке. Ничего не отправлено.
sign-page-failed = Что-то пошло не так: { $reason }
sign-page-link-dead = Ссылка больше не действует: её использовали, срок истёк или её не было. Попросите новую в чате с ботом.
sign-page-mismatch = Подписанная транзакция не совпадает с подтверждённой в чате, поэтому она не отправлена.
sign-page-already-sent = Кошелёк сам отправил эту транзакцию. Она уже в пути; подробности в чате.
sign-page-refused = Бот не отправил её: { $reason }
