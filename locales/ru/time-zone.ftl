## Часовой пояс чата (/settings)

time-zone-settings-button = 🕒 Часовой пояс: { $zone }
time-zone-title =
    🕒 <b>Часовой пояс</b>: { $zone }

    У чата один часовой пояс: по нему датируются /orders и выписки и начинаются дни и месяцы в /limits. Выберите пояс или введите другой.
time-zone-chosen = • { $zone }
time-zone-other-button = ⌨️ Другой пояс…
time-zone-ask = Пришлите часовой пояс в формате IANA, например <code>Europe/Madrid</code>, <code>Asia/Tokyo</code> или <code>America/Sao_Paulo</code>.
time-zone-bad = «{ $value }» — такого часового пояса я не знаю. Укажите имя IANA, например <code>Europe/Berlin</code> или <code>UTC</code>.
time-zone-saved = 🕒 Часовой пояс установлен: <b>{ $zone }</b>. Теперь его используют /orders, выписки и /limits.
time-zone-saved-short = Часовой пояс: { $zone }
