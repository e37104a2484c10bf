## Send USDT from the user's own wallet: /send, the signing link and the signing page

send =
    .description = Send USDT from your wallet with rented energy

send-ask-recipient = <b>Send USDT</b> from your own wallet at the rented-energy price. Who receives it? Tap a recent address, paste a TRON address, or type a saved label.
    Next time in one line: <code>/send address amount</code>
send-ask-amount = How much USDT to { $address }? Tap an amount or type it (up to 6 decimals).
send-bad-recipient = <b>{ $text }</b> is neither a TRON address nor a saved label. A TRON address starts with T and has 34 characters.
send-bad-amount = <b>{ $text }</b> is not an amount of USDT. Write it like 25 or 25.5 (at most 6 decimals).
send-ambiguous-amount = <b>{ $text }</b> can be read two ways: { $first } or { $second } USDT. Write it with a point for decimals, like 25.5.
send-zero-amount = The amount must be above zero.
send-no-public-url = Sending from your wallet needs the bot's signing page, and this bot's operator has not set its public address (<code>PUBLIC_URL</code>). Until then you can still sign elsewhere and paste the result with /broadcast.

send-lookalike = ⚠️ <b>Check the address character by character.</b> { $to } looks like { $known }, an address you have used, but it is a different address. Thieves send dust from such lookalikes so that one gets copied from the history. Go on only if you are sure.
send-lookalike-label = The address you used is saved as <b>{ $label }</b>.
send-quote-title = <b>Send USDT from your wallet</b>
send-quote-to = To: { $address }
send-quote-to-label = To: <b>{ $label }</b> { $address }
send-quote-amount = Amount: <b>{ $amount } USDT</b>
send-quote-fee = Energy fee from your balance: about { $holderTrx } TRX (about { $holderEnergy } energy), or { $firstTimeTrx } TRX if the recipient has never held USDT (about { $firstTimeEnergy } energy).
send-quote-burn = Without rented energy your wallet would burn about { $holderBurnTrx }–{ $firstTimeBurnTrx } TRX for the same transfer.
send-quote-how = After Confirm you get a link to sign the transfer in your wallet (TronLink, TokenPocket, OKX, Bitget). Your wallet only signs; I send it, and the fee is charged when the service accepts it.
send-confirm-button = ✅ Confirm and sign
send-confirm-anyway-button = ⚠️ Confirm anyway
send-cancel-button = Cancel
send-cancelled = Sending cancelled. Nothing was signed or charged.

send-signing-title = <b>Sign in your wallet</b>: { $amount } USDT to { $address }
send-signing-how = Tap <b>Sign in wallet</b> to open the page in a browser with your wallet, or open this link in your wallet app's own browser (DApp browser), or scan the QR code with your wallet on another device:
send-signing-expires = The link works once and until { $time }.
send-sign-button = ✍️ Sign in wallet
send-qr-button = 📷 QR code
send-new-link-button = 🔗 New link
send-qr-caption = Scan with your wallet app to sign: { $amount } USDT to { $address }.
send-link-dead = This signing link is no longer valid.

send-mismatch = ⛔ The transaction your wallet signed does not match what you confirmed ({ $what }). Nothing was sent and nothing was charged. If you did not change it yourself, do not use that wallet or page for this transfer.
send-mismatch-approve = it asks to approve spending of your tokens instead of a transfer
send-mismatch-transfer_from = it moves tokens from someone else's address
send-mismatch-other_method = it calls another method of the contract
send-mismatch-other_contract = it is on another token contract
send-mismatch-other_recipient = it pays another recipient
send-mismatch-other_amount = it sends another amount
send-mismatch-not_a_contract_call = it is not a token transfer
send-mismatch-call_value = it also sends TRX
send-mismatch-extra_data = it carries extra data
send-wallet-sent-it = Your wallet already sent this transaction itself, so the service did not take it again and nothing was charged. Follow it on the explorer: { $txId }.

## The signing page (plain text: the page escapes it)
sign-page-title = Send USDT
sign-page-from = From
sign-page-to = To
sign-page-amount = Amount
sign-page-fee = Energy fee
sign-page-fee-value = about { $holderTrx } TRX from your bot balance, or { $firstTimeTrx } TRX if the recipient has never held USDT
sign-page-network = Network
sign-page-network-mainnet = TRON mainnet
sign-page-network-nile = TRON Nile testnet
sign-page-network-shasta = TRON Shasta testnet
sign-page-connect = Connect wallet
sign-page-sign = Sign and send
sign-page-connecting = Asking your wallet for its account…
sign-page-checking = Checking with your wallet's node…
sign-page-building = Preparing the transfer…
sign-page-signing = Confirm in your wallet: it only signs, the bot sends it.
sign-page-sending = Sending…
sign-page-done = Sent. Follow it in the chat: the card there shows each step.
sign-page-no-wallet = No TRON wallet found in this browser.
sign-page-no-wallet-how = Open this link in your wallet app's own browser: in TronLink, TokenPocket, OKX or Bitget tap Discover (or Browser), paste the link, or scan this QR code with the wallet's scanner.
sign-page-accounts-refused = The wallet did not share an account. Unlock it, allow this page, and try again.
sign-page-wrong-network = Your wallet is on another network ({ $found }); this transfer is on { $expected }. Switch the wallet's network and reload.
sign-page-low-usdt = This account holds { $balance } USDT, less than { $amount } USDT. The transfer would fail.
sign-page-low-bandwidth = This account has little free bandwidth left today; the network may burn a little TRX (well under 1 TRX) for the transaction's size.
sign-page-energy = Energy this transfer needs: { $energy }.
sign-page-declined = You declined in the wallet. Nothing was sent.
sign-page-failed = Something went wrong: { $reason }
sign-page-link-dead = This link is no longer valid: it was used, it expired, or it never existed. Ask the bot for a new one in the chat.
sign-page-mismatch = The signed transaction does not match what you confirmed in the chat, so it was not sent.
sign-page-already-sent = Your wallet sent this transaction itself. It is on its way; the chat has the details.
sign-page-refused = The bot did not send it: { $reason }
