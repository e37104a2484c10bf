## /balance

balance-available = Available balance: <b>{ $availableTrx } TRX</b>
balance-deposit =
    Deposit address (tap to copy):
    { $address }

    Send TRX to it to top up.
balance-no-address = Your deposit address has not been issued yet. It appears in the dashboard once it exists; check /balance again later.
balance-no-wallet = Your account has no wallet yet, so there is no balance to show. Create the wallet in the dashboard, then send /balance again.
