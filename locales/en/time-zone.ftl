## The chat's time zone (/settings)

time-zone-settings-button = 🕒 Time zone: { $zone }
time-zone-title =
    🕒 <b>Time zone</b>: { $zone }

    Your chat has one time zone: every time the bot shows (cards, reminders, /orders, statements, plans) is in it, and the days and months of /limits begin at its midnight. Pick one, find your city, or pick your UTC offset.
time-zone-unchosen = Not picked yet: until you pick one, times are shown in { $zone } and say so.
time-zone-chosen = • { $zone }
time-zone-city-button = 🔎 Type a city
time-zone-offsets-button = 🕐 By UTC offset
time-zone-retry-button = 🔎 Try again
time-zone-fixed-button = { $offset }, no summer time
time-zone-page-previous = ⬅️ Previous
time-zone-page-next = Next ➡️
time-zone-page = Page { $page } of { $pages }.
time-zone-offsets-title = 🕐 <b>UTC offsets</b> as clocks show them now (summer time included). Yours: { $zone }. Pick one to see the places that keep it.
time-zone-offset-zones = 🕐 <b>{ $offset }</b> now. Pick the place whose clock you keep: its summer time comes with it.
time-zone-matches = Several zones match “{ $value }”{ $more ->
    [0] {""}
   *[other] {" "}(and { $more } more: type more of the name to narrow it)
}. Pick yours, or send another name.
time-zone-ask = 🔎 Send the name of your city, or its start: <code>Berlin</code>, <code>New York</code>, <code>Москва</code>, <code>上海</code>. A UTC offset (<code>UTC+3</code>, <code>GMT-5</code>) or an IANA name (<code>America/Sao_Paulo</code>) works too.
time-zone-bad = “{ $value }” is not a time zone I know. Check the spelling and send it again (a city such as <code>London</code>, an offset such as <code>UTC+3</code> or an IANA name such as <code>Europe/Berlin</code>), or pick your UTC offset.
time-zone-uneven = “{ $value }” is not a whole-hour offset I can keep all year. Send your city or its IANA name instead, for example <code>Australia/Adelaide</code>.
time-zone-saved = 🕒 Time zone set: <b>{ $zone }</b>. Every time the bot shows is in it now.
time-zone-saved-short = Time zone: { $zone }

## The offer under a message with times while the chat has picked no zone (docs/expiry.md, "Time zones")
time-zone-offer = 🕒 { $place ->
    [moscow] Moscow time
    [shanghai] Beijing time
   *[other] { $zone }
} ({ $offset })
time-zone-offer-other = 🕒 Another zone
time-zone-offer-pick = 🕒 Set my time zone
time-zone-offer-saved = 🕒 Times are now in { $place ->
    [moscow] Moscow time
    [shanghai] Beijing time
   *[other] { $zone }
} ({ $offset }). /settings changes it.
time-zone-offer-older = Messages sent before keep the times they show.
