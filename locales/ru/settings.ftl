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
settings-keep-day-on = 📊 Планы: итог за день вкл.
settings-keep-day-off = 🔕 Планы: итог за день выкл.
settings-keep-day-enabled = После полуночи по вашему времени я пришлю один итог за день: заказы каждого плана и их стоимость.
settings-keep-day-disabled = Итог ваших планов за день выключен. Карточка каждого плана по-прежнему показывает его заказы.
