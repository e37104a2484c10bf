## /start, /help, /cancel, /language

start-welcome =
    Hello, { $name }! I rent TRON energy for your transactions, so they need not burn TRX.
    { $prices }

    To begin, connect your account: send /link and paste the API key from the dashboard.
    Meanwhile, /prices shows the current prices and /system the service status.

home-title = 🏠 <b>{ $name }</b>, your account is connected.
home-balance = 💰 Balance: <b>{ $availableTrx } TRX</b>
home-balance-no-wallet = 💰 The account has no deposit wallet yet: create it in the dashboard to top up.
home-balance-unreadable = 💰 The balance cannot be read right now; 💰 Balance tries again.
home-attention = <b>Needs your attention</b>
home-attention-frozen = 🧊 Spending is frozen: no order or renewal is charged until you unfreeze it.
home-attention-low-balance = ⚠️ The balance is under your alert level of { $thresholdTrx } TRX.
home-attention-plan-balance = ⏸ The plan for { $receiver } waits for a top-up.
home-attention-plan-paused = ⏸ The plan for { $receiver } is paused by your spending limits.
start-prices-cheaper = Today renting costs from { $unitPriceSun } sun per unit of energy ({ $tier }); burning TRX for it costs { $burnPriceSun } sun: { $percent }% less.
start-prices-dearer = Today renting costs from { $unitPriceSun } sun per unit of energy ({ $tier }); burning TRX for it costs { $burnPriceSun } sun, so renting is no cheaper right now.
start-prices-unavailable = Today's prices cannot be read right now: /prices shows what renting costs against burning TRX once the service answers.

help-title-private = <b>What I can do</b>
help-title-group = <b>Commands that work in groups</b>
help-section-everyday = <b>Every day</b>
help-section-orders = <b>Orders, sending, history</b>
help-section-account = <b>Account and settings</b>
help-group-private = Anything that touches your account works only in a private chat with @{ $username }.
help-inline = In any chat you can type <code>@{ $username } 100k 1h</code> to get a price quote.

cancel-done = Cancelled. Nothing was changed.
cancel-nothing = There is nothing to cancel right now.

language-choose = Choose your language:
language-changed = Done: I will speak English in this chat from now on.
