## Keys and wallet secrets posted in a group as plain messages

groups-key-deleted = I deleted a message here: it carried an API key or webhook secret, which must never be posted in a group. Members may have seen it in their notifications; if in doubt, revoke it in the dashboard and create a new one. Keys are connected only in a private chat with me: tap the button below.
groups-seed-deleted = ⚠️ I deleted a message here: it looked like a wallet recovery phrase. Anyone who saw it can take the wallet's funds. If it was real, move the funds to a new wallet now. I never need a recovery phrase.
groups-seed-exposed = ⚠️ This message looks like a wallet recovery phrase, visible to everyone in the group, and I am not allowed to delete it here. If it is real, move the funds to a new wallet now and delete the message. I never need a recovery phrase.
groups-hex-deleted = I removed a message with a 64-character hex value: it may be a wallet private key, which must never be posted in a group. If it was a transaction id, nothing is lost; if it was a private key, move the funds to a new wallet.
groups-hex-exposed = This message has a 64-character hex value, and I am not allowed to delete it here. If it is a transaction id, all is well; if it is a wallet private key, move the funds to a new wallet now and delete the message.
