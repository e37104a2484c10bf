batch-card-title = 📦 <b>Пакет из { $count } заказов</b>
batch-card-title-done = ✅ <b>Пакет из { $count } заказов: все выполнены</b>
batch-card-progress = Выполнено { $fulfilled } / { $total }, в работе { $inProgress }
batch-card-totals = Энергия: { $energy } · стоимость: { $costTrx } TRX
batch-final-title = ✅ <b>Все { $count } заказов пакета выполнены.</b>
batch-final-document = В приложенном CSV по строке на заказ: номер, статус и стоимость.
batch-quote-document = Полная котировка, по строке на заказ, — в приложенном файле.
