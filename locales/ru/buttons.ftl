## Кнопки вместо команд: главные действия, /balance, /prices, итоговые карточки, ссылки

buttons-menu-balance = 💰 Баланс
buttons-menu-order = ⚡ Заказать энергию
buttons-menu-send = ✉️ Отправить USDT
buttons-menu-prices = 📈 Цены
buttons-menu-orders = 📜 Мои заказы
buttons-menu-topup = 💳 Пополнить
buttons-menu-broadcast = 📡 Отправить транзакцию
buttons-menu-settings = ⚙️ Настройки
buttons-menu-help = ❓ Помощь
buttons-menu-language = 🌐 Язык
buttons-menu-keep = 🔁 Держать заряженным
buttons-home = ◀️ Главная
buttons-home-limits = 🧊 Лимиты

buttons-balance-refresh = 🔄 Обновить
buttons-balance-updated = Баланс обновлён
buttons-balance-unchanged = С последней проверки ничего не изменилось

buttons-order-tier = ⚡ Заказать на { $tier }
buttons-order-tier-chosen = Срок: <b>{ $duration }</b>. Теперь укажите, кто получит энергию и сколько.

buttons-track = 🔄 Отслеживать
buttons-explorer = 🔎 В обозревателе
buttons-dashboard = 🖥 Панель управления
buttons-support = 💬 Поддержка
buttons-back = ◀️ Назад
