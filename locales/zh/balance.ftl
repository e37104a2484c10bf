## /balance

balance-available = 可用余额：<b>{ $availableTrx } TRX</b>
balance-deposit =
    充值地址（点击即可复制）：
    { $address }

    向该地址转入 TRX 即可充值。
balance-no-address = 充值地址尚未生成。生成后会显示在控制台中，请稍后再用 /balance 查看。
balance-no-wallet = 您的账户还没有钱包，因此暂无余额。请在控制台创建钱包后，再发送 /balance。
