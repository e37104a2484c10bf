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

group-language = In groups I answer everyone in their own Telegram language, so there is nothing to set here. /language works in a private chat with me.
group-hello = Hello! I rent TRON energy. In this group I answer /prices, /system and /help. Anything that touches your account (keys, balances, orders) works only in a private chat with me: tap the button below.
group-key-exposed = ⚠️ This message shows an API key to everyone in the group, and I am not allowed to delete it here. Revoke that key in the dashboard now and create a new one, then connect the new key with { $command } in a private chat with me.
group-key-deleted = I deleted your message: it carried an API key or secret, which must never be posted in a group. Members may have seen it in their notifications; if in doubt, revoke it in the dashboard. { $command } works only in a private chat with me: tap the button below.

unhandled-key-deleted = ⚠️ I deleted your message: it looked like an API key or webhook secret. Never post keys in a chat. If it was a real key, revoke it in the dashboard and create a new one. To connect a key to this chat, send /link.
unhandled-key-not-deleted = ⚠️ Your message looks like an API key or webhook secret, and I could not delete it: please delete it yourself. If it was a real key, revoke it in the dashboard and create a new one.
