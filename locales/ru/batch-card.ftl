batch-card-title = 📦 <b>Пакет заказов: { $count }</b>
batch-card-title-done = ✅ <b>Пакет заказов: { $count }, все выполнены</b>
batch-card-progress = Выполнено { $fulfilled } / { $total }, в работе { $inProgress }
batch-card-totals = Энергия: { $energy } · стоимость: { $costTrx } TRX
batch-final-title = ✅ <b>Все заказы пакета выполнены: { $count }.</b>
batch-final-document = В приложенном CSV по строке на заказ: номер, статус и стоимость.
batch-quote-document = Полная котировка, по строке на заказ, — в приложенном файле.
batch-gave-up = Я перестал следить за пакетом (заказов: { $count }) до того, как все заказы были выполнены, поэтому его карточка может отставать. { $command } покажет последний статус каждого заказа.
