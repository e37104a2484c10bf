## Statements: /statement [month]

statement =
    .description = Monthly statement: chart, totals and CSV

statement-bad-month = I could not read «{ $input }» as a month. Send the year and month, for example { $example } (11.2026 and 11/2026 work too); without a month you get the current one.
statement-empty = No orders, broadcasts or refunds in { $month } (time zone { $zone }). Pick another month, for example { $example }.
statement-csv-caption = Statement for { $month }: { $lines ->
        [one] { $lines } line
       *[other] { $lines } lines
    }, times in { $zone }.
statement-chart-caption = Spend per day in { $month }, in TRX, refunds deducted (days in { $zone }).
statement-csv-button = 📄 CSV of the month
statement-summary =
    <b>Statement of this account for { $month }</b> (time zone { $zone })
    Orders: { $orders }, { $ordersTrx } TRX
    Broadcasts: { $broadcasts }, { $broadcastsTrx } TRX
    Refunds: { $refunds }, { $refundsTrx } TRX
    <b>Net spend: { $netTrx } TRX</b>
statement-saving = Estimated saving against burning TRX: <b>{ $savingTrx } TRX</b>. This is an estimate: the { $energy } energy of your orders, burnt at { $price } sun per energy, would cost { $burnTrx } TRX; the orders cost { $ordersTrx } TRX.
statement-saving-none = Estimated saving against burning TRX: none this month. This is an estimate: the { $energy } energy of your orders, burnt at { $price } sun per energy, would cost { $burnTrx } TRX; the orders cost { $ordersTrx } TRX, that is { $extraTrx } TRX more.
statement-saving-no-orders = No energy orders this month, so there is no saving to estimate.
statement-saving-broadcasts = Broadcasts are not in the estimate: their fees are counted in the totals, but I do not know the energy behind each fee.

## The chart image: its title and axis names (drawn with the fonts in assets/fonts; a new character there needs `scripts/chart-fonts.sh`).
statement-chart-title = { $month } · TRX per day
statement-chart-axis-day = Day
statement-chart-axis-trx = TRX
