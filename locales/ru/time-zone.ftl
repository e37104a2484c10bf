## Часовой пояс чата (/settings)

time-zone-settings-button = 🕒 Часовой пояс: { $zone }
time-zone-title =
    🕒 <b>Часовой пояс</b>: { $zone }

    У чата один часовой пояс: всё время, которое показывает бот (карточки, напоминания, /orders, выписки, планы), — по нему, и по нему начинаются дни и месяцы в /limits. Выберите пояс или введите другой.
time-zone-unchosen = Пояс ещё не выбран: пока вы его не выберете, время показывается по { $zone } с указанием пояса.
time-zone-chosen = • { $zone }
time-zone-other-button = ⌨️ Другой пояс…
time-zone-ask = Пришлите часовой пояс: город (<code>Мадрид</code>, <code>Токио</code>), смещение от UTC (<code>UTC+3</code>, <code>GMT-5</code>) или имя IANA (<code>America/Sao_Paulo</code>).
time-zone-bad = «{ $value }» — такого часового пояса я не знаю. Пришлите город, например <code>Лондон</code>, смещение, например <code>UTC+3</code>, или имя IANA, например <code>Europe/Berlin</code>.
time-zone-uneven = «{ $value }» — смещение не в целых часах, и я не могу держать его круглый год. Пришлите лучше свой город или имя IANA, например <code>Australia/Adelaide</code>.
time-zone-saved = 🕒 Часовой пояс установлен: <b>{ $zone }</b>. Теперь всё время бот показывает по нему.
time-zone-saved-short = Часовой пояс: { $zone }

## Предложение под сообщением со временем, пока чат не выбрал пояс (docs/expiry.md, «Time zones»)
time-zone-offer = 🕒 { $place ->
    [moscow] Московское время
    [shanghai] Пекинское время
   *[other] { $zone }
} ({ $offset })
time-zone-offer-other = 🕒 Другой пояс
time-zone-offer-pick = 🕒 Указать часовой пояс
time-zone-offer-saved = 🕒 Теперь время { $place ->
    [moscow] московское
    [shanghai] пекинское
   *[other] по поясу { $zone }
} ({ $offset }). Изменить — в /settings.
time-zone-offer-older = В уже отправленных сообщениях время остаётся прежним.
