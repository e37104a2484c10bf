batch-card-title = 📦 <b>批量订单（共 { $count } 笔）</b>
batch-card-title-done = ✅ <b>批量订单（共 { $count } 笔）：全部完成</b>
batch-card-progress = 已完成 { $fulfilled } / { $total }，进行中 { $inProgress }
batch-card-totals = 能量：{ $energy } · 费用：{ $costTrx } TRX
batch-final-title = ✅ <b>本批 { $count } 笔订单已全部完成。</b>
batch-final-document = 附件 CSV 每行一笔订单，含订单号、状态和费用。
batch-quote-document = 完整报价（每行一笔订单）见附件。
batch-gave-up = 批量订单（共 { $count } 笔）尚未全部完成，我已停止跟踪，其卡片可能未及时更新。{ $command } 可查看每笔订单的最新状态。
