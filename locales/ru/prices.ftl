## /prices

prices-title = <b>Цены на энергию</b>
prices-tier = <b>{ $tier }</b>: { $unitPriceSun } sun за единицу, { $sampleAmount } энергии = <b>{ $sampleTrx } TRX</b>
prices-range = В одном заказе можно арендовать от { $amountMin } до { $amountMax } энергии.
prices-footer = Базовая цена: { $baseUnitPriceSun } sun за единицу. Цены следуют за рынком и могут измениться в любой момент; расчёт в боте всегда по текущим.
