## Pasted text: the bot's own ids, keys pasted outside /link

paste-own-id = 🔎 { $id } is one of your { $kind ->
    [order] orders
   *[other] broadcasts
}.
paste-own-txid = 🔎 { $txId } is the transaction of your broadcast { $broadcastId }. It is a public id, not a secret.
paste-track-hint = Tap the button to see its live status (or send <code>/track id</code>).
paste-flow-still-waiting = The question above is still open: answer it, or send /cancel.
paste-track-button = 🔎 Track …{ $id }

paste-key-linked = 🔐 That looked like your API key, so I removed the message (a key should not stay in a chat) and connected it to this chat.
paste-key-tried = 🔐 That looked like an API key, so I removed the message (a key should not stay in a chat) and tried to connect it to this chat.
paste-key-same = 🔐 That is the API key already connected to this chat: nothing changes, and there is nothing to revoke.
paste-key-delete-yourself = I could not delete your message: please delete it yourself.
