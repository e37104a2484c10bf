## /prices

prices-title = <b>Energy prices</b>
prices-tier = <b>{ $tier }</b>: { $unitPriceSun } sun per unit, { $sampleAmount } energy = <b>{ $sampleTrx } TRX</b>
prices-range = You can rent from { $amountMin } to { $amountMax } energy per order.
prices-footer = Base price: { $baseUnitPriceSun } sun per unit. Prices follow the market and may change at any time; a quote in the bot always uses the current ones.
