## Broadcast feature: /broadcast

broadcast =
    .description = Send a signed transaction with energy provided

broadcast-ask = Send the <b>signed</b> transaction as JSON text or as a .json file (with <code>txID</code>, <code>raw_data</code>, <code>raw_data_hex</code> and <code>signature</code>). I check it before anything is sent.
    Never send a private key or a recovery phrase: sign in your wallet, send only the result.
broadcast-secret-deleted = 🔒 I removed your message because it looked like a { $kind ->
    [mnemonic] recovery phrase
   *[other] private key
}; this bot never needs one, only signed transactions. If it was one, moving the funds to a new wallet is the safe choice, since it was visible in this chat for a moment. If it was something else, nothing is lost: it was only removed.

broadcast-refused-not-json = This is not valid JSON. Send the signed transaction exactly as your wallet produced it.
broadcast-refused-not-json-at = This is not valid JSON: it goes wrong at line { $line }, character { $column }. Send the signed transaction exactly as your wallet produced it.
broadcast-refused-not-json-end = This is not valid JSON: it ends too early (line { $line }, character { $column }), so part of it is probably missing. Send the complete signed transaction, or send it as a .json file.
broadcast-refused-too-large = The transaction is over 1 MiB; a signed transaction is only a few kilobytes. Nothing was sent.
broadcast-refused-not-object = This is not a transaction object. Send the signed transaction JSON with <code>txID</code>, <code>raw_data</code>, <code>raw_data_hex</code> and <code>signature</code>.
broadcast-refused-malformed = The transaction is incomplete or unreadable: { $detail }. Nothing was sent.
broadcast-refused-txid-mismatch = The <code>txID</code> does not equal <code>sha256(raw_data_hex)</code>: the transaction was changed after it was built (it declares { $declared }, its bytes give { $derived }). Sign it again.
broadcast-refused-raw-data-mismatch = <code>raw_data</code> disagrees with <code>raw_data_hex</code>: { $detail }. The JSON does not say what was signed. Send the transaction exactly as signed.
broadcast-refused-no-signature = The transaction is not signed. Sign it in your wallet first, then send it here.
broadcast-refused-bad-signature = The signature does not match the sender: the sender is { $owner }, the transaction was signed by { $signers }. Sign it with the sender's own wallet.
broadcast-refused-multiple-contracts = The transaction holds { $count } contracts; only a single contract call can be broadcast.
broadcast-refused-expired = Expired: the transaction has passed its expiration or has under 30 seconds left. Sign a new one with about 600 seconds of expiration.
broadcast-refused-insufficient-time = Too little time left: { $seconds } s before the transaction expires, under 75 seconds. Sign a new one with about 600 seconds of expiration.
broadcast-refused-pricing-unavailable = Prices are unavailable right now, so I cannot estimate the fee. Try again in a minute.

broadcast-summary-title = <b>Check before sending</b>
broadcast-kind-usdt = USDT transfer: <b>{ $amount } USDT</b>
broadcast-kind-trx = TRX transfer: <b>{ $amount } TRX</b>
broadcast-kind-contract = Other contract call ({ $contractType }) to { $contract }
broadcast-summary-from = From: { $address }
broadcast-summary-to = To: { $address }
broadcast-summary-txid = Transaction id: { $txId }
broadcast-summary-time-left = Time left: { $timeLeft }
broadcast-summary-energy-usdt = Estimated energy: about { $holder }, or about { $firstTime } if the recipient has never held USDT.
broadcast-summary-fee-usdt = Estimated fee at the base price of { $unitPriceSun } sun: { $holderTrx } TRX, or { $firstTimeTrx } TRX for a first-time recipient.
broadcast-summary-energy = Estimated energy: about { $units }; fee at the base price of { $unitPriceSun } sun: about { $feeTrx } TRX.
broadcast-summary-bandwidth = Estimated bandwidth: about { $units }; fee at the base price of { $unitPriceSun } sun: about { $feeTrx } TRX.
broadcast-summary-confirm-hint = The fee is charged when the service accepts it and refunded if the broadcast fails or expires.
broadcast-confirm-button = ✅ Confirm
broadcast-cancel-button = Cancel
broadcast-retry-button = 🔁 Retry
broadcast-cancelled = Broadcast cancelled. Nothing was sent or charged.
broadcast-already-submitted = This transaction was already submitted.
broadcast-accepted = Broadcast { $broadcastId } accepted: { $status }.
broadcast-duplicate-known = This transaction was already submitted: broadcast { $broadcastId } (transaction { $txId }), status { $status }. Nothing new was charged.
broadcast-duplicate-unknown = The service already has a broadcast for transaction { $txId } in flight or confirmed, and this chat has no record of it. Nothing new was charged. If your account submitted it, its updates reach this chat when the service reports them; you can also look the transaction id up on a block explorer.
broadcast-known-active = This transaction { $txId } was already submitted: broadcast { $broadcastId }, status { $status }. The service will not take it twice, so there is nothing to confirm and nothing new was charged. Follow it with { $track }.
broadcast-known-failed = Note: an earlier broadcast of this transaction, { $broadcastId }, ended { $status }. The same signed transaction may be submitted again while it has not expired.
broadcast-known-expired = Note: an earlier broadcast of this transaction, { $broadcastId }, ended { $status }. The service accepts it again, but it was not confirmed in time before: a freshly signed transaction with about 600 seconds of expiration is the safer choice.

## What a transaction does, read from the signed bytes (system contracts cost bandwidth, not energy)
broadcast-refused-unsupported-contract = I cannot read this kind of contract ({ $contract }), so I cannot show you what it does and the service cannot provision it. Nothing was sent.
broadcast-refused-too-many-signatures = The transaction carries { $count } signatures, more than the network allows ({ $max }); the chain refuses it. Sign it again with only the keys that are needed.
broadcast-refused-signature-format = Signature { $index } cannot be read the way the chain reads it: { $detail }. Send the transaction exactly as your wallet signed it.
broadcast-refused-duplicate-signature = The same signer appears twice ({ $signer }); the chain refuses that. Keep one signature per key and send it again.
broadcast-refused-extra-signature = The transaction carries { $count } signatures, more than its owner has keys (also signed by { $others }); the chain refuses it. Send it with only the owner's signature.
broadcast-refused-permission-not-owner = This transaction is signed through multi-signature permission { $permissionId } by { $signers }, not by the owner { $owner }. The service checks the signature against the owner's address, so it would refuse it. Have the owner's key sign it as well, or broadcast it yourself.
broadcast-malformed-hostile-field = the JSON has a field named { $field }, which no transaction has
broadcast-malformed-too-deep = the JSON is nested more than { $depth } levels deep
broadcast-malformed-shape-hex64 = { $field } must be 64 hexadecimal characters
broadcast-malformed-shape-hex = { $field } must be a non-empty hexadecimal string
broadcast-malformed-shape-object = { $field } must be an object
broadcast-malformed-shape-hex-list = { $field } must be a list of hexadecimal strings
broadcast-malformed-bytes-unreadable = the signed bytes (<code>raw_data_hex</code>) cannot be decoded
broadcast-malformed-no-contract = the signed bytes hold no contract
broadcast-malformed-no-owner = the contract names no sender (<code>owner_address</code>)
broadcast-malformed-expiration-out-of-range = the expiration time is out of range
broadcast-mismatch-field-differs = { $field } says something else than the signed bytes
broadcast-mismatch-field-missing = { $field } is missing
broadcast-mismatch-contract-type-differs = { $field } says { $claimed }, the signed bytes hold { $signed }
broadcast-mismatch-contracts-differ = the contract list does not match the signed contracts ({ $count })
broadcast-signature-not-hex = it is not hexadecimal
broadcast-signature-size = it is { $size } bytes long, not { $expected }
broadcast-signature-header = its recovery byte is { $header }, outside the allowed range
broadcast-signature-value-range = its { $part } value is out of range
broadcast-signature-recovery-id-unsupported = its recovery id is not supported
broadcast-signature-unrecoverable = no public key can be recovered from it
broadcast-contract-type-number = contract type no. { $number }
broadcast-refused-expiration-too-far = The expiration is more than 24 hours ahead, and the chain refuses that. Sign a new one with about 600 seconds of expiration.
broadcast-kind-trc20 = Token transfer on contract { $contract }: <b>{ $amount }</b> in the token's smallest units (its decimals are not known here)
broadcast-kind-freeze = Stake <b>{ $amount } TRX</b> to get { $resource ->
    [ENERGY] energy
    [TRON_POWER] TRON Power
   *[BANDWIDTH] bandwidth
}
broadcast-kind-unfreeze = Unstake <b>{ $amount } TRX</b> staked for { $resource ->
    [ENERGY] energy
    [TRON_POWER] TRON Power
   *[BANDWIDTH] bandwidth
} (the TRX comes back after the waiting period)
broadcast-kind-unfreeze-all = Unstake all TRX staked for { $resource ->
    [ENERGY] energy
    [TRON_POWER] TRON Power
   *[BANDWIDTH] bandwidth
} (Stake 1.0)
broadcast-kind-delegate = Lend the { $resource ->
    [ENERGY] energy
   *[BANDWIDTH] bandwidth
} of <b>{ $amount } TRX</b> of stake to another account{ $lock ->
    [yes] , locked for a while
   *[no] {""}
}
broadcast-kind-undelegate = Take back the { $resource ->
    [ENERGY] energy
   *[BANDWIDTH] bandwidth
} of <b>{ $amount } TRX</b> of stake lent to another account
broadcast-kind-withdraw-unfreeze = Withdraw the unstaked TRX whose waiting period is over
broadcast-kind-withdraw-balance = Withdraw the account's voting and block rewards
broadcast-kind-cancel-unfreeze = Cancel every pending unstake (the TRX is staked again; what has matured is withdrawn)
broadcast-kind-account-create = Activate a new account (the sender pays the creation fee)
broadcast-kind-vote = Vote for { $count } super representatives, { $total } votes in all
broadcast-summary-vote = Vote: { $address } × { $count }
broadcast-kind-transfer-asset = TRC10 token transfer: <b>{ $amount }</b> of token { $asset }
broadcast-kind-contract-settings = Change a contract's settings ({ $contractType }) on { $contract }
broadcast-kind-clear-abi = Delete the ABI published for contract { $contract } (the list of its functions that wallets and explorers read); the contract's code and funds are not touched
broadcast-kind-account-update = Rename the account
broadcast-summary-call-value = The call also sends <b>{ $amount } TRX</b> to the contract.
broadcast-summary-permission = ⚠️ Signed through permission #{ $permissionId } (multi-signature). The service checks the signature against the owner { $address }; only the owner's signature counts there.
broadcast-summary-memo = Memo signed with it (the recipient sees it on chain): <i>{ $memo }</i>
broadcast-summary-memo-hex = Memo signed with it, not readable as text (shown as hex): { $memo }

## A Confirm whose answer was lost: the outcome is unknown until the same transaction is sent again (the service deduplicates it)
broadcast-unknown-checking = ⏳ I sent transaction { $txId }, but the service's answer was lost, so it may have been accepted. I am checking now and will update this message. Do not sign or send this transfer again.
broadcast-unknown-pending = ⏳ I still cannot tell whether transaction { $txId } was accepted: the service has not answered yet. I keep checking in the background and will update this message as soon as I know. Do not sign or send this transfer again; it cannot be charged twice.
broadcast-unknown-refused = ❌ Transaction { $txId } was not accepted, and nothing was charged for it:
    { $reason }
broadcast-unknown-expired = ⚠️ I could not learn whether transaction { $txId } was accepted: it has expired since, so it cannot be sent again. If it was accepted, its result reaches this chat when the service reports it; you can also look the transaction id up on a block explorer.
broadcast-unknown-accepted-unnamed = ✅ Transaction { $txId } was accepted: the service already has a broadcast of it, but did not say which one. Its updates reach this chat when the service reports them; you can also look the transaction id up on a block explorer. Do not sign or send this transfer again.
