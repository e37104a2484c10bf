## Statements: /statement [month]

statement =
    .description = Выписка за месяц: CSV, график и итоги

statement-bad-month = Не удалось прочитать «{ $input }» как месяц. Укажите год и месяц, например { $example } (можно и 11.2026 или 11/2026); без месяца будет выписка за текущий.
statement-empty = За { $month } нет заказов, отправок и возвратов (часовой пояс { $zone }). Выберите другой месяц, например { $example }.
statement-csv-caption = Выписка за { $month }: строк — { $lines }, время в поясе { $zone }.
statement-chart-caption = Расходы по дням за { $month }, в TRX, за вычетом возвратов (дни по поясу { $zone }).
statement-csv-button = 📄 CSV за месяц
statement-summary =
    <b>Выписка этого аккаунта за { $month }</b> (часовой пояс { $zone })
    Заказы: { $orders }, { $ordersTrx } TRX
    Отправки: { $broadcasts }, { $broadcastsTrx } TRX
    Возвраты: { $refunds }, { $refundsTrx } TRX
    <b>Итого потрачено: { $netTrx } TRX</b>
statement-saving = Примерная экономия по сравнению со сжиганием TRX: <b>{ $savingTrx } TRX</b>. Это оценка: энергия ваших заказов ({ $energy }) при сжигании по { $price } sun за единицу стоила бы { $burnTrx } TRX, а заказы стоили { $ordersTrx } TRX.
statement-saving-none = Примерная экономия по сравнению со сжиганием TRX: в этом месяце её нет. Это оценка: энергия ваших заказов ({ $energy }) при сжигании по { $price } sun за единицу стоила бы { $burnTrx } TRX, а заказы стоили { $ordersTrx } TRX, то есть на { $extraTrx } TRX больше.
statement-saving-no-orders = В этом месяце не было заказов энергии, поэтому экономию оценить не из чего.
statement-saving-broadcasts = Отправки в оценку не входят: их комиссии учтены в итогах, но сколько энергии стоит за каждой комиссией, я не знаю.

## Картинка графика: заголовок и подписи осей (рисуются шрифтами из assets/fonts; новый символ здесь требует `scripts/chart-fonts.sh`).
statement-chart-title = { $month } · расходы по дням, TRX
statement-chart-axis-day = День
statement-chart-axis-trx = TRX
