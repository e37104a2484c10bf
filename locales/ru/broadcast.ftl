## Broadcast feature: /broadcast

broadcast =
    .description = Отправить подписанную транзакцию с энергией

broadcast-ask = Пришлите <b>подписанную</b> транзакцию в виде JSON-текста или файла .json (с полями <code>txID</code>, <code>raw_data</code>, <code>raw_data_hex</code> и <code>signature</code>). Я проверю её, прежде чем что-либо отправлять.
    Никогда не присылайте приватный ключ или сид-фразу: подпишите транзакцию в кошельке и пришлите только результат.
broadcast-secret-deleted = 🔒 Я убрал ваше сообщение: оно похоже на { $kind ->
    [mnemonic] сид-фразу
   *[other] приватный ключ
}, а этому боту они не нужны, только подписанные транзакции. Если это действительно был секрет кошелька, надёжнее перевести средства на новый кошелёк: сообщение было какое-то время видно в этом чате. Если это было что-то другое, ничего не потеряно: сообщение просто удалено.

broadcast-refused-not-json = Это не корректный JSON. Пришлите подписанную транзакцию в том виде, в каком её выдал кошелёк.
broadcast-refused-not-json-at = Это не корректный JSON: ошибка в строке { $line }, символ { $column }. Пришлите подписанную транзакцию в том виде, в каком её выдал кошелёк.
broadcast-refused-not-json-end = Это не корректный JSON: текст обрывается раньше времени (строка { $line }, символ { $column }), вероятно, часть потерялась. Пришлите транзакцию целиком или файлом .json.
broadcast-refused-too-large = Транзакция больше 1 МиБ, а подписанная транзакция занимает всего несколько килобайт. Ничего не отправлено.
broadcast-refused-not-object = Это не объект транзакции. Пришлите JSON подписанной транзакции с полями <code>txID</code>, <code>raw_data</code>, <code>raw_data_hex</code> и <code>signature</code>.
broadcast-refused-malformed = Транзакция неполная или не читается: { $detail }. Ничего не отправлено.
broadcast-refused-txid-mismatch = <code>txID</code> не равен <code>sha256(raw_data_hex)</code>: транзакцию изменили после создания (заявлен { $declared }, по байтам выходит { $derived }). Подпишите её заново.
broadcast-refused-raw-data-mismatch = <code>raw_data</code> не совпадает с <code>raw_data_hex</code>: { $detail }. JSON описывает не то, что было подписано. Пришлите транзакцию ровно в подписанном виде.
broadcast-refused-no-signature = Транзакция не подписана. Сначала подпишите её в кошельке, затем пришлите сюда.
broadcast-refused-bad-signature = Подпись не соответствует отправителю: отправитель — { $owner }, а подписал { $signers }. Подпишите транзакцию кошельком отправителя.
broadcast-refused-multiple-contracts = В транзакции несколько контрактов ({ $count }); отправить можно только один вызов контракта.
broadcast-refused-expired = Срок истёк: транзакция уже просрочена или до её истечения меньше 30 секунд. Подпишите новую со сроком около 600 секунд.
broadcast-refused-insufficient-time = Слишком мало времени: до истечения транзакции осталось { $seconds } с, меньше 75 секунд. Подпишите новую со сроком около 600 секунд.
broadcast-refused-pricing-unavailable = Цены сейчас недоступны, поэтому не получается оценить комиссию. Попробуйте через минуту.

broadcast-summary-title = <b>Проверьте перед отправкой</b>
broadcast-kind-usdt = Перевод USDT: <b>{ $amount } USDT</b>
broadcast-kind-trx = Перевод TRX: <b>{ $amount } TRX</b>
broadcast-kind-contract = Другой вызов контракта ({ $contractType }) к { $contract }
broadcast-summary-from = Отправитель: { $address }
broadcast-summary-to = Получатель: { $address }
broadcast-summary-txid = Идентификатор транзакции: { $txId }
broadcast-summary-time-left = Осталось времени: { $timeLeft }
broadcast-summary-energy-usdt = Оценка энергии: около { $holder } или около { $firstTime }, если получатель ещё никогда не держал USDT.
broadcast-summary-fee-usdt = Оценка комиссии по базовой цене { $unitPriceSun } sun: { $holderTrx } TRX или { $firstTimeTrx } TRX для нового получателя.
broadcast-summary-energy = Оценка энергии: около { $units }; комиссия по базовой цене { $unitPriceSun } sun: около { $feeTrx } TRX.
broadcast-summary-bandwidth = Оценка пропускной способности (bandwidth): около { $units }; комиссия по базовой цене { $unitPriceSun } sun: около { $feeTrx } TRX.
broadcast-summary-confirm-hint = Комиссия списывается, когда сервис принимает транзакцию, и возвращается, если отправка завершится неудачей или истечёт срок.
broadcast-confirm-button = ✅ Подтвердить
broadcast-cancel-button = Отмена
broadcast-retry-button = 🔁 Повторить
broadcast-cancelled = Отправка отменена. Ничего не отправлено и не списано.
broadcast-already-submitted = Эта транзакция уже отправлена.
broadcast-accepted = Отправка { $broadcastId } принята: { $status }.
broadcast-duplicate-known = Эта транзакция уже отправлена: отправка { $broadcastId } (транзакция { $txId }), статус { $status }. Повторно ничего не списано.
broadcast-duplicate-unknown = У сервиса уже есть отправка транзакции { $txId } — в процессе или подтверждённая, а в этом чате о ней нет записи. Повторно ничего не списано. Если её отправил ваш аккаунт, новости о ней придут в этот чат, когда сервис о них сообщит; транзакцию также можно найти по её id в обозревателе блоков.
broadcast-known-active = Эта транзакция { $txId } уже отправлена: отправка { $broadcastId }, статус { $status }. Дважды сервис её не примет, поэтому подтверждать нечего и ничего нового не списано. Следите за ней через { $track }.
broadcast-known-failed = Обратите внимание: предыдущая отправка этой транзакции, { $broadcastId }, завершилась со статусом { $status }. Ту же подписанную транзакцию можно отправить снова, пока не истёк её срок.
broadcast-known-expired = Обратите внимание: предыдущая отправка этой транзакции, { $broadcastId }, завершилась со статусом { $status }. Сервис примет её снова, но в прошлый раз она не успела подтвердиться: надёжнее подписать новую транзакцию со сроком около 600 секунд.

## Что делает транзакция, по подписанным байтам (системные контракты расходуют bandwidth, а не энергию)
broadcast-refused-unsupported-contract = Этот вид контракта ({ $contract }) я прочитать не могу: не покажу, что он делает, и сервис не сможет его обеспечить. Ничего не отправлено.
broadcast-refused-too-many-signatures = В транзакции подписей: { $count }, а сеть допускает не больше { $max }; блокчейн её отклонит. Подпишите заново только нужными ключами.
broadcast-refused-signature-format = Подпись № { $index } не читается так, как её читает блокчейн: { $detail }. Отправьте транзакцию ровно в том виде, в каком её подписал кошелёк.
broadcast-refused-duplicate-signature = Один и тот же подписант встречается дважды ({ $signer }); блокчейн это отклоняет. Оставьте по одной подписи на ключ и отправьте снова.
broadcast-refused-extra-signature = В транзакции подписей: { $count }, больше, чем ключей у владельца (подписал также { $others }); блокчейн её отклонит. Отправьте её только с подписью владельца.
broadcast-refused-permission-not-owner = Транзакция подписана через мультиподписное разрешение № { $permissionId } ключом { $signers }, а не владельцем { $owner }. Сервис сверяет подпись с адресом владельца и потому её отклонит. Подпишите её ещё и ключом владельца или отправьте в сеть сами.
broadcast-malformed-hostile-field = в JSON есть поле { $field }, которого не бывает ни в одной транзакции
broadcast-malformed-too-deep = вложенность JSON глубже { $depth } уровней
broadcast-malformed-shape-hex64 = { $field } должен состоять из 64 шестнадцатеричных символов
broadcast-malformed-shape-hex = { $field } должен быть непустой шестнадцатеричной строкой
broadcast-malformed-shape-object = { $field } должен быть объектом
broadcast-malformed-shape-hex-list = { $field } должен быть списком шестнадцатеричных строк
broadcast-malformed-bytes-unreadable = подписанные байты (<code>raw_data_hex</code>) не удаётся разобрать
broadcast-malformed-no-contract = в подписанных байтах нет ни одного контракта
broadcast-malformed-no-owner = в контракте не указан отправитель (<code>owner_address</code>)
broadcast-malformed-expiration-out-of-range = срок действия вне допустимого диапазона
broadcast-mismatch-field-differs = { $field } расходится с подписанными байтами
broadcast-mismatch-field-missing = нет поля { $field }
broadcast-mismatch-contract-type-differs = { $field } называет { $claimed }, а в подписанных байтах { $signed }
broadcast-mismatch-contracts-differ = список контрактов не совпадает с подписанными (их { $count })
broadcast-signature-not-hex = она не шестнадцатеричная
broadcast-signature-size = её длина { $size } байт вместо { $expected }
broadcast-signature-header = её байт восстановления равен { $header }, это вне допустимого диапазона
broadcast-signature-value-range = её значение { $part } вне допустимого диапазона
broadcast-signature-recovery-id-unsupported = её номер восстановления не поддерживается
broadcast-signature-unrecoverable = из неё не восстанавливается открытый ключ
broadcast-contract-type-number = тип контракта № { $number }
broadcast-refused-expiration-too-far = Срок действия истекает больше чем через 24 часа, а блокчейн такое отклоняет. Подпишите новую транзакцию со сроком около 600 секунд.
broadcast-kind-trc20 = Перевод токена по контракту { $contract }: <b>{ $amount }</b> в минимальных единицах токена (его знаки после запятой здесь неизвестны)
broadcast-kind-freeze = Застейкать <b>{ $amount } TRX</b> ради { $resource ->
    [ENERGY] энергии
    [TRON_POWER] TRON Power
   *[BANDWIDTH] пропускной способности
}
broadcast-kind-unfreeze = Вывести из стейкинга <b>{ $amount } TRX</b>, застейканные ради { $resource ->
    [ENERGY] энергии
    [TRON_POWER] TRON Power
   *[BANDWIDTH] пропускной способности
} (TRX вернутся после периода ожидания)
broadcast-kind-unfreeze-all = Вывести из стейкинга все TRX, застейканные ради { $resource ->
    [ENERGY] энергии
    [TRON_POWER] TRON Power
   *[BANDWIDTH] пропускной способности
} (Stake 1.0)
broadcast-kind-delegate = Передать другому аккаунту { $resource ->
    [ENERGY] энергию
   *[BANDWIDTH] пропускную способность
} от <b>{ $amount } TRX</b> стейка{ $lock ->
    [yes] , с блокировкой на время
   *[no] {""}
}
broadcast-kind-undelegate = Забрать { $resource ->
    [ENERGY] энергию
   *[BANDWIDTH] пропускную способность
} от <b>{ $amount } TRX</b> стейка, переданную другому аккаунту
broadcast-kind-withdraw-unfreeze = Забрать выведенные из стейкинга TRX, у которых закончился период ожидания
broadcast-kind-withdraw-balance = Забрать награды аккаунта за голосование и блоки
broadcast-kind-cancel-unfreeze = Отменить все незавершённые выводы из стейкинга (TRX снова застейкаются, созревшие будут выведены)
broadcast-kind-account-create = Активировать новый аккаунт (плату за создание платит отправитель)
broadcast-kind-vote = Голосование за { $count } суперпредставителей, всего голосов: { $total }
broadcast-summary-vote = Голос: { $address } × { $count }
broadcast-kind-transfer-asset = Перевод токена TRC10: <b>{ $amount }</b> токена { $asset }
broadcast-kind-contract-settings = Изменить настройки контракта ({ $contractType }) { $contract }
broadcast-kind-clear-abi = Удалить ABI, опубликованный для контракта { $contract } (список его функций, который читают кошельки и обозреватели); код и средства контракта не затрагиваются
broadcast-kind-account-update = Переименовать аккаунт
broadcast-summary-call-value = Вызов также отправляет контракту <b>{ $amount } TRX</b>.
broadcast-summary-permission = ⚠️ Подписано через разрешение №{ $permissionId } (мультиподпись). Сервис сверяет подпись с владельцем { $address }: там учитывается только подпись владельца.
broadcast-summary-memo = Заметка, подписанная вместе с транзакцией (получатель увидит её в блокчейне): <i>{ $memo }</i>
broadcast-summary-memo-hex = Заметка, подписанная вместе с транзакцией; прочитать её как текст нельзя (в шестнадцатеричном виде): { $memo }

## A Confirm whose answer was lost: the outcome is unknown until the same transaction is sent again (the service deduplicates it)
broadcast-unknown-checking = ⏳ Я отправил транзакцию { $txId }, но ответ сервиса потерялся, поэтому она могла быть принята. Я проверяю это сейчас и обновлю это сообщение. Не подписывайте и не отправляйте этот перевод повторно.
broadcast-unknown-pending = ⏳ Я всё ещё не знаю, принята ли транзакция { $txId }: сервис пока не ответил. Я продолжаю проверять в фоне и обновлю это сообщение, как только узнаю. Не подписывайте и не отправляйте этот перевод повторно: дважды плата не спишется.
broadcast-unknown-refused = ❌ Транзакция { $txId } не принята, и ничего не списано:
    { $reason }
broadcast-unknown-expired = ⚠️ Я не смог узнать, была ли принята транзакция { $txId }: срок её действия уже истёк, поэтому отправить её снова нельзя. Если она была принята, результат придёт в этот чат, когда сервис сообщит о нём; транзакцию также можно найти по её идентификатору в обозревателе блоков.
broadcast-unknown-accepted-unnamed = ✅ Транзакция { $txId } принята: у сервиса уже есть её отправка, но он не сообщил, какая именно. Обновления придут в этот чат, когда сервис сообщит о них; транзакцию также можно найти по её идентификатору в обозревателе блоков. Не подписывайте и не отправляйте этот перевод повторно.
