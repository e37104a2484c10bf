## Ввод с учётом языка: подписи сроков на кнопках, неоднозначные количества

# Срок, подпись которого только сокращает длительность, как его показывает кнопка («1 ч», «15 мин»).
input-tier-label = { $unit ->
    [h] { $count } ч
    [m] { $count } мин
   *[s] { $count } с
}
input-amount-ambiguous = «{ $value }» можно понять двояко: { $first } или { $second }. Заказ не создан. Напишите число без запятой, например <code>{ $first }</code> или <code>{ $second }</code>.
input-amount-ambiguous-reason = «{ $value }» можно понять как { $first } или как { $second } — напишите без запятой
input-trx-ambiguous = «{ $value }» можно понять двояко: { $first } TRX или { $second } TRX. Ничего не изменено. Напишите <code>{ $first }</code> или <code>{ $second }</code>: разряды — через пробел, дробная часть — после запятой.
