## Часовой пояс чата (/settings)

time-zone-settings-button = 🕒 Часовой пояс: { $zone }
time-zone-title =
    🕒 <b>Часовой пояс</b>: { $zone }

    У чата один часовой пояс: всё время, которое показывает бот (карточки, напоминания, /orders, выписки, планы), — по нему, и по нему начинаются дни и месяцы в /limits. Выберите пояс, найдите свой город или выберите смещение от UTC.
time-zone-unchosen = Пояс ещё не выбран: пока вы его не выберете, время показывается по { $zone } с указанием пояса.
time-zone-chosen = • { $zone }
time-zone-city-button = 🔎 Ввести город
time-zone-offsets-button = 🕐 По смещению от UTC
time-zone-retry-button = 🔎 Ещё раз
time-zone-fixed-button = { $offset }, без летнего времени
time-zone-page-previous = ⬅️ Предыдущие
time-zone-page-next = Следующие ➡️
time-zone-page = Страница { $page } из { $pages }.
time-zone-offsets-title = 🕐 <b>Смещения от UTC</b>, какие часы показывают сейчас (с учётом летнего времени). Ваше: { $zone }. Выберите смещение, чтобы увидеть места, где оно действует.
time-zone-offset-zones = 🕐 <b>{ $offset }</b> сейчас. Выберите место, по часам которого вы живёте: его переход на летнее время будет учтён.
time-zone-matches = Подходит несколько поясов для «{ $value }»{ $more ->
    [0] {""}
   *[other] {" "}(и ещё { $more }: допишите название, чтобы сузить поиск)
}. Выберите свой или пришлите другое название.
time-zone-ask = 🔎 Пришлите название своего города или его начало: <code>Москва</code>, <code>Новосибирск</code>, <code>Berlin</code>, <code>上海</code>. Подойдёт и смещение от UTC (<code>UTC+3</code>, <code>GMT-5</code>) или имя IANA (<code>America/Sao_Paulo</code>).
time-zone-bad = «{ $value }» — такого часового пояса я не знаю. Проверьте написание и пришлите ещё раз (город, например <code>Лондон</code>, смещение, например <code>UTC+3</code>, или имя IANA, например <code>Europe/Berlin</code>) или выберите смещение от UTC.
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
