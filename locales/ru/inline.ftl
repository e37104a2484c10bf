## Инлайн-расчёт цены

inline-quote-title = { $label }: { $totalTrx } TRX за { $amount } энергии
inline-quote-description = { $unitPriceSun } sun за единицу, аренда на { $duration }
inline-quote-message =
    <b>Расчёт цены энергии</b>
    { $amount } энергии на { $tier }: <b>{ $totalTrx } TRX</b>
    Цена за единицу: { $unitPriceSun } sun. Цены меняются вместе с рынком.
inline-order-button = Заказать в боте
inline-connect-button = Подключить аккаунт
inline-unparsed-title = Введите количество, например 100к 1 ч
inline-range-hint = В одном заказе от { $amountMin } до { $amountMax } энергии
inline-unknown-tier-hint = Срока «{ $duration }» нет: выберите { $labels }
