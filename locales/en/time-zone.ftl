## The chat's time zone (/settings)

time-zone-settings-button = 🕒 Time zone: { $zone }
time-zone-title =
    🕒 <b>Time zone</b>: { $zone }

    Your chat has one time zone: it dates /orders and statements and decides where the days and months of /limits begin. Pick one, or type another.
time-zone-chosen = • { $zone }
time-zone-other-button = ⌨️ Another zone…
time-zone-ask = Send your time zone as an IANA name, for example <code>Europe/Madrid</code>, <code>Asia/Tokyo</code> or <code>America/Sao_Paulo</code>.
time-zone-bad = “{ $value }” is not a time zone I know. Use an IANA name such as <code>Europe/Berlin</code> or <code>UTC</code>.
time-zone-saved = 🕒 Time zone set: <b>{ $zone }</b>. /orders, statements and /limits use it now.
time-zone-saved-short = Time zone: { $zone }
