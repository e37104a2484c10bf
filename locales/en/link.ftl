## /link and /unlink

link-ask-key =
    Send me your <b>API key</b> from the dashboard (API keys page).

    I will delete your message right away and keep the key only in encrypted form.
link-ask-key-text = Please send the API key as a text message, or press Cancel.
link-key-format = That does not look like an API key: it should be one word without spaces. Copy it from the dashboard and send it again.
link-key-accepted = The service accepted the key.
link-key-accepted-no-wallet = The service accepted the key, but your account has no wallet yet.
link-ask-secret =
    Now send the <b>webhook secret</b> that was shown together with the key. With it I can verify the service's notifications and tell you about your orders at once.

    No secret? Press Skip: everything still works, I just check statuses myself.
link-ask-secret-text = Please send the webhook secret as a text message, or press Skip.
link-secret-format = That does not look like a webhook secret: it should be one word without spaces. Send it again or press Skip.
link-key-is-secret = That is the <b>webhook secret</b>, not the API key. I deleted it and sent it nowhere. First send the <b>API key</b> (the other value shown with it in the dashboard); I will ask for the webhook secret right after.
link-secret-is-key = That is an <b>API key</b>, not the webhook secret. I deleted it and did not use it. Send the <b>webhook secret</b> that was shown together with the key, or press Skip.
link-one-shot-swapped = The values look swapped or doubled: the first one must be the <b>API key</b>, the second the <b>webhook secret</b>. Nothing was sent or stored. Send /link again with them in that order, or just /link to be asked step by step.
link-cancel-button = Cancel
link-skip-button = Skip
link-usage =
    Usage: <code>/link API_KEY</code> or <code>/link API_KEY WEBHOOK_SECRET</code>. Or just send /link and I will ask step by step.

    I deleted your message because it may contain a key.
link-unavailable = The service cannot be reached right now, so I could not check the key and stored <b>nothing</b>. Please try /link again in a minute.
link-key-invalid = The service does not accept this API key (invalid key). Check that you copied all of it, or create a new key in the dashboard, and send /link again.
link-key-revoked = This API key was revoked. Create a new key in the dashboard and send /link again.
link-not-stored = Nothing was stored.
link-success = ✅ Your account is connected to this chat.
link-replaced = ✅ Your account is connected. The previous key of this chat was replaced.
link-balance = Available balance: <b>{ $availableTrx } TRX</b>.
link-no-wallet = Your account has no wallet yet, so there is no balance or deposit address. Open the dashboard to create the wallet; /balance will show it afterwards.
link-callback-url =
    Your personal callback URL:
    { $url }

    To get instant notifications, open the dashboard, edit this API key and paste the URL into the <b>Callback URL</b> field.
link-secret-stored = The webhook secret is stored encrypted; notifications are verified with it.
link-secret-missing = No webhook secret stored: I will treat notifications only as hints and check every status with the service myself.

unlink-confirm =
    Disconnect this chat from your account?

    <b>Deleted:</b> the stored API key, the webhook secret and this chat's callback URL. Quotes and broadcasts still waiting for Confirm can no longer be confirmed, and I stop reporting the statuses of this account's orders here.
    <b>Kept:</b> this account's order and broadcast history (it comes back when you link the same account again; another account linked here does not see it), your notification settings, saved receiver labels and the language.
unlink-confirm-button = Yes, disconnect
unlink-cancel-button = Keep it
unlink-kept = OK, your account stays connected.
unlink-done =
    Disconnected. The key, the webhook secret and the callback URL of this chat are deleted; open quotes and broadcasts can no longer be confirmed and status reports stopped.

    The account's history, your settings, saved labels and the language are kept: link the same account again with /link and /orders shows its history again.

link-callback-url-shared =
    This key's account is already connected in another chat, so its callback URL stays the same (an API key holds one callback URL):
    { $url }

    Nothing to change in the dashboard: following this URL keeps every connected chat informed.
link-account-shared = This chat now shares the account with the other connected chats: one history, one /statement, the same /limits. Notices about the account reach every connected chat, each in its own language. /unlink here leaves the other chats connected.
unlink-done-shared =
    Disconnected. This chat's key and webhook secret are deleted; quotes and broadcasts not yet confirmed here can no longer be confirmed, and this chat gets no more status reports.
    The account stays connected in { $count } other { $count ->
        [one] chat
       *[other] chats
    }: the callback URL keeps working for { $count ->
        [one] it
       *[other] them
    } as it is: there is nothing to change.
