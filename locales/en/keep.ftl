## Keep-charged plans (/keep)

keep =
    .description = Keep an address charged: renew its energy automatically
keep-usage = Usage: <code>/keep address amount duration [options]</code>, for example <code>/keep TXYZ… 100k 1h</code>. Durations: { $durations }. Options: <code>until=18:00</code> or <code>until=2h</code> (default: until you stop it), <code>cap=20</code> (TRX per day for this plan), <code>hours=09:00-18:00</code> (only renew within these hours), <code>tz=Europe/Berlin</code> or <code>tz=+03:00</code> (the time zone of its days and hours; default: your chat's, set in /settings). Send /keep alone to see your plans.
keep-bad-until = “{ $value }” is not an end time: use a time such as <code>until=18:00</code>, a date and time such as <code>until=2026-12-01T18:00</code>, or a duration such as <code>until=2h</code>.
keep-bad-cap = “{ $value }” is not a daily cap: use an amount in TRX such as <code>cap=20</code> or <code>cap=2.5</code>.
keep-bad-hours = “{ $value }” are not active hours: use <code>hours=09:00-18:00</code> (or <code>22-06</code> across midnight).
keep-bad-tz = “{ $value }” is not a time zone: use a name such as <code>tz=Europe/Berlin</code> or an offset such as <code>tz=+03:00</code>.
keep-bad-unknown = Unknown option “{ $value }”. Options: <code>until=</code>, <code>cap=</code>, <code>hours=</code>, <code>tz=</code>.
keep-draft-title = <b>🔁 Keep charged</b>
keep-terms-what = { $amount } energy for { $duration } at a time to { $address }
keep-terms-until-stopped = Runs until you stop it.
keep-terms-until = Runs until { $at }.
keep-terms-cap = At most { $capTrx } TRX per day.
keep-terms-hours = Renews only between { $hours } ({ $timeZone }).
keep-draft-price = Each order costs { $slotTrx } TRX at today's price, one every { $duration }: about { $dayTrx } TRX per day if it runs all day.
keep-draft-cap-all = Each order costs { $slotTrx } TRX at today's price, one every { $duration }: all { $slots } orders of a day fit under the cap of { $capTrx } TRX, at most { $dayTrx } TRX per day.
keep-draft-cap-some = Each order costs { $slotTrx } TRX at today's price, one every { $duration }. The cap of { $capTrx } TRX lets { $orders } of the { $slots } orders of a day through: at most { $dayTrx } TRX per day, energy for { $covered } of the day; then the plan waits for the next day.
keep-draft-cap-none = Each order costs { $slotTrx } TRX at today's price, more than the cap of { $capTrx } TRX: this plan would place no order. Set a cap of at least { $slotTrx } TRX.
keep-draft-cap-default = The cap of { $capTrx } TRX per day was chosen for you: { $why ->
        [limit] your daily spending limit
       *[day] one day of orders at today's price
    }. To choose another, send <code>/keep { $address } { $amount } { $durationArg } cap=…</code>.
keep-draft-note = Start places the first order now; each next one is placed shortly before the current delegation ends, at the price of that moment.
keep-confirm-button = ✅ Start
keep-cancel-button = Cancel
keep-draft-cancelled = The plan was not started.
keep-started = 🔁 Plan started.
keep-started-app = 🔁 Plan started from the app.
keep-edit-app-button = ✏️ Edit in app
keep-refused-frozen = ❄️ Spending from this account is frozen, so no plan starts or resumes. Unfreeze it in /limits first.
keep-list-empty = You have no plans. Tap “➕ New plan”, send <code>/keep address amount duration</code>, or tap “Keep charged” under an order.
keep-list-title = <b>🔁 Your plans</b>
keep-plan-title = <b>{ $n }.</b> Orders placed: { $slots }
keep-plan-spent = Spent today { $todayTrx } TRX, in total { $totalTrx } TRX.
keep-state-first = ⏳ Placing the first order.
keep-state-active = ▶️ Running.
keep-state-delivery = ▶️ Running: waiting for the current order to be delivered.
keep-state-lead = ▶️ Running: next order at { $at }.
keep-state-hours = 🌙 Outside the active hours: next order at { $at }.
keep-state-cap = 🧢 Daily cap reached: next order at { $at }.
keep-state-paused-user = ⏸ Paused.
keep-state-paused-balance = ⏸ Paused: the balance is too low. It resumes by itself after a top-up.
keep-state-paused-limits = ⏸ Paused by your spending limits.
keep-state-stopped-user = ⏹ Stopped.
keep-state-stopped-ended = ⏹ Ended: its end time has come.
keep-state-stopped-undeliverable = ⏹ Stopped: the service cannot deliver to this address.
keep-state-stopped-refused = ⏹ Stopped: the service refused the order.
keep-state-stopped-frozen = ⏹ Stopped: spending is frozen.
keep-state-stopped-unlinked = ⏹ Stopped: the account was unlinked.
keep-pause-n = ⏸ Pause { $n }
keep-resume-n = ▶️ Resume { $n }
keep-stop-n = ⏹ Stop { $n }
keep-refresh-button = 🔄 Refresh
keep-resume-button = ▶️ Resume
keep-stop-button = ⏹ Stop
keep-done-pause = Paused.
keep-done-resume = Resumed.
keep-done-stop = Stopped.
keep-already-stopped = This plan has already stopped.
keep-already-unchanged = Nothing to change.
keep-paused-balance = ⏸ The plan for { $address } is paused: the balance does not cover the next order ({ $requiredTrx } TRX).
keep-paused-balance-resumes = It resumes by itself once the top-up is credited.
keep-resumed-balance = ▶️ Top-up credited (balance { $availableTrx } TRX): the plan for { $address } goes on.
keep-paused-daily_cap = ⏸ The plan for { $address } is paused: your daily spending limit would be passed. Resume it when you are ready.
keep-paused-monthly_cap = ⏸ The plan for { $address } is paused: your monthly spending limit would be passed. Resume it when you are ready.
keep-capped = 🧢 The plan for { $address } reached its cap of { $capTrx } TRX for today. The next order is placed at { $at }.
keep-stopped-user = ⏹ The plan for { $address } is stopped.
keep-stopped-ended = ⏹ The plan for { $address } has ended: its end time has come.
keep-stopped-undeliverable = ⏹ The plan for { $address } is stopped: the service cannot deliver energy to this address (it is not an activated account, or it is a contract). Code { $code }.
keep-stopped-refused = ⏹ The plan for { $address } is stopped: the service refused the order (code { $code }).
keep-stopped-frozen = ⏹ The plan for { $address } is stopped: spending is frozen.
keep-stopped-unlinked = ⏹ The plan for { $address } is stopped: the account it was made for is no longer linked.
keep-new-button = ➕ New plan
keep-one-receiver = A plan keeps one address charged: send a single address or tap a recent one.
keep-ask-options = Any limits? Tap them below: they combine, and each tap draws the plan again. ✏️ Custom to type them. Then ✅ Done, or keep none for a plan that runs until you stop it.
keep-options-none-button = Until I stop it, no limits
keep-options-done-button = ✅ Done
keep-options-tonight-button = 🌙 Until tonight
keep-options-day-button = ⏱ For 24 h
keep-options-work-button = 🏢 Working hours 09–18
keep-options-cap-button = 🧢 { $capTrx } TRX/day
keep-options-chosen = • { $label }
keep-options-custom-button = ✏️ Custom
keep-options-custom = Send the limits as options, for example <code>until=18:00 cap=20 hours=09:00-18:00 tz=Europe/Berlin</code>: <code>until=</code> an end time (<code>18:00</code>, <code>2026-12-01T18:00</code>) or a duration (<code>2h</code>), <code>cap=</code> TRX per day for this plan, <code>hours=</code> the hours it renews in, <code>tz=</code> the time zone of its days and hours (default: your chat's). They join the limits tapped; what you type wins.
keep-pause-button = ⏸ Pause
keep-card-title = <b>🔁 Plan: keep charged</b>
keep-card-orders = Orders placed: { $slots }
keep-card-last = Last order { $orderId }: { $status }, { $at }
keep-day-title = <b>🔁 Your plans on { $date }</b>
keep-day-plan = { $address }: { $orders ->
    [one] { $orders } order
   *[other] { $orders } orders
}, { $spentTrx } TRX
keep-day-total = In total: { $orders ->
    [one] { $orders } order
   *[other] { $orders } orders
}, { $spentTrx } TRX.
