batch-card-title = 📦 <b>Batch of { $count } orders</b>
batch-card-title-done = ✅ <b>Batch of { $count } orders: all fulfilled</b>
batch-card-progress = { $fulfilled } / { $total } fulfilled, { $inProgress } in progress
batch-card-totals = Energy: { $energy } · cost: { $costTrx } TRX
batch-final-title = ✅ <b>All { $count } orders of the batch are fulfilled.</b>
batch-final-document = The attached CSV has one line per order with its id, status and cost.
batch-quote-document = The full quote, one line per order, is in the attached file.
batch-gave-up = I stopped following the batch of { $count } orders before every order was fulfilled, so its card may be behind. { $command } shows each order's latest status.
