## /start, /help, /cancel, /language

start-welcome =
    Hello, { $name }! I rent TRON energy for your transactions, so they need not burn TRX.
    { $prices }

    To begin, connect your account: send /link and paste the API key from the dashboard.
    Meanwhile, /prices shows the current prices and /system the service status.
start-welcome-linked =
    Welcome back, { $name }! Your account is connected.
    { $prices }

    /balance shows your balance and deposit address, /prices the current prices. Send /help for everything else.
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
