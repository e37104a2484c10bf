## Часовой пояс чата (/settings)

time-zone-settings-button = 🕒 Часовой пояс: { $zone }
time-zone-title =
    🕒 <b>Часовой пояс</b>: { $zone }

    У чата один часовой пояс: по нему датируются /orders и выписки и начинаются дни и месяцы в /limits. Выберите пояс или введите другой.
time-zone-chosen = • { $zone }
time-zone-other-button = ⌨️ Другой пояс…
time-zone-ask = Пришлите часовой пояс: город (<code>Мадрид</code>, <code>Токио</code>), смещение от UTC (<code>UTC+3</code>, <code>GMT-5</code>) или имя IANA (<code>America/Sao_Paulo</code>).
time-zone-bad = «{ $value }» — такого часового пояса я не знаю. Пришлите город, например <code>Лондон</code>, смещение, например <code>UTC+3</code>, или имя IANA, например <code>Europe/Berlin</code>.
time-zone-uneven = «{ $value }» — смещение не в целых часах, и я не могу держать его круглый год. Пришлите лучше свой город или имя IANA, например <code>Australia/Adelaide</code>.
time-zone-saved = 🕒 Часовой пояс установлен: <b>{ $zone }</b>. Теперь его используют /orders, выписки и /limits.
time-zone-saved-short = Часовой пояс: { $zone }
