## The chat's time zone (/settings)

time-zone-settings-button = 🕒 Time zone: { $zone }
time-zone-title =
    🕒 <b>Time zone</b>: { $zone }

    Your chat has one time zone: it dates /orders and statements and decides where the days and months of /limits begin. Pick one, or type another.
time-zone-chosen = • { $zone }
time-zone-other-button = ⌨️ Another zone…
time-zone-ask = Send your time zone: a city (<code>Madrid</code>, <code>Tokyo</code>), a UTC offset (<code>UTC+3</code>, <code>GMT-5</code>) or an IANA name (<code>America/Sao_Paulo</code>).
time-zone-bad = “{ $value }” is not a time zone I know. Send a city such as <code>London</code>, an offset such as <code>UTC+3</code> or an IANA name such as <code>Europe/Berlin</code>.
time-zone-uneven = “{ $value }” is not a whole-hour offset I can keep all year. Send your city or its IANA name instead, for example <code>Australia/Adelaide</code>.
time-zone-saved = 🕒 Time zone set: <b>{ $zone }</b>. /orders, statements and /limits use it now.
time-zone-saved-short = Time zone: { $zone }
