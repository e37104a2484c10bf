## Pasted text: the bot's own ids, keys pasted outside /link

paste-own-id = 🔎 { $id } is one of your { $kind ->
    [order] orders
   *[other] broadcasts
}.
paste-own-txid = 🔎 { $txId } is the transaction of your broadcast { $broadcastId }. It is a public id, not a secret.
paste-track-hint = Tap the button to see its live status (or send <code>/track id</code>).
paste-flow-still-waiting = The question above is still open: answer it, or send /cancel.
paste-track-button = 🔎 Track …{ $id }
