## /prices

prices-title = <b>能量价格</b>
prices-tier = <b>{ $tier }</b>：每单位 { $unitPriceSun } sun，{ $sampleAmount } 能量 = <b>{ $sampleTrx } TRX</b>
prices-range = 每笔订单可租用 { $amountMin } 至 { $amountMax } 能量。
prices-footer = 基础价格：每单位 { $baseUnitPriceSun } sun。价格随市场变动，可能随时调整；机器人中的报价始终按当前价格计算。
