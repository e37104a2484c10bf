## Shared texts and the command menu

start =
    .description = Start and see what the bot can do
balance =
    .description = Balance and deposit address
prices =
    .description = Energy prices per duration
system =
    .description = Service status and pool liquidity
link =
    .description = Connect your API key
unlink =
    .description = Disconnect your API key
language =
    .description = Change the language
help =
    .description = How to use the bot
cancel =
    .description = Cancel the current step

duration-seconds = { $count } s
duration-minutes = { $count } min
duration-hours = { $count } h

language-name-en = 🇬🇧 English
language-name-ru = 🇷🇺 Русский
language-name-zh = 🇨🇳 中文

not-linked = This chat is not connected to an account yet. Send /link and paste your API key from the dashboard.
button-expired = This button has expired. Please start again.

group-private-only = { $command } only works in a private chat with me, so that keys and balances stay out of the group. Tap the button below and send it there.
group-private-only-short = This only works in a private chat with the bot.
group-open-private-button = Open private chat

unhandled-text = I did not understand that. Send /help to see what I can do.
unhandled-command = I do not know that command. Send /help for the list.
