## /system

system-title = <b>Состояние сервиса</b> (на { $updatedAt })
system-pools = Пулы энергии: активно { $activeCount } из { $poolCount }, неактивно { $inactiveCount }.
system-energy = Энергия, которую можно выделить прямо сейчас: <b>{ $matchable }</b>. Зарезервировано под выполняемые заказы: { $reserved }. Всего доступно: { $available }.
system-provider =
    <b>Для поставщиков энергии</b>
    Чтобы продавать свою энергию через сервис, выдайте адресу { $address } активное разрешение на { $permissions }, а затем, войдя в личный кабинет, зарегистрируйтесь по адресу { $registerPath }.
system-provider-terms = Условия по умолчанию: выплаты каждые { $paymentHours } ч (можно выбрать от { $paymentHoursMin } до { $paymentHoursMax } ч), минимальная цена { $minPriceSun } sun, доля прибыли { $profitSharePercent }%, минимальное делегирование { $minDelegateAmount } энергии, резерв { $maintainBuffer }, сроки аренды от { $minDuration } до { $maxDuration }.
system-instructions = Текст сервиса для поставщиков (приводится как есть, без перевода):
    <blockquote>{ $instructions }</blockquote>
