## /webhook

webhook =
    .description = Service notifications: callback URL and secret
webhook-title = <b>Service notifications (webhooks)</b>
webhook-url =
    Your personal callback URL:
    { $url }

    Paste it into the <b>Callback URL</b> field of this API key in the dashboard. Then the service tells me about your orders and broadcasts the moment they change.
webhook-no-public-url = This bot has no public address (<code>PUBLIC_URL</code> is not set), so the service cannot reach it. I check the status of your orders and broadcasts myself instead.
webhook-secret-set = ✅ Webhook secret stored (encrypted): every notification is checked against it, and forged ones are refused.
webhook-secret-none = ⚠️ No webhook secret stored: I cannot verify notifications, so I only take them as a hint and check every status with the service myself.
webhook-set-secret-button = Set secret
webhook-change-secret-button = Change secret
webhook-remove-secret-button = Remove secret
webhook-rotate-button = New callback URL
webhook-rotate-confirm =
    Create a new callback URL? The current one stops working <b>immediately</b>: until you paste the new URL into the dashboard, the service's notifications will not reach me (I still check statuses myself).
webhook-rotate-confirm-button = Yes, new URL
webhook-rotate-cancel-button = Keep the current one
webhook-rotated = 🔄 New callback URL created. The old one no longer works: update it in the dashboard.
webhook-secret-removed = The webhook secret was removed.
webhook-cancel-button = Cancel
webhook-ask-secret =
    Send me the <b>webhook secret</b> that the dashboard showed together with your API key.

    I will delete your message right away and keep the secret only in encrypted form.
webhook-ask-secret-text = Please send the webhook secret as a text message, or press Cancel.
webhook-secret-format = That does not look like a webhook secret: it should be one word without spaces. Copy it from the dashboard and send it again.
webhook-secret-is-key = That is an <b>API key</b>, not the webhook secret. I deleted it and did not store it. Send the <b>webhook secret</b> that was shown together with the key.
webhook-secret-saved = ✅ Webhook secret saved. I deleted your message; from now on notifications are verified with it.
webhook-usage =
    Usage: <code>/webhook</code> shows your callback URL; <code>/webhook secret WEBHOOK_SECRET</code> sets the secret in one step.

    I deleted your message because it may contain a secret.
webhook-delete-failed = ⚠️ I could not delete your message with the secret. Please delete it yourself.
