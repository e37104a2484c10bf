## Accounts: deep links followed before linking, quotes of an earlier link

account-deeplink-after-link = You opened an order for <b>{ $amount } energy for { $duration }</b>. Connect your account and I will continue right there: press Connect (or send /link) and paste the API key from the dashboard.
account-connect-button = 🔗 Connect
account-confirm-void = This was prepared before the chat was connected again, so it can no longer be confirmed. Nothing was sent. Please start again.
