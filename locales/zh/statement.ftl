## Statements: /statement [month]

statement =
    .description = 月度账单：CSV、图表和汇总

statement-bad-month = 无法把「{ $input }」识别为月份。请发送年份和月份，例如 { $example }（也可以写 11.2026 或 11/2026）；不写月份则为本月。
statement-empty = { $month }没有订单、广播或退款（时区 { $zone }）。请换一个月份，例如 { $example }。
statement-csv-caption = { $month }账单：共 { $lines } 行，时间按 { $zone } 时区。
statement-chart-caption = { $month }每日支出（TRX，已扣除退款；日期按 { $zone } 时区）。
statement-csv-button = 📄 本月 CSV
statement-summary =
    <b>此账户 { $month }账单</b>（时区 { $zone }）
    订单：{ $orders } 笔，{ $ordersTrx } TRX
    广播：{ $broadcasts } 笔，{ $broadcastsTrx } TRX
    退款：{ $refunds } 笔，{ $refundsTrx } TRX
    <b>净支出：{ $netTrx } TRX</b>
statement-saving = 与燃烧 TRX 相比的预计节省：<b>{ $savingTrx } TRX</b>。这是估算：您订单的 { $energy } 能量若按每单位 { $price } sun 燃烧 TRX 获得，需要 { $burnTrx } TRX；这些订单实际花费 { $ordersTrx } TRX。
statement-saving-none = 与燃烧 TRX 相比的预计节省：本月没有节省。这是估算：您订单的 { $energy } 能量若按每单位 { $price } sun 燃烧 TRX 获得，需要 { $burnTrx } TRX；这些订单实际花费 { $ordersTrx } TRX，多出 { $extraTrx } TRX。
statement-saving-no-orders = 本月没有能量订单，因此无法估算节省。
statement-saving-broadcasts = 广播不计入估算：其费用已计入汇总，但我不知道每笔费用对应多少能量。

## 图表图片的标题和坐标轴名称（使用 assets/fonts 中的字体绘制；此处新增字符需运行 `scripts/chart-fonts.sh`）。
statement-chart-title = { $month } · 每日支出（TRX）
statement-chart-axis-day = 日
statement-chart-axis-trx = TRX
