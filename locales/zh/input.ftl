## 按语言输入：按钮上的时长名称、有歧义的数量

# 标签只是时长缩写的档位在按钮上的显示（“1小时”“15分钟”）。
input-tier-label = { $unit ->
    [h] { $count }小时
    [m] { $count }分钟
   *[s] { $count }秒
}
input-amount-ambiguous = “{ $value }”有两种理解：{ $first } 或 { $second }。尚未下单。请写不带逗号的数字，例如 <code>{ $first }</code> 或 <code>{ $second }</code>。
input-amount-ambiguous-reason = “{ $value }”可理解为 { $first } 或 { $second }，请去掉逗号
input-trx-ambiguous = “{ $value }”有两种理解：{ $first } TRX 或 { $second } TRX。未作任何更改。请写成 <code>{ $first }</code> 或 <code>{ $second }</code>。
