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
inline-unparsed-description = От { $amountMin } до { $amountMax } энергии, можно добавить срок.
inline-unparsed-message = После имени бота введите количество энергии от { $amountMin } до { $amountMax } и, по желанию, срок, например <code>100к 1 ч</code> или <code>65 000 15 мин</code>.
inline-range-title = { $amount } энергии — вне допустимого диапазона
inline-range-description = Допустимо от { $amountMin } до { $amountMax } энергии в одном заказе.
inline-range-message = Заказать { $amount } энергии нельзя: в одном заказе должно быть от { $amountMin } до { $amountMax } энергии.
inline-unknown-tier-title = Срока «{ $duration }» нет
inline-unknown-tier-description = Доступные сроки: { $labels }
inline-unknown-tier-message = Срока аренды <code>{ $duration }</code> нет. Доступны: { $labels }, например <code>100к { $example }</code>.
