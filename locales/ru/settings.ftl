## /settings

settings =
    .description = Настройки уведомлений
settings-title =
    <b>Уведомления</b>

    Выберите, о чём я буду сообщать сам, когда меняется статус. Нажмите кнопку, чтобы включить или выключить. Команда /track по-прежнему покажет любой заказ или отправку по запросу.
settings-orders-on = ✅ Заказы: вкл.
settings-orders-off = 🔕 Заказы: выкл.
settings-broadcasts-on = ✅ Отправки: вкл.
settings-broadcasts-off = 🔕 Отправки: выкл.
settings-orders-enabled = Уведомления о заказах включены.
settings-orders-disabled = Уведомления о заказах выключены.
settings-broadcasts-enabled = Уведомления об отправках включены.
settings-broadcasts-disabled = Уведомления об отправках выключены.
