## /start, /help, /cancel, /language

start-welcome =
    Здравствуйте, { $name }! Я арендую энергию TRON для ваших транзакций, чтобы не сжигать TRX.
    { $prices }

    Для начала подключите аккаунт: отправьте /link и вставьте API-ключ из личного кабинета.
    А пока /prices покажет текущие цены, а /system — состояние сервиса.

home-title = 🏠 <b>{ $name }</b>, ваш аккаунт подключён.
home-balance = 💰 Баланс: <b>{ $availableTrx } TRX</b>
home-balance-no-wallet = 💰 У аккаунта ещё нет кошелька для пополнения: создайте его в личном кабинете.
home-balance-unreadable = 💰 Баланс сейчас не читается; кнопка 💰 Баланс попробует ещё раз.
home-attention = <b>Требует внимания</b>
home-attention-frozen = 🧊 Расходы заморожены: ни заказ, ни продление не списываются, пока вы их не разморозите.
home-attention-low-balance = ⚠️ Баланс ниже вашего порога оповещения { $thresholdTrx } TRX.
home-attention-plan-balance = ⏸ План для { $receiver } ждёт пополнения.
home-attention-plan-paused = ⏸ План для { $receiver } приостановлен вашими лимитами расходов.
start-prices-cheaper = Сегодня аренда стоит от { $unitPriceSun } sun за единицу энергии ({ $tier }), сжигание TRX — { $burnPriceSun } sun: на { $percent }% дешевле.
start-prices-dearer = Сегодня аренда стоит от { $unitPriceSun } sun за единицу энергии ({ $tier }), сжигание TRX — { $burnPriceSun } sun, так что сейчас аренда не дешевле.
start-prices-unavailable = Сегодняшние цены сейчас не читаются: /prices покажет, сколько стоит аренда по сравнению со сжиганием TRX, когда сервис ответит.

help-title-private = <b>Что я умею</b>
help-title-group = <b>Команды, которые работают в группах</b>
help-section-everyday = <b>Каждый день</b>
help-section-orders = <b>Заказы, отправка, история</b>
help-section-account = <b>Аккаунт и настройки</b>
help-group-private = Всё, что касается вашего аккаунта, доступно только в личном чате с @{ $username }.
help-inline = В любом чате можно набрать <code>@{ $username } 100к 1 ч</code> и получить расчёт цены.

cancel-done = Отменено. Ничего не изменилось.
cancel-nothing = Сейчас нечего отменять.

language-choose = Выберите язык:
language-changed = Готово: теперь в этом чате я говорю по-русски.
